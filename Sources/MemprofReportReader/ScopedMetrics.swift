import MemprofCore
import MemprofReport

/// The numbers of `MetricExtractor.metrics(of:)` kept by scope: the summary's by their path
/// below `summary.`, each app's by its path below `apps.<key>.` (``MetricPath/relative``). Compare
/// and check read reports this way, in time linear in their size: the apps of a report have the
/// same few dozen paths, numbered once (``MetricNames``) and kept once as a list (``Names``),
/// with each app's values in an array beside them; no path is written out per app.
public struct ScopedMetrics {
    /// The paths below a scope, each once, shared by every scope with the same paths.
    public final class Names {
        /// The paths, in the order of their numbers.
        public let list: [String]
        /// Their numbers in the ``NameTable``'s ``MetricNames``, in increasing order.
        public let numbers: [Int]
        /// Each path's index in `list`.
        public let index: [String: Int]
        /// Whether each path's value may be below zero (``MetricExtractor/maySignNegative(_:)``).
        public let signed: [Bool]

        init(_ numbers: [Int], paths: MetricNames) {
            self.numbers = numbers
            list = numbers.map { paths[$0] }
            signed = list.map(MetricExtractor.maySignNegative)
            index = Dictionary(list.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The metrics of one scope: names and their values.
    public struct Scope {
        public var names: Names
        public var values: [Double]

        public subscript(name: String) -> Double? { names.index[name].map { values[$0] } }

        public var pairs: [(String, Double)] { Array(zip(names.list, values)) }
    }

    /// Numbers the paths and keeps each list of them once for the scopes of the reports read
    /// with it (both reports of a comparison): the last one made (the next app's paths are most
    /// often the same) and every other by its numbers.
    public final class NameTable {
        public let paths = MetricNames()
        var last: Names?
        var byList: [[Int]: Names] = [:]

        public init() {}

        /// The scope of the metrics `found` (a later value of a path replaces an earlier one),
        /// with its paths in the order of their numbers: whatever order an app's dictionaries
        /// (its exits, its time in each state) list their keys in, apps with the same paths
        /// share one ``Names``.
        func scope(_ found: [(name: Int, value: Double)]) -> Scope {
            let order = found.indices.sorted { (found[$0].name, $0) < (found[$1].name, $1) }
            var numbers: [Int] = [], values: [Double] = []
            numbers.reserveCapacity(order.count)
            values.reserveCapacity(order.count)
            for i in order {
                if numbers.last == found[i].name { values[values.count - 1] = found[i].value } else {
                    numbers.append(found[i].name)
                    values.append(found[i].value)
                }
            }
            if let last, last.numbers == numbers { return Scope(names: last, values: values) }
            let names = byList[numbers] ?? Names(numbers, paths: paths)
            byList[numbers] = names
            last = names
            return Scope(names: names, values: values)
        }

        /// The scope of `pairs`, paths written out.
        func scope(_ pairs: [(String, Double)]) -> Scope {
            scope(pairs.map { (paths.number(of: $0.0), $0.1) })
        }
    }

    public var summary: Scope
    public var apps: [String: Scope] = [:]

    public init(_ report: Report, names: NameTable = NameTable()) {
        var found: [(name: Int, value: Double)] = []
        MetricExtractor.summaryMetrics(of: report, names: names.paths, into: &found)
        summary = names.scope(found)
        var extra: [(String, Double)] = []
        for (key, stats) in report.apps {
            found.removeAll(keepingCapacity: true)
            MetricExtractor.appMetrics(of: stats, names: names.paths, into: &found)
            if key.contains(".") {
                // A dotted key splits as `MetricPath` splits its full paths.
                extra += found.map { ("apps.\(key).\(names.paths[$0.name])", $0.value) }
            } else {
                apps[key] = names.scope(found)
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

    /// The value of a full path (`summary.evictions`, `apps.mail.exits.memoryLimit`).
    public subscript(path: String) -> Double? {
        let parsed = MetricPath(path)
        guard let app = parsed.app else { return path.hasPrefix("summary.") ? summary[parsed.relative] : nil }
        return apps[app]?[parsed.relative]
    }

    /// Every full path.
    public var paths: [String] {
        summary.names.list.map { "summary." + $0 } + apps.flatMap { app, scope in scope.names.list.map { "apps.\(app).\($0)" } }
    }

    /// Only the metrics whose full path `keeps` keeps.
    public func filtered(_ keeps: (String) -> Bool, names: NameTable) -> ScopedMetrics {
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
