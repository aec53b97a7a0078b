import Foundation
import MemprofProfile
import Testing

@testable import MemprofSampler

@Suite("Files from a real sampled run", .serialized)
struct RealProfileFormatTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let hasTools = (try? run(["python3", "-c", "import jsonschema"]).status) == 0
        && (try? run(["perl", "-e", "1"]).status) == 0

    @Test("folded stacks and speedscope JSON of two sampled handlers pass the format checks", .enabled(if: hasTools))
    func checks() throws {
        _ = JSONKernel.run(bytes: 1 << 16)
        let performer = SampledWorkPerformer(rateHz: 997)
        performer.perform(kernel: "json", sizeBytes: 2 << 20, app: "Mail", handler: "fetch")
        performer.perform(kernel: "compress", sizeBytes: 4 << 20, app: "News", handler: "backgroundTask")
        let profile = performer.makeProfile()
        try #require(profile.hasSamples)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-sampler-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let folded = folder.appendingPathComponent("stacks.folded")
        let speedscope = folder.appendingPathComponent("profile.speedscope.json")
        try profile.makeFoldedStacks().write(to: folded, atomically: true, encoding: .utf8)
        try profile.makeSpeedscopeJSON(name: "memprof test").write(to: speedscope)
        let scripts = Self.repository.appendingPathComponent("scripts")
        let foldedCheck = try Self.run(["bash", scripts.appendingPathComponent("check-folded.sh").path, folded.path])
        #expect(foldedCheck.status == 0, "\(foldedCheck.output)")
        let speedscopeCheck = try Self.run(["bash", scripts.appendingPathComponent("check-speedscope.sh").path, speedscope.path])
        #expect(speedscopeCheck.status == 0, "\(speedscopeCheck.output)")
        // The report form round-trips too.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(profile)
        #expect(try JSONDecoder().decode(SamplingProfile.self, from: data) == profile)
        try? FileManager.default.removeItem(at: folder)
    }
}
