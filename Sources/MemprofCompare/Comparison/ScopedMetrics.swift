import MemprofReport
import MemprofReportReader

/// The numbers of `MetricExtractor.metrics(of:)` kept by scope: the summary's by their path
/// below `summary.`, each app's by its path below `apps.<key>.` (``MetricPath/relative``). Compare
/// reads two reports this way, in time linear in their size: the apps of a report have the same
/// few dozen names, kept once (``Names``) with each app's values in an array beside them, so no
/// full path is made and no name hashed until a row of the comparison needs it.
struct ScopedMetrics {
    /// The names below a scope, each once, shared by every scope with the same names.
    final class Names {
        let list: [String]
        let index: [String: Int]
        /// `list`'s indices in the order an app's metrics are compared: its headline metrics first
        /// (``MetricDirections/headlineRank(_:)``), then by name.
        let appOrder: [Int]
        /// For each name, the index of the count of resumes behind it when it is a latency
        /// (``Comparer/latencyCountPath(_:)``).
        let latencyCount: [Int?]

        init(_ list: [String]) {
            self.list = list
            let index = Dictionary(list.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            self.index = index
            appOrder = list.indices.map { (MetricDirections.headlineRank(relative: list[$0]), list[$0], $0) }
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
            latencyCount = list.map { name in Comparer.latencyCountPath(name).flatMap { index[$0] } }
        }
    }

    /// The metrics of one scope: names and their values.
    struct Scope {
        var names: Names
        var values: [Double]

        subscript(name: String) -> Double? { names.index[name].map { values[$0] } }

        var pairs: [(String, Double)] { Array(zip(names.list, values)) }
    }

    /// Keeps each list of names once for the scopes of both reports of a comparison: the last
    /// one found (the next app's names are most often the same) and every other by its list.
    final class NameTable {
        var last: Names?
        var byList: [[String]: Names] = [:]

        /// The scope of `pairs` (a later value of a name replaces an earlier one). Names are kept
        /// sorted: the order in which a report's dictionaries (an app's exits, its time in each
        /// state) list their keys differs from one dictionary to the next.
        func scope(_ pairs: [(String, Double)]) -> Scope {
            let order = pairs.indices.sorted { (pairs[$0].0, $0) < (pairs[$1].0, $1) }
            // The last of each name.
            let sorted = order.indices.filter { $0 + 1 == order.count || pairs[order[$0 + 1]].0 != pairs[order[$0]].0 }
                .map { order[$0] }
            let values = sorted.map { pairs[$0].1 }
            if let last, last.list.count == sorted.count, zip(last.list, sorted).allSatisfy({ $0 == pairs[$1].0 }) {
                return Scope(names: last, values: values)
            }
            let list = sorted.map { pairs[$0].0 }
            let names = byList[list] ?? Names(list)
            byList[list] = names
            last = names
            return Scope(names: names, values: values)
        }
    }

    var summary: Scope
    var apps: [String: Scope] = [:]

    init(_ report: Report, names: NameTable) {
        summary = names.scope(MetricExtractor.summaryPairs(of: report))
        var extra: [(String, Double)] = []
        for (key, stats) in report.apps {
            let pairs = MetricExtractor.appPairs(of: stats)
            if key.contains(".") {
                // A dotted key splits as `MetricPath` splits its full paths.
                extra += pairs.map { ("apps.\(key).\($0.0)", $0.1) }
            } else {
                apps[key] = names.scope(pairs)
            }
        }
        extra += MetricExtractor.handlerMetrics(of: report)
        guard !extra.isEmpty else { return }
        // Metrics by full path, after the others: each scope they touch is made again.
        var touched: [String?: [(String, Double)]] = [:]
        for (path, value) in extra {
            let parsed = MetricPath(path)
            if touched[parsed.app] == nil {
                touched[parsed.app] = parsed.app.map { apps[$0]?.pairs ?? [] } ?? summary.pairs
            }
            touched[parsed.app]!.append((parsed.relative, value))
        }
        for (app, pairs) in touched {
            if let app { apps[app] = names.scope(pairs) } else { summary = names.scope(pairs) }
        }
    }

    /// Every full path.
    var paths: [String] {
        summary.names.list.map { "summary." + $0 } + apps.flatMap { app, scope in scope.names.list.map { "apps.\(app).\($0)" } }
    }

    /// Only the metrics whose full path `keeps` keeps.
    func filtered(_ keeps: (String) -> Bool, names: NameTable) -> ScopedMetrics {
        var out = self
        out.summary = names.scope(summary.pairs.filter { keeps("summary." + $0.0) })
        out.apps = [:]
        for (app, scope) in apps {
            let kept = scope.pairs.filter { keeps("apps.\(app).\($0.0)") }
            if !kept.isEmpty { out.apps[app] = names.scope(kept) }
        }
        return out
    }
}
