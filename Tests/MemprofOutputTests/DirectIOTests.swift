import Foundation
@testable import MemprofOutput
import MemprofPlatform
import Testing

/// Large files written past the page cache (``StagedFolder/stream(_:direct:)``): what
/// is appended is what the file holds, to the byte, whatever the pieces' sizes and wherever
/// the file system lets direct I/O through or not; a full disk is the usual sentence.
@Suite struct DirectIOTests {
    private func scratch(in parent: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let url = parent.appendingPathComponent("memprof-direct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Mounts a file system (`mount ARGUMENTS FOLDER`) on a new folder; false where the machine
    /// does not let us (not root).
    private func mount(_ arguments: [String], at folder: URL) throws -> Bool {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = arguments + [folder.path]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return false }
        mount.waitUntilExit()
        return mount.terminationStatus == 0
    }

    private func unmount(_ folder: URL) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [folder.path]
        try? umount.run()
        umount.waitUntilExit()
    }

    /// Appends pieces of odd sizes (some larger than a chunk) adding up to `total` bytes.
    private func fill(_ file: StreamedFile, total: Int) throws -> [UInt8] {
        var expected: [UInt8] = []
        var n = 0
        while expected.count < total {
            let size = min(total - expected.count, [1, 4095, 4097, 70_001, StreamedFile.directChunk + 3, 333][n % 6])
            let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) }
            try file.append(piece[...])
            expected += piece
            n += 1
        }
        return expected
    }

    /// Sizes around the block and the chunk, on the disk (ext4 takes direct I/O) and in
    /// /dev/shm (tmpfs: direct I/O refused or done through the cache, depending on the kernel).
    @Test(arguments: [0, 1, 4096, 4097, StreamedFile.directChunk, 2 * StreamedFile.directChunk + 12_345])
    func aDirectFileHoldsWhatWasAppended(total: Int) throws {
        var parents = [FileManager.default.temporaryDirectory]
        if FileManager.default.fileExists(atPath: "/dev/shm") { parents.append(URL(fileURLWithPath: "/dev/shm")) }
        for parent in parents {
            let dir = try scratch(in: parent)
            defer { try? FileManager.default.removeItem(at: dir) }
            let target = dir.appendingPathComponent("run")
            let staged = try StagedFolder(replacing: target, isOwnFile: { _ in true })
            let file = try staged.stream("report.json", direct: true)
            let expected = try fill(file, total: total)
            try file.finish()
            try staged.commit()
            let written = try Data(contentsOf: target.appendingPathComponent("report.json"))
            #expect(written.count == total, "\(parent.path)")
            #expect(Array(written) == expected, "\(parent.path)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["run"])
        }
    }

    /// A file system without direct I/O at all (ramfs refuses `O_DIRECT`, after creating the
    /// file): the file is written through the cache, in full. Where the machine lets us mount one.
    @Test func aFileSystemWithoutDirectIOGetsTheFileThroughTheCache() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ram = dir.appendingPathComponent("ram")
        guard try mount(["-t", "ramfs", "ramfs"], at: ram) else { return }
        defer { unmount(ram) }
        let target = ram.appendingPathComponent("run")
        let staged = try StagedFolder(replacing: target, isOwnFile: { _ in true })
        let file = try staged.stream("trace.json", direct: true)
        let expected = try fill(file, total: StreamedFile.directChunk + 5)
        try file.finish()
        try staged.commit()
        #expect(Array(try Data(contentsOf: target.appendingPathComponent("trace.json"))) == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ram.path) == ["run"])
    }

    /// A write the system refuses as direct I/O (here: a piece not on a block boundary, which
    /// ext4 refuses with EINVAL) is done through the cache instead, and later ones too.
    @Test func aRefusedDirectWriteGoesThroughTheCache() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f").path
        let (fd, alignment) = DirectIO.open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        var direct = alignment != nil
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        let code = bytes.withUnsafeBytes { DirectIO.write(fd, UnsafeRawBufferPointer(rebasing: $0[1...]), at: 1, direct: &direct) }
        #expect(code == 0)
        #expect(!direct)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path)))[1...] == bytes[1...])
    }

    /// A full disk while a direct file is written: the sentence names the file and the folder,
    /// and an aborted staging folder leaves nothing. A 1 MB tmpfs where the machine lets us mount
    /// one (root); otherwise nothing to check.
    @Test func aFullDiskIsReportedAndLeavesNothing() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = dir.appendingPathComponent("small")
        guard try mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs"], at: small) else { return }
        defer { unmount(small) }
        let target = small.appendingPathComponent("r")
        let staged = try StagedFolder(replacing: target, isOwnFile: { _ in true })
        let file = try staged.stream("trace.json", direct: true)
        #expect {
            _ = try fill(file, total: 3 << 20)
            try file.finish()
        } throws: { error in
            (error as? OutputError)?.description == "no space left on device writing trace.json to \(target.path)"
        }
        // Closed before the folder is unmounted (an open file keeps it busy).
        file.discard()
        staged.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == [])
    }
}
