import Foundation
import MemprofPlatform

/// One output file at a path the user named (`export -o`, `import -o`, `compare --html`, …).
extension AtomicFiles {
    /// Writes `data` to `path` as what is there asks:
    ///
    /// - nothing, or a regular file: written whole or not at all, a temporary file beside it
    ///   renamed into place (a file that was there keeps its permissions);
    /// - a symbolic link: the same for the file it points to, the link kept;
    /// - anything else (a device such as `/dev/stdout` or `/dev/null`, a FIFO): written into, as
    ///   a shell's `>` would. `/dev/stdout` and `/dev/stderr` (or any path to what standard
    ///   output or error is) are written through the process's own descriptor, so
    ///   `-o /dev/stdout >> log` appends to the log.
    ///
    /// - Throws: ``OutputError`` naming the path and the cause ("no space left on device writing
    ///   /dev/full"), exit status 3; status 2 for an empty path or a folder. A temporary file is
    ///   removed first.
    public static func write(_ data: Data, to path: String) throws {
        guard !path.isEmpty else { throw OutputError.emptyPath() }
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw OutputError(path: path, action: "writing", errno: errno) }
            return try replace(path, with: data, mode: nil)
        }
        switch link.st_mode & S_IFMT {
        case S_IFREG:
            if let fd = standardDescriptor(sameAs: link) { return try StandardStream.write(data, to: fd, named: path) }
            try replace(path, with: data, mode: link.st_mode & 0o7777)
        case S_IFDIR:
            throw OutputError.aFolder(path)
        case S_IFLNK:
            var target = stat()
            guard stat(path, &target) == 0 else {
                // A link to nothing yet: the file it names is created.
                guard errno == ENOENT else { throw OutputError(path: path, action: "writing", errno: errno) }
                return try writeInto(path, data)
            }
            if let fd = standardDescriptor(sameAs: target) { return try StandardStream.write(data, to: fd, named: path) }
            switch target.st_mode & S_IFMT {
            case S_IFDIR: throw OutputError.aFolder(path)
            case S_IFREG:
                guard let resolved = realpath(path, nil) else { throw OutputError(path: path, action: "writing", errno: errno) }
                defer { free(resolved) }
                try replace(String(cString: resolved), with: data, mode: target.st_mode & 0o7777)
            default: try writeInto(path, data)
            }
        default:
            if let fd = standardDescriptor(sameAs: link) { return try StandardStream.write(data, to: fd, named: path) }
            try writeInto(path, data)
        }
    }

    /// Standard output or error when `info` describes the file it is open on.
    static func standardDescriptor(sameAs info: stat) -> Int32? {
        for fd in [STDOUT_FILENO, STDERR_FILENO] {
            var open = stat()
            if fstat(fd, &open) == 0, open.st_dev == info.st_dev, open.st_ino == info.st_ino { return fd }
        }
        return nil
    }

    /// A temporary file beside `path`, renamed over it; with `mode`, the temporary file's
    /// permissions before the rename (those of the file it replaces).
    static func replace(_ path: String, with data: Data, mode: mode_t?) throws {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        try createFolder(directory)
        TemporaryName.removeDebris(in: directory)
        let temporary = directory.appendingPathComponent(TemporaryName.make(for: target.lastPathComponent))
        try writeNewUnfinished(data, to: temporary, name: target.lastPathComponent, folder: directory)
        defer { UnfinishedOutput.shared.end(temporary.path) }
        if let mode, chmod(temporary.path, mode) != 0 {
            let code = errno
            unlink(temporary.path)
            throw OutputError(path: path, action: "writing", errno: code)
        }
        if rename(temporary.path, path) != 0 {
            let code = errno
            unlink(temporary.path)
            throw OutputError(path: path, action: "renaming into place", errno: code)
        }
    }

    /// Opens what is at `path` (a device, a FIFO, the file a link names) and writes into it.
    static func writeInto(_ path: String, _ data: Data) throws {
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw OutputError(path: path, action: "writing", errno: errno) }
        var info = stat()
        let regular = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        var code: Int32 = 0
        if regular && ftruncate(fd, 0) != 0 { code = errno }
        if code == 0 { code = data.withUnsafeBytes { StandardStream.writeAll(fd, $0) } }
        if code == 0, regular, fsync(fd) != 0, errno != EINVAL, errno != EROFS { code = errno }
        if close(fd) != 0, code == 0, errno != EINTR { code = errno }
        if code != 0 { throw OutputError(path: path, action: "writing", errno: code) }
    }
}
