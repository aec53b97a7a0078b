import Foundation
@testable import MemprofOutput
import Testing

/// An interruption (the command line's removal of unfinished output on SIGINT, SIGTERM or
/// SIGHUP) that comes at any point of a report folder's commit leaves the old report or the new
/// one whole, with every file of the user's, and nothing beside it.
@Suite struct CommitInterruptionTests {
    private struct Interrupted: Error {}

    /// The user's files kept in the report folder (enough that removing them takes a while, so
    /// an unordered removal overlaps the steps after it).
    private static let userFiles = 400

    private static let own: Set<String> = ["report.json", "report.html", "trace.json"]

    /// Every point the commit can be interrupted at: its start, after each of a spread of the
    /// user's files was linked, after the exchange, after the old folder's removal.
    private static var points: [StagedFolder.CommitPoint] {
        [.start] + [1, 2, 50, 199, 200, 201, 399, 400].map { .linked($0) } + [.exchanged, .removed]
    }

    @Test(arguments: points, [0.0, 0.0005, 0.003])
    func anInterruptionAtAnyPointLeavesOneWholeReportAndTheUsersFiles(at point: StagedFolder.CommitPoint, after delay: Double) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-commit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("fo")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for name in Self.own { try Data("old \(name)".utf8).write(to: target.appendingPathComponent(name)) }
        for i in 0..<Self.userFiles { try Data("mine \(i)".utf8).write(to: target.appendingPathComponent("notes-\(i).txt")) }

        let registry = UnfinishedOutput(stop: { throw Interrupted() })
        let staged = try StagedFolder(replacing: target, isOwnFile: Self.own.contains, registry: registry)
        for name in Self.own { try staged.write(OutputFile(name: name, data: Data("new \(name)".utf8))) }

        // The interruption's removal runs on a thread of its own, as the command line's does,
        // started at the point; the commit goes on after `delay`.
        let removed = DispatchSemaphore(value: 0)
        var committed = true
        do {
            try staged.commit(pausingAt: { reached in
                guard reached == point else { return }
                Thread.detachNewThread {
                    registry.removeAll()
                    removed.signal()
                }
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            })
        } catch is Interrupted {
            committed = false
        }
        #expect(removed.wait(timeout: .now() + 30) == .success)

        // Exactly the report folder is left, holding every file of the user's, unchanged.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["fo"])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: target.path))
        #expect(names.count == Self.userFiles + Self.own.count)
        for i in 0..<Self.userFiles {
            let text = try? String(contentsOf: target.appendingPathComponent("notes-\(i).txt"), encoding: .utf8)
            #expect(text == "mine \(i)", "notes-\(i).txt")
        }
        // The report's files are all the new run's when the commit ran, all the old run's when
        // the interruption came before it.
        let versions = Set(Self.own.map { name in
            switch try? String(contentsOf: target.appendingPathComponent(name), encoding: .utf8) {
            case "old \(name)": "old"
            case "new \(name)": "new"
            default: "missing or mixed"
            }
        })
        #expect(versions == [committed ? "new" : "old"])
    }

    /// Two threads removing the same folder of thousands of files at once (a commit removing the
    /// old report while an interruption removes it too) both end with the folder gone: neither
    /// gives up at the entries the other removed first (before, one of them could stop with
    /// most of the folder left, and the process then exited with it beside the report).
    @Test func twoRemovalsOfOneFolderAtOnceBothRemoveAllOfIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-removal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<6 {
            let folder = dir.appendingPathComponent("old-\(round)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
            for i in 0..<3000 { try Data("\(i)".utf8).write(to: folder.appendingPathComponent("notes-\(i).txt")) }
            try Data("x".utf8).write(to: folder.appendingPathComponent("sub/inner.txt"))
            // Each removal, on its own, leaves nothing: it returns only once the folder is gone.
            let leftBehind = NSLock(), done = DispatchGroup()
            nonisolated(unsafe) var returnedEarly = 0
            for _ in 0..<2 {
                done.enter()
                Thread.detachNewThread {
                    UnfinishedOutput.remove(folder.path)
                    var info = stat()
                    if lstat(folder.path, &info) == 0 { leftBehind.withLock { returnedEarly += 1 } }
                    done.leave()
                }
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(leftBehind.withLock { returnedEarly } == 0, "round \(round): a removal returned with the folder still there")
        }
    }
}
