import Foundation
import MemprofPlatform

/// A folder written in steps and put in place in one: files are written (or streamed, as work
/// goes on) into a staging folder beside the target, named by ``TemporaryName``, which
/// ``commit()`` exchanges with the target (`renameat2(RENAME_EXCHANGE)`); ``abort()`` removes
/// it. What ``AtomicFiles/replaceFolder(_:with:isOwnFile:)`` does for files known at once, for
/// outputs that are too large to hold (a sweep's `runs.csv`).
///
///     let staged = try StagedFolder(replacing: folder, isOwnFile: { $0.hasSuffix(".json") })
///     let rows = try staged.stream("runs.csv")
///     try rows.append(Data("run,cell\n".utf8))
///     try rows.finish()
///     try staged.write(OutputFile(name: "fleet.json", data: json))
///     try staged.commit()
public final class StagedFolder {
    /// The folder replaced: the one the caller named or, when that is a symbolic link to a
    /// folder, the folder it names (the link stays a link).
    public let target: URL
    let staging: URL
    /// Files of the old folder that memprof did not write: kept (hard-linked) into the new one.
    let keep: [String]
    let exists: Bool
    /// Where the staging folder is registered as unfinished output.
    let registry: UnfinishedOutput

    /// Makes the staging folder, after removing dead runs' leftovers beside the target.
    ///
    /// - Throws: ``OutputError`` when the target is a file or a link to nothing, holds a folder
    ///   memprof did not write, or the staging folder cannot be made.
    public convenience init(replacing directory: URL, isOwnFile: (String) -> Bool) throws {
        try self.init(replacing: directory, isOwnFile: isOwnFile, registry: .shared)
    }

    init(replacing directory: URL, isOwnFile: (String) -> Bool, registry: UnfinishedOutput) throws {
        let fm = FileManager.default
        self.registry = registry
        target = try Self.folder(named: directory.standardizedFileURL)
        let parent = target.deletingLastPathComponent()
        try AtomicFiles.createFolder(parent)
        TemporaryName.removeDebris(in: parent)
        var keep: [String] = []
        var isDirectory: ObjCBool = false
        exists = fm.fileExists(atPath: target.path, isDirectory: &isDirectory)
        if exists {
            guard isDirectory.boolValue else { throw OutputError.notAFolder(target.path) }
            for name in try AtomicFiles.contents(of: target).sorted() where !isOwnFile(name)
                && TemporaryName(parsing: name) == nil && !name.contains(".tmp-") {
                var sub: ObjCBool = false
                _ = fm.fileExists(atPath: target.appendingPathComponent(name).path, isDirectory: &sub)
                if sub.boolValue { throw OutputError.foreignFolder(target.path, name) }
                keep.append(name)
            }
        }
        self.keep = keep
        staging = parent.appendingPathComponent(TemporaryName.make(for: target.lastPathComponent))
        try registry.create(staging.path) {
            guard mkdir(staging.path, 0o755) == 0 else {
                throw OutputError(path: parent.path, action: "creating a folder in", errno: errno)
            }
        }
    }

    /// The staging folder itself, for outputs that are folders of their own (a what-if's fleets,
    /// each put in place inside it by a staged folder of its own): ``commit()`` puts all of it
    /// in place, ``abort()`` removes it.
    public var stagingURL: URL { staging }

    /// Writes one whole file into the staging folder.
    public func write(_ file: OutputFile) throws {
        try AtomicFiles.writeNew(file.data, to: staging.appendingPathComponent(file.name), name: file.name, folder: target)
    }

    /// A file of the new folder to write in pieces; ``StreamedFile/finish()`` it before ``commit()``.
    /// `direct`: written past the page cache where the system allows (`DirectIO`), for a
    /// file of many megabytes written in large pieces.
    public func stream(_ name: String, direct: Bool = false) throws -> StreamedFile {
        try StreamedFile(creating: staging.appendingPathComponent(name), name: name, folder: target, direct: direct)
    }

    /// Scratch space for streams read back before ``commit()``, in the staging folder (so on the
    /// same disk as the output), removed whatever happens.
    public func makeSpillFile() throws -> SpillFile {
        try SpillFile(in: staging, for: target)
    }

    /// Puts the new folder in place in one step and removes the old one.
    ///
    /// The step (the user's files hard-linked into the new folder, the exchange) is one commit
    /// of ``UnfinishedOutput``: an interruption waits for it, so a signal at any moment leaves
    /// the old folder or the new one whole, with every file of the user's.
    public func commit() throws {
        try commit(pausingAt: { _ in })
    }

    /// A point of ``commit()`` (for tests that interrupt it there).
    enum CommitPoint: Equatable {
        /// Before anything is linked or exchanged.
        case start
        /// After the first `count` of the user's files were linked into the new folder.
        case linked(Int)
        /// After the exchange, before the old folder is removed.
        case exchanged
        /// After the old folder was removed.
        case removed
    }

    /// ``commit()``, calling `pause` at each of its points.
    func commit(pausingAt pause: (CommitPoint) -> Void) throws {
        let fm = FileManager.default
        pause(.start)
        try registry.commit {
            for (index, name) in keep.enumerated() {
                let from = target.appendingPathComponent(name).path, to = staging.appendingPathComponent(name).path
                if link(from, to) != 0 {
                    do { try fm.copyItem(atPath: from, toPath: to) } catch {
                        throw OutputError(path: target.path, action: "keeping \(name) in", errno: EIO)
                    }
                }
                pause(.linked(index + 1))
            }
            if exists {
                try AtomicFiles.exchange(staging, target)
            } else if rename(staging.path, target.path) != 0 {
                throw OutputError(path: target.path, action: "moving the new report into", errno: errno)
            }
        }
        pause(.exchanged)
        // The staging folder now holds the old run's files (or nothing), and the user's files
        // are linked in the new folder too: remove it. An interruption now removes it as well;
        // a kill leaves it for the next write into this parent folder to remove.
        UnfinishedOutput.remove(staging.path)
        registry.end(staging.path)
        pause(.removed)
    }

    /// Removes the staging folder and everything written into it.
    public func abort() {
        try? FileManager.default.removeItem(at: staging)
        registry.end(staging.path)
    }

    /// The folder to replace for `url`: `url` itself, or the folder a symbolic link there names
    /// (followed to the end), so that the link stays in place.
    ///
    /// - Throws: ``OutputError`` when `url` is a link to nothing.
    static func folder(named url: URL) throws -> URL {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return url }
        guard let resolved = realpath(url.path, nil) else {
            let code = errno
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?"
            throw OutputError.danglingLink(url.path, to: destination, errno: code)
        }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved), isDirectory: true).standardizedFileURL
    }
}

/// A new file written in pieces: created exclusively, flushed to the disk by ``finish()``; every
/// failure is an ``OutputError`` naming the file's folder ("no space left on device writing
/// runs.csv to Reports/my-sweep").
///
/// A direct file (``StagedFolder/stream(_:direct:)``) collects what is appended in an aligned
/// buffer and writes it a buffer at a time past the page cache; ``finish()`` writes the last
/// part padded to a block and cuts the file to its length.
public final class StreamedFile {
    let url: URL
    let name: String
    let folder: URL
    private var fd: Int32
    /// A direct file's writer (nil for a file written through the cache).
    private let writer: DirectWriter?
    /// The buffer being filled, and how far.
    private var pending: AlignedBuffer?
    private var filled = 0
    /// Where the next buffer goes: the end of the bytes of a direct file handed to the writer,
    /// or of the bytes written through the cache.
    private var written: Int64 = 0
    /// The alignment direct writes of the file keep (1 for a file written through the cache).
    private let alignment: Int
    /// Bytes appended so far.
    public private(set) var appended: Int64 = 0

    /// The bytes a direct file writes at a time.
    static let directChunk = 2 << 20

    init(creating url: URL, name: String, folder: URL, direct: Bool = false) throws {
        self.url = url
        self.name = name
        self.folder = folder
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var opened: (fd: Int32, alignment: Int?) = (-1, nil)
        if direct {
            opened = DirectIO.open(url.path, flags, 0o644)
        } else {
            opened.fd = open(url.path, flags, 0o644)
        }
        fd = opened.fd
        guard opened.fd >= 0 else { throw OutputError(path: folder.path, action: "writing \(name) to", errno: errno) }
        if let alignment = opened.alignment {
            writer = DirectWriter(fd: opened.fd, alignment: alignment, capacity: Self.directChunk)
            self.alignment = alignment
        } else {
            writer = nil
            alignment = 1
        }
    }

    deinit {
        if fd >= 0 {
            writer?.wait()
            close(fd)
        }
    }

    func fail(_ code: Int32) -> OutputError {
        OutputError(path: folder.path, action: "writing \(name) to", errno: code)
    }

    public func append(_ data: Data) throws {
        try data.withUnsafeBytes { try append($0) }
    }

    /// Appends what `out` holds and empties it (a writer's text handed on a piece at a time).
    public func append(emptying out: inout JSONWriter) throws {
        try out.withUnsafeBytes { try append($0) }
        out.removeAll()
    }

    public func append(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    public func append(_ buffer: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw fail(EBADF) }
        appended += Int64(buffer.count)
        guard let writer else {
            var direct = false
            let code = DirectIO.write(fd, buffer, at: written, direct: &direct)
            if code != 0 { throw fail(code) }
            written += Int64(buffer.count)
            return
        }
        var offset = 0
        while offset < buffer.count {
            let pending = pending ?? writer.buffer(Self.directChunk)
            self.pending = pending
            let n = min(buffer.count - offset, Self.directChunk - filled)
            (pending.base + filled).copyMemory(from: buffer.baseAddress! + offset, byteCount: n)
            filled += n
            offset += n
            if filled == Self.directChunk { try submit(count: filled, writer) }
        }
    }

    /// Runs `body`, a step of the direct writer, with its failure told as this file's.
    private func reported(_ body: () throws -> Void) throws {
        do { try body() } catch let failure as DirectWriterError { throw fail(failure.errno) }
    }

    /// Hands the first `count` bytes of the pending buffer to the writer.
    private func submit(count: Int, _ writer: DirectWriter) throws {
        try reported { try writer.submit(count, at: written) }
        written += Int64(count)
        pending = nil
        filled = 0
    }

    /// Flushes the file to the disk and closes it.
    public func finish() throws {
        guard fd >= 0 else { return }
        defer {
            writer?.wait()
            close(fd)
            fd = -1
        }
        if let writer {
            // The last part padded to a block (with zeros), then the file cut to its length.
            let length = written + Int64(filled)
            if let pending, filled > 0 {
                let padded = DirectIO.aligned(filled, to: alignment)
                (pending.base + filled).initializeMemory(as: UInt8.self, repeating: 0, count: padded - filled)
                try submit(count: padded, writer)
            }
            try reported { try writer.drain() }
            if written != length && ftruncate(fd, off_t(length)) != 0 { throw fail(errno) }
        }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS { throw fail(errno) }
    }

    /// Closes and removes the file (after a failure).
    func discard() {
        if fd >= 0 {
            writer?.wait()
            close(fd)
            fd = -1
        }
        unlink(url.path)
    }
}
