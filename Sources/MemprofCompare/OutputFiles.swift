import Foundation

/// Writing the output files of compare, check and export.
public enum OutputFiles {
    /// Writes whole or not at all: a temporary file beside the target, renamed into place.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                                                                NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
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

    /// Colour on standard output only when it is a terminal and `NO_COLOR` is not set.
    public static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }
}
