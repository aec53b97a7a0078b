import Foundation
import MemprofOutput
import Testing

@Suite struct AtomicFilesTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesEveryFileAndNoTemporaries() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try AtomicFiles.write([OutputFile(name: "a.json", data: Data("1".utf8)), OutputFile(name: "b.html", data: Data("2".utf8))], into: dir.appendingPathComponent("run"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("run").path).sorted()
        #expect(names == ["a.json", "b.html"])
    }

    @Test func aFailedWriteLeavesTheOldFilesAndNoTemporaries() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try AtomicFiles.write([OutputFile(name: "a.json", data: Data("old".utf8))], into: dir)
        // The second file's folder does not exist: its write fails after the first was written.
        #expect(throws: (any Error).self) {
            try AtomicFiles.write([OutputFile(name: "a.json", data: Data("new".utf8)), OutputFile(name: "missing/b.html", data: Data("2".utf8))], into: dir)
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("a.json"), encoding: .utf8) == "old")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["a.json"])
    }

    @Test func writesOneFileInPlace() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/out.md").path
        try AtomicFiles.write(Data("x".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "x")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("sub").path) == ["out.md"])
    }
}
