import Foundation
@testable import MemprofOutput
import MemprofPlatform
import Testing

/// One output file at a path the user named: written into what is there unless it is a
/// regular file or nothing, which are replaced whole.
@Suite struct NamedFileTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-named-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aRegularFileIsReplacedKeepingItsPermissions() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.json").path
        try "old, and longer".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o600) == 0)
        try AtomicFiles.write(Data("new".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.json"])
    }

    @Test func aLinkKeepsBeingALinkAndItsTargetIsWritten() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("link").path, target = dir.appendingPathComponent("target").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target")
        try AtomicFiles.write(Data("new".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        // A link to nothing yet: the file it names is made.
        let dangling = dir.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made")
        try AtomicFiles.write(Data("made".utf8), to: dangling)
        #expect(try String(contentsOfFile: dir.appendingPathComponent("made").path, encoding: .utf8) == "made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["dangling", "link", "made", "target"])
    }

    @Test func devicesAreWrittenIntoAndTheirFailuresAreOutputErrors() throws {
        try AtomicFiles.write(Data("discarded".utf8), to: "/dev/null")
        do {
            try AtomicFiles.write(Data("x".utf8), to: "/dev/full")
            Issue.record("/dev/full took the bytes")
        } catch let error as OutputError {
            #expect(error.exitStatus == ExitStatus.outputFailure)
            #expect(error.description == "no space left on device writing /dev/full")
        }
    }

    @Test func aFIFOIsWrittenIntoForItsReader() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = FIFOReader(fifo)
        try AtomicFiles.write(Data("through the pipe".utf8), to: fifo)
        #expect(reader.wait() == "through the pipe")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["fifo"])
    }

    @Test func anEmptyPathOrAFolderIsBadInput() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for path in ["", dir.path] {
            do {
                try AtomicFiles.write(Data("x".utf8), to: path)
                Issue.record("wrote to '\(path)'")
            } catch let error as OutputError {
                #expect(error.exitStatus == ExitStatus.badInput, "\(path)")
            }
        }
    }
}

/// Reads a FIFO to its end on a thread of its own.
final class FIFOReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var text = ""

    init(_ path: String) {
        Thread.detachNewThread { [self] in
            let fd = open(path, O_RDONLY)
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while fd >= 0 {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                bytes += chunk[0..<n]
            }
            if fd >= 0 { close(fd) }
            text = String(decoding: bytes, as: UTF8.self)
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return text
    }
}

@Suite struct UnfinishedOutputTests {
    @Test func aStagingFolderIsUnfinishedUntilCommitted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-unfinished-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let staged = try StagedFolder(replacing: dir.appendingPathComponent("out"), isOwnFile: { _ in true })
        #expect(UnfinishedOutput.shared.current.contains(staged.staging.path))
        try staged.write(OutputFile(name: "a", data: Data("1".utf8)))
        try staged.commit()
        #expect(!UnfinishedOutput.shared.current.contains(staged.staging.path))
    }

    /// What an interruption removes: every path created and not ended; and a path to be created
    /// after that is not made (its writer waits for the process to exit).
    @Test func removeAllRemovesWhatWasCreatedAndNothingIsCreatedAfter() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-unfinished-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let registry = UnfinishedOutput()
        let staging = dir.appendingPathComponent("staging"), done = dir.appendingPathComponent("done")
        try registry.create(staging.path) {
            try FileManager.default.createDirectory(at: staging.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try "x".write(to: staging.appendingPathComponent("sub/file"), atomically: false, encoding: .utf8)
        }
        try registry.create(done.path) { try "y".write(to: done, atomically: false, encoding: .utf8) }
        registry.end(done.path)
        #expect(registry.removeAll() == [staging.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["done"])
        // A writer that comes to create a path now does not make it, and does not return.
        let late = dir.appendingPathComponent("late")
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? registry.create(late.path) { FileManager.default.createFile(atPath: late.path, contents: Data("z".utf8)) }
            returned.signal()
        }
        #expect(returned.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["done"])
    }
}
