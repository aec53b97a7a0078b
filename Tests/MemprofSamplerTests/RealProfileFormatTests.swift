import Foundation
import MemprofProfile
import MemprofTestSupport
import Testing

@testable import MemprofSampler

@Suite("Files from a real sampled run", .serialized)
struct RealProfileFormatTests {
    static let hasTools = ProcessRunner.succeeds(command: "python3", ["-c", "import jsonschema"])
        && ProcessRunner.succeeds(command: "perl", ["-e", "1"])

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
        let foldedCheck = try ProcessRunner.run(command: "bash", [Repository.script("check-folded.sh"), folded.path])
        #expect(foldedCheck.status == 0, "\(foldedCheck.output)")
        let speedscopeCheck = try ProcessRunner.run(command: "bash", [Repository.script("check-speedscope.sh"), speedscope.path])
        #expect(speedscopeCheck.status == 0, "\(speedscopeCheck.output)")
        // The report form round-trips too.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(profile)
        #expect(try JSONDecoder().decode(SamplingProfile.self, from: data) == profile)
        try? FileManager.default.removeItem(at: folder)
    }
}
