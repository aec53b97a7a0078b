import Foundation
import MemprofPlatform

/// Scratch space for streams written while a run goes on and read back once: the blocks of many
/// ``SpillStream``s, appended one after the other to one temporary file that is unlinked as soon
/// as it is opened, so nothing is left behind whatever happens to the process.
///
/// Put it in the folder the output goes to (a ``StagedFolder``'s staging folder): the scratch
/// then uses the same disk, and a full disk is reported for that folder.
public final class SpillFile {
    private let fd: Int32
    /// Bytes written so far.
    public private(set) var size: Int64 = 0
    /// The folder the output is for, to name in errors.
    let folder: URL

    /// A new scratch file in `directory`; `folder` is named in errors.
    public init(in directory: URL, for folder: URL) throws {
        self.folder = folder
        var template = Array(directory.appendingPathComponent(".memprof-spill-XXXXXX").path.utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputError(path: folder.path, action: "writing scratch space to", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(fd) }

    /// Appends `bytes` at the end; returns where they start.
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let start = size
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(start) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: folder.path, action: "writing scratch space to", errno: errno)
            }
            done += n
        }
        size += Int64(bytes.count)
        return start
    }

    /// Reads `count` bytes at `offset` into `buffer` (replacing what it held).
    func read(at offset: Int64, count: Int, into buffer: inout [UInt8]) throws {
        // Blocks are of about one size: the buffer is only zero-filled where it grows.
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        try buffer.withUnsafeMutableBytes { try read(at: offset, into: $0) }
    }

    /// Fills `buffer` with the bytes at `offset`.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw OutputError(path: folder.path, action: "reading scratch space of", errno: n < 0 ? errno : EIO) }
            done += n
        }
    }
}

/// Bytes appended in order and read back once, in order: held in ``out`` until they fill a
/// block, then moved into a ``SpillFile`` (or, without one, kept in memory).
///
/// Writers append through ``out`` (a ``JSONWriter``) and call ``flush(to:)`` at a boundary of
/// their own (a record, a value): blocks then hold whole pieces.
public struct SpillStream {
    /// Where bytes are appended.
    public var out: JSONWriter
    private var blocks: [(offset: Int64, count: Int)] = []
    private var kept: [[UInt8]] = []
    let blockSize: Int

    public init(blockSize: Int = 32 * 1024) {
        self.blockSize = blockSize
        out = JSONWriter(capacity: blockSize + 1024)
    }

    /// Bytes moved into blocks so far.
    private var moved = 0

    /// Every byte written so far (in blocks and in ``out``), read back or not.
    public var byteCount: Int { moved + out.count }

    /// Whether nothing was written.
    public var isEmpty: Bool { byteCount == 0 }

    /// Moves the bytes written so far into a block once they fill one.
    @inline(__always)
    public mutating func flush(to spill: SpillFile?) throws {
        if out.count >= blockSize { try moveOut(to: spill) }
    }

    private mutating func moveOut(to spill: SpillFile?) throws {
        guard !out.isEmpty else { return }
        if let spill {
            let offset = try out.withUnsafeBytes { try spill.append($0) }
            blocks.append((offset, out.count))
        } else {
            kept.append(out.bytes)
        }
        moved += out.count
        out.removeAll()
    }

    /// Blocks already handed out by ``nextBlock(_:into:)`` (a stream is read this way, or by
    /// ``forEachBlock(_:_:)`` or ``write(into:_:flush:)``, not both).
    private var blocksRead = 0, keptRead = 0

    /// Reads the oldest block not read yet into `buffer` (replacing what it held); false when
    /// every block was read (what is left is in ``out``). For a stream read while it is still
    /// written: blocks written later are read after, in order.
    public mutating func nextBlock(_ spill: SpillFile?, into buffer: inout [UInt8]) throws -> Bool {
        if let spill, blocksRead < blocks.count {
            let block = blocks[blocksRead]
            try spill.read(at: block.offset, count: block.count, into: &buffer)
            blocksRead += 1
            if blocksRead >= 64, blocksRead * 2 >= blocks.count {
                blocks.removeFirst(blocksRead)
                blocksRead = 0
            }
            return true
        }
        guard keptRead < kept.count else { return false }
        buffer = kept[keptRead]
        kept[keptRead] = []
        keptRead += 1
        return true
    }

    /// Hands `body` every block written, in order, then what is left in ``out`` (the spill
    /// file's blocks read into one buffer).
    public func forEachBlock(_ spill: SpillFile?, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer: [UInt8] = []
        if let spill {
            for block in blocks {
                try spill.read(at: block.offset, count: block.count, into: &buffer)
                try buffer.withUnsafeBytes(body)
            }
        }
        for block in kept { try block.withUnsafeBytes(body) }
        if !out.isEmpty { try out.withUnsafeBytes(body) }
    }

    /// Appends the whole stream to `out`, handing `out` to `flush` whenever it holds a megabyte
    /// or more: blocks in the spill file are read straight into `out`, not through a buffer of
    /// their own.
    public func write(into out: inout JSONWriter, _ spill: SpillFile?, flush: (inout JSONWriter) throws -> Void) throws {
        func flushed(_ out: inout JSONWriter) throws {
            if out.count >= 1 << 20 { try flush(&out) }
        }
        if let spill {
            for block in blocks {
                try out.appendRead(block.count) { try spill.read(at: block.offset, into: $0) }
                try flushed(&out)
            }
        }
        for block in kept {
            out.raw(block)
            try flushed(&out)
        }
        self.out.withUnsafeBytes { out.append($0) }
        try flushed(&out)
    }
}
