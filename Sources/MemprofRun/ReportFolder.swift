import Foundation
import MemprofHTML
import MemprofOutput

/// A report folder (`Reports/<name>/` or `--out`): where a run's files are written, whole or
/// not at all.
public struct ReportFolder: Sendable {
    /// The folder the files go into; created when it does not exist.
    public var url: URL
    /// Whether the parent folder is a reports folder whose `index.html` lists its runs and is
    /// rewritten after each run (true for the default `Reports/<name>/`, false for `--out`).
    public var updatesIndex: Bool

    /// A folder at `path` (relative to the current folder, or absolute).
    ///
    /// - Parameters:
    ///   - path: where the files go (`--out`).
    ///   - updatesIndex: whether to rewrite the `index.html` of the folder's parent after writing.
    public init(path: String, updatesIndex: Bool = false) {
        url = URL(fileURLWithPath: path)
        self.updatesIndex = updatesIndex
    }

    /// The default folder of a workload: `Reports/<name>/` under the current folder, with the index.
    public static func `default`(forWorkload name: String) -> ReportFolder {
        ReportFolder(path: "Reports/\(name)", updatesIndex: true)
    }

    /// Writes every file of `artifacts`, then rewrites the runs index when this folder has one.
    ///
    /// Each file is written under a temporary name beside its target and renamed into place once
    /// every file is written, so a failure leaves no half-written file. An index that cannot be rewritten is
    /// not an error (the run's own files are complete).
    ///
    /// - Throws: the file system's error when the folder cannot be written.
    public func write(_ artifacts: RunArtifacts) throws {
        try AtomicFiles.write(artifacts.files, into: url)
        if updatesIndex { try? RunIndex.write(into: url.deletingLastPathComponent()) }
    }
}
