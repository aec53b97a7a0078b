import Foundation
import MemprofHTML
import MemprofOutput
import MemprofProfile

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

    /// The files a run writes into its folder; anything else found there is not memprof's and is kept.
    public static let fileNames: Set<String> = ["report.json", "report.html", "trace.json", "stacks.folded",
                                                "profile.speedscope.json"]

    /// A staging folder to write a run's files into as they are made (``RunPipeline/run(_:writingTo:)``).
    func stage() throws -> StagedFolder {
        let names = Self.fileNames.union(AllocationMetric.allCases.map(\.foldedFileName))
        return try StagedFolder(replacing: url, isOwnFile: names.contains)
    }

    /// Rewrites the runs index when this folder has one (an index that cannot be rewritten is not
    /// an error: the run's own files are complete).
    func updateIndex() {
        if updatesIndex { try? RunIndex.write(into: url.deletingLastPathComponent()) }
    }
}
