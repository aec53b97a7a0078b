import Foundation
import MemprofPlatform

/// Facts about where memprof's output goes: a terminal, a CI job's step summary.
public enum Terminal {
    /// Colour on standard output only when it is a terminal and `NO_COLOR` is not set.
    public static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Appends Markdown to `$GITHUB_STEP_SUMMARY` when that variable names a file (GitHub Actions).
    /// Returns whether it did.
    ///
    /// - Throws: ``OutputError`` (exit status 3) when the file cannot be written.
    @discardableResult
    public static func appendToStepSummary(_ markdown: String,
                                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return false }
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw OutputError(path: path, action: "appending the step summary to", errno: errno) }
        var code = Data((markdown + "\n").utf8).withUnsafeBytes { StandardStream.writeAll(fd, $0) }
        if close(fd) != 0, code == 0, errno != EINTR { code = errno }
        if code != 0 { throw OutputError(path: path, action: "appending the step summary to", errno: code) }
        return true
    }
}
