import Foundation
import MemprofHTML
import MemprofOutput

/// A report folder (`Reports/<name>/` or `--out`): where a run's files are written, whole or
/// not at all.
public struct ReportFolder: Sendable {
    public var url: URL
    /// Whether the parent folder is a reports folder whose `index.html` lists its runs and is
    /// rewritten after each run (true for the default `Reports/<name>/`, false for `--out`).
    public var updatesIndex: Bool

    public init(path: String, updatesIndex: Bool = false) {
        url = URL(fileURLWithPath: path)
        self.updatesIndex = updatesIndex
    }

    /// The default folder of a workload: `Reports/<name>/` under the current folder, with the index.
    public static func `default`(forWorkload name: String) -> ReportFolder {
        ReportFolder(path: "Reports/\(name)", updatesIndex: true)
    }

    /// Writes every file of `artifacts`, then rewrites the runs index when this folder has one.
    public func write(_ artifacts: RunArtifacts) throws {
        try AtomicFiles.write(artifacts.files, into: url)
        if updatesIndex { try? RunIndex.write(into: url.deletingLastPathComponent()) }
    }
}
