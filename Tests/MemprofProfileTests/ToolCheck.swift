import Foundation

/// Runs the repository's check scripts (and the tools they need) from tests.
enum ToolCheck {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func script(_ name: String) -> String {
        repository.appendingPathComponent("scripts").appendingPathComponent(name).path
    }

    static let hasPerl = (try? run("/usr/bin/env", ["perl", "-e", "1"]).status) == 0
    static let hasJSONSchema = (try? run("/usr/bin/env", ["python3", "-c", "import jsonschema"]).status) == 0

    static func write(_ text: String, name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("memprof-profile-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
