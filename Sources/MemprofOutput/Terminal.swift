import Foundation

/// Facts about where memprof's output goes: a terminal, a CI job's step summary.
public enum Terminal {
    /// Colour on standard output only when it is a terminal and `NO_COLOR` is not set.
    public static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Appends Markdown to `$GITHUB_STEP_SUMMARY` when that variable names a file (GitHub Actions).
    /// Returns whether it did.
    @discardableResult
    public static func appendToStepSummary(_ markdown: String,
                                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return false }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((markdown + "\n").utf8))
        return true
    }
}
