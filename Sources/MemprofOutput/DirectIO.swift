import Foundation
import MemprofPlatform

/// Writing past the page cache (`O_DIRECT`), for a long run's large files (report.json
/// and trace.json, hundreds of megabytes for a run of 450 hours).
///
/// On a virtual machine whose memory the host backs lazily (free pages reported to the host),
/// a page-cache page the guest has not touched lately costs several times more to write than
/// one just used, and a file of hundreds of megabytes pays that for every page. Direct I/O
/// moves the bytes from two aligned buffers memprof reuses to the disk, whatever the state of
/// the cache: one copy into the buffer, and the device's wait on a thread of its own
/// (``DirectWriter``). The scratch space of a run (``SpillFile``) stays in the cache: it is
/// read back at once, and direct reads of it made the run slower.
///
/// Direct I/O is asked for, never needed: where the system refuses it (`EINVAL` when it is
/// turned on or on a write: ramfs, some network and FUSE file systems), the file is written
/// through the cache.
enum DirectIO {
    /// `O_DIRECT` of the system's `<fcntl.h>`, or nil where it has none (then every file goes
    /// through the cache).
    static let flag = DirectIOSupport.flag

    /// `count` rounded up to a multiple of `alignment`.
    @inline(__always)
    static func aligned(_ count: Int, to alignment: Int) -> Int { (count + alignment - 1) / alignment * alignment }

    /// Opens `path` with `flags` and, when the system allows, `O_DIRECT`; returns the descriptor
    /// (or -1 with `errno` set) and, when it is direct, the alignment the system asks of its
    /// offsets, lengths and buffers (statx's, or a page), else nil.
    ///
    /// Direct I/O is turned on after opening (`fcntl`), not asked for by `open`: a file system
    /// without it (ramfs) creates the file before refusing, and `O_CREAT | O_EXCL` asked again
    /// would then find it there.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> (fd: Int32, alignment: Int?) {
        let fd = SystemCall.open(path, flags, mode)
        guard fd >= 0, let flag else { return (fd, nil) }
        let alignment = DirectIOSupport.alignment(of: fd)
        // An alignment above a direct write's chunk (never seen) is not worth the padding.
        guard alignment > 0, alignment <= StreamedFile.directChunk, StreamedFile.directChunk % alignment == 0 else {
            return (fd, nil)
        }
        let current = fcntl(fd, F_GETFL)
        return (fd, current >= 0 && fcntl(fd, F_SETFL, current | flag) == 0 ? alignment : nil)
    }

    /// Turns direct I/O off on `fd` (after a write or read the system refused); whether it is off.
    static func stop(_ fd: Int32) -> Bool {
        guard let flag else { return true }
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags & ~flag) == 0
    }

    /// Writes all of `bytes` at `offset` (`pwrite`), retrying after a signal. With direct I/O
    /// (`direct` true) `bytes` and `offset` must be aligned; when the system refuses it there
    /// (`EINVAL`) or writes only part (a disk filling up), direct I/O is turned off on `fd` and
    /// the rest written through the cache, so a full disk is reported as `ENOSPC` as always.
    ///
    /// - Returns: `errno` of a failure, or 0.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64, direct: inout Bool) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL && direct && stop(fd) {
                    direct = false
                    continue
                }
                return errno
            }
            done += n
            if done < bytes.count && direct {
                // What is left no longer starts on a block: go on through the cache.
                guard stop(fd) else { return EIO }
                direct = false
            }
        }
        return 0
    }
}

/// A buffer for direct I/O, aligned as the file asks, grown (never shrunk) to the largest size asked.
final class AlignedBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    let alignment: Int

    init(capacity: Int, alignment: Int) {
        self.alignment = alignment
        self.capacity = DirectIO.aligned(max(capacity, 1), to: alignment)
        base = .allocate(byteCount: self.capacity, alignment: alignment)
    }

    deinit { base.deallocate() }

    /// Makes room for `count` bytes (what it held is lost).
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = DirectIO.aligned(count, to: alignment)
        base = .allocate(byteCount: capacity, alignment: alignment)
    }
}

/// Writes to a file past the page cache on a thread of its own, while the caller fills the next
/// buffer: the caller copies into one of two aligned buffers (``buffer(_:)``), hands it over
/// (``submit(_:at:)``) and goes on; the device's wait is the writing thread's, not the caller's.
/// A failure is reported by the next call (``submit(_:at:)``, ``drain()``).
final class DirectWriter: @unchecked Sendable {
    // Unchecked: `buffers[i]` is touched by the caller until submitted and by the writing queue
    // until it signals `free`; `direct` only on the queue; `failure` under `lock`.
    private let fd: Int32
    private var direct: Bool
    private let buffers: [AlignedBuffer]
    private var next = 0
    private let free: DispatchSemaphore
    private let queue = DispatchQueue(label: "memprof.direct-writer")
    private var failure: Int32 = 0
    private let lock = NSLock()
    /// Whether the caller holds `buffers[next]` (taken by ``buffer(_:)``, not yet submitted).
    private var holding = false

    init(fd: Int32, alignment: Int, capacity: Int) {
        self.fd = fd
        direct = true
        buffers = [AlignedBuffer(capacity: capacity, alignment: alignment),
                   AlignedBuffer(capacity: capacity, alignment: alignment)]
        free = DispatchSemaphore(value: buffers.count)
    }

    deinit {
        wait()
        // libdispatch refuses to free a semaphore below its first value: give back a buffer
        // taken and never handed over (after a failure).
        if holding { free.signal() }
    }

    /// Waits for every write handed over (before the descriptor is closed: nothing may be left
    /// writing into a closed descriptor, or one reused).
    func wait() { queue.sync {} }

    /// A buffer of at least `count` bytes to fill, once the device is done with it.
    func buffer(_ count: Int) -> AlignedBuffer {
        if !holding {
            free.wait()
            holding = true
        }
        buffers[next].reserve(count)
        return buffers[next]
    }

    /// Writes the first `count` bytes of the buffer last taken at `offset` (both aligned for
    /// direct I/O, or the file's last block).
    func submit(_ count: Int, at offset: Int64) throws {
        precondition(holding)
        try check()
        let index = next
        holding = false
        next = (next + 1) % buffers.count
        queue.async { [self] in
            if lock.withLock({ failure }) == 0 {
                let code = DirectIO.write(fd, UnsafeRawBufferPointer(start: buffers[index].base, count: count), at: offset, direct: &direct)
                if code != 0 { lock.withLock { failure = code } }
            }
            free.signal()
        }
    }

    /// Throws the first failure of the writes done so far.
    private func check() throws {
        let code = lock.withLock { failure }
        if code != 0 { throw DirectWriterError(errno: code) }
    }

    /// Waits for every write handed over; throws the first failure.
    func drain() throws {
        wait()
        try check()
    }
}

/// A write of a ``DirectWriter`` failed with `errno`.
struct DirectWriterError: Error {
    var errno: Int32
}

