import Foundation
import MemprofPlatform

/// Standard output and standard error, written with `write(2)` and every failure seen:
/// what a command prints on standard output goes through ``out(_:)`` or ``write(_:)``, which
/// throw an ``OutputError`` (exit status 3: "no space left on device writing to standard
/// output") where `print` and `FileHandle.write` would lose the text or stop the process.
/// Messages on standard error (``error(_:)``) are written as well as they can be: when standard
/// error itself cannot be written, there is nowhere left to say so.
public enum StandardStream {
    /// Writes `text` to standard output.
    public static func out(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `data` to standard output.
    public static func write(_ data: Data) throws {
        try write(data, to: STDOUT_FILENO, named: "standard output", action: "writing to")
    }

    /// Writes `text` to standard error; a failure is ignored.
    public static func error(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `data` to the open descriptor `fd`; `name` names it in errors.
    static func write(_ data: Data, to fd: Int32, named name: String, action: String = "writing") throws {
        let code = data.withUnsafeBytes { writeAll(fd, $0) }
        guard code == 0 else { throw OutputError(path: name, action: action, errno: code) }
    }

    /// Writes all of `bytes` to `fd`, retrying after a signal. Returns `errno` of a failure, or 0.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = SystemCall.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            done += n
        }
        return 0
    }
}
