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

    /// A staged folder: a streamed file and a whole one replace the old folder in one step,
    /// keeping files memprof did not write; an aborted one leaves the old folder as it was and
    /// nothing beside it.
    @Test func aStagedFolderReplacesTheOldOneOrLeavesNothing() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("fleet")
        try AtomicFiles.write([OutputFile(name: "fleet.html", data: Data("old".utf8)),
                               OutputFile(name: "notes.txt", data: Data("mine".utf8))], into: target)
        let own: (String) -> Bool = { $0.hasPrefix("fleet.") || $0 == "runs.csv" }

        let aborted = try StagedFolder(replacing: target, isOwnFile: own)
        let partial = try aborted.stream("runs.csv")
        try partial.append(Data("run\n".utf8))
        aborted.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["fleet"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == ["fleet.html", "notes.txt"])

        let staged = try StagedFolder(replacing: target, isOwnFile: own)
        let rows = try staged.stream("runs.csv")
        try rows.append(Data("run\n".utf8))
        try rows.append([UInt8]("1\n".utf8)[...])
        try rows.finish()
        try staged.write(OutputFile(name: "fleet.json", data: Data("{}".utf8)))
        try staged.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["fleet"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == ["fleet.json", "notes.txt", "runs.csv"])
        #expect(try String(contentsOf: target.appendingPathComponent("runs.csv"), encoding: .utf8) == "run\n1\n")
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
