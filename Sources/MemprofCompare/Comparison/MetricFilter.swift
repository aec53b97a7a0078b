import MemprofReportReader
import MemprofInput
import MemprofOutput

/// Which metrics a comparison keeps: `compare --app KEY` (an app's metrics only) and `--metric
/// PATTERN` (metrics whose path below `summary.` or `apps.<key>.` starts with the pattern's
/// segments, `*` standing for one: `exits`, `exits.memoryPressure`, `suspendedMemory.*`; or a
/// full path such as `summary.evictions`). Empty lists keep everything.
public struct MetricFilter: Sendable, Equatable {
    public var apps: [String]
    public var metrics: [String]

    public init(apps: [String] = [], metrics: [String] = []) {
        self.apps = apps
        self.metrics = metrics
    }

    public var isEmpty: Bool { apps.isEmpty && metrics.isEmpty }

    /// Whether `path` (a full metric path) is kept.
    public func keeps(_ path: String) -> Bool {
        let parsed = MetricPath(path)
        if !apps.isEmpty {
            guard let app = parsed.app, apps.contains(app) else { return false }
        }
        return metrics.isEmpty || metrics.contains { Self.matches($0, parsed) }
    }

    static func matches(_ pattern: String, _ path: MetricPath) -> Bool {
        let p = MetricPattern.segments(pattern)
        return [path.relative, path.full].contains { candidate in
            let s = MetricPattern.segments(candidate)
            return p.count <= s.count && MetricPattern.matches(p, Array(s.prefix(p.count)))
        }
    }

    /// Checks that every app and pattern names something among `paths`, so a typo cannot pass as
    /// "nothing changed".
    public func check(against paths: some Collection<String>) throws {
        let apps = Set(paths.compactMap { MetricPath($0).app })
        for app in self.apps where !apps.contains(app) {
            throw BadInput(withSuggestion("--app: no app '\(app)' in the results", for: app, among: apps.sorted())
                + "; they have \(apps.sorted().joined(separator: ", "))")
        }
        for pattern in metrics {
            let kept = MetricFilter(apps: self.apps, metrics: [pattern])
            guard !paths.contains(where: kept.keeps) else { continue }
            let names = Set(paths.filter { MetricFilter(apps: self.apps).keeps($0) }.map { MetricPath($0).relative })
            throw BadInput(withSuggestion("--metric: '\(pattern)' matches no metric\(self.apps.isEmpty ? "" : " of \(self.apps.joined(separator: ", "))")",
                                          for: pattern, among: names.sorted()))
        }
    }
}
