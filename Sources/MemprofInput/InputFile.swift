import Foundation
import MemprofPlatform

/// Opening a file memprof reads (a workload, a sweep, a budget, a JetsamEvent report, a part of
/// a sweep): only a regular file is read, so a FIFO, a device or a socket given as input is
/// refused at once instead of read forever (a FIFO nobody writes to, `/dev/zero`, a terminal).
///
/// The file is opened without waiting (`O_NONBLOCK`: opening a FIFO for reading blocks until
/// something opens it for writing), and what was opened is looked at (`fstat`) before a byte
/// is read, so nothing can be swapped in between a check and the read.
///
///     switch InputFile.read("workload.yaml", maxBytes: 256 << 20) {
///     case .success(let bytes): parse(bytes)
///     case .failure(let refusal): throw MyError(file: "workload.yaml", message: refusal.message)
///     }
public enum InputFile {
    /// Why a file is not read, in words that follow its path ("workload.yaml: is a FIFO, …").
    public enum Refusal: Error, Equatable, Sendable {
        case missing
        case folder
        /// Not a regular file: what it is ("a FIFO", "a character device", "a socket", …).
        case notRegular(String)
        case tooLarge(maxBytes: Int)
        /// Opening or reading failed with `errno`.
        case unreadable(Int32)

        public var message: String {
            switch self {
            case .missing: "no such file"
            case .folder: "is a folder, not a file"
            case .notRegular(let kind): "is \(kind), not a regular file; memprof reads its input from files"
            case .tooLarge(let max): "is larger than \(max >> 20) MB; memprof reads input files up to that size"
            case .unreadable(let code): "cannot read the file (\(String(cString: strerror(code)).lowercased()))"
            }
        }
    }

    /// What a file of mode `mode` is, in words, for one that is not a regular file or a folder.
    public static func kind(ofMode mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a folder"
        default: "not a regular file"
        }
    }

    /// Opens `path` for reading when it names a regular file (symbolic links followed).
    ///
    /// - Returns: the descriptor, blocking and close-on-exec, for the caller to close.
    public static func open(_ path: String) -> Result<Int32, Refusal> {
        var fd: Int32
        repeat { fd = SystemCall.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return .failure(.missing) }
            // A socket cannot be opened at all (ENXIO): name what it is, as for a FIFO.
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
                return .failure(.notRegular(kind(ofMode: info.st_mode)))
            }
            return .failure(code == EISDIR ? .folder : .unreadable(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .failure(.unreadable(code))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
            return .success(fd)
        case S_IFDIR:
            close(fd)
            return .failure(.folder)
        default:
            close(fd)
            return .failure(.notRegular(kind(ofMode: info.st_mode)))
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them.
    public static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], Refusal> {
        let fd: Int32
        switch open(path) {
        case .success(let opened): fd = opened
        case .failure(let refusal): return .failure(refusal)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(min(Int(info.st_size), maxBytes) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[0..<n]
            if bytes.count > maxBytes { return .failure(.tooLarge(maxBytes: maxBytes)) }
        }
    }
}
