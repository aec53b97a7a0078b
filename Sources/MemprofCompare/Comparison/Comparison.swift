import MemprofReportReader
import Foundation
import MemprofCore
import MemprofOutput
import MemprofReport

/// The outcome of one metric.
public enum Verdict: String, Sendable, Codable, CaseIterable {
    case worse, better, same, new, gone
}

/// One metric of a comparison.
public struct MetricComparison: Sendable, Codable, Equatable {
    public var metric: String
    /// `summary` or the app's key.
    public var scope: String
    /// The path below the scope: `exits.memoryLimit`.
    public var name: String
    public var kind: MetricKind
    public var direction: MetricDirection
    public var base: Double?
    public var new: Double?
    /// new − base, when both exist.
    public var change: Double?
    /// Change in percent of base; nil when base is 0 or a side is missing.
    public var changePercent: Double?
    public var verdict: Verdict
    /// The relative threshold applied (a fraction) and the absolute floor, in the metric's unit.
    public var threshold: Double
    public var minDelta: Double
    /// Ignored by a thresholds file: reported, never worse or better.
    public var ignored: Bool
    /// An internal counter (`compressor.*`, `freezer.*`) shown for context: never worse or better
    /// unless asked (`--judge-internal`, or a `direction` in the thresholds file).
    public var context: Bool
    /// The threshold came from the user (thresholds file or command line), not the defaults.
    public var userThreshold: Bool
    /// A sentence for worse and better metrics: "mail: evictions rose from 2 to 5 (+150%), threshold 0".
    public var message: String?
}

/// The comparison of two reports.
public struct Comparison: Sendable, Codable {
    public struct Side: Sendable, Codable, Equatable {
        public var workload: String
        public var workloadSha256: String
        public var seed: UInt64
        public var memprofVersion: String
        public var durationUs: Int64
    }

    public var schema = "memprof.compare/1"
    public var base: Side
    public var new: Side
    public var metrics: [MetricComparison]
    public var counts: [String: Int]
    /// Notes for the reader: different workload files, different seeds.
    public var notes: [String]

    public var regressions: [MetricComparison] { metrics.indices.filter { metrics[$0].verdict == .worse }.map { metrics[$0] } }
    public var hasRegression: Bool { metrics.indices.contains { metrics[$0].verdict == .worse } }

    public func count(_ verdict: Verdict) -> Int { counts[verdict.rawValue] ?? 0 }

    /// "2 worse, 1 better, 300 same; 40 context" (verdicts with none left out, except same;
    /// internal counters shown for context counted apart).
    public var countsLine: String {
        let context = metrics.indices.count { metrics[$0].context }
        var counts = self.counts
        counts[Verdict.same.rawValue, default: 0] -= context
        return Self.countsLine(counts, context: context)
    }

    /// The counts of verdicts as one line, with the context rows apart.
    public static func countsLine(_ counts: [String: Int], context: Int) -> String {
        let verdicts = Verdict.allCases.compactMap { v in
            let n = counts[v.rawValue] ?? 0
            return n > 0 || v == .same ? "\(n) \(v.rawValue)" : nil
        }.joined(separator: ", ")
        return context > 0 ? verdicts + "; \(context) internal counters as context (not judged)" : verdicts
    }
}

public enum Comparer {
    /// Compares every metric of `base` and `new`.
    ///
    /// Throws `CompareInputError.differentWorkloads` when the workload names differ, unless
    /// `allowDifferent`. The order of the result: summary first, then apps by key, each by path.
    /// - Parameter filter: the metrics kept (`--app`, `--metric`); the others are left out, so
    ///   they neither show nor fail.
    /// - Parameter metrics: the reports' metrics when read with them
    ///   (`ReportLoader.loadWithMetrics`, one table of names for both); nil: made here.
    public static func compare(base: Report, new: Report, thresholds: Thresholds = Thresholds(),
                               allowDifferent: Bool = false, filter: MetricFilter = MetricFilter(),
                               metrics: (names: ScopedMetrics.NameTable, base: ScopedMetrics, new: ScopedMetrics)? = nil) throws -> Comparison {
        if base.run.workload != new.run.workload && !allowDifferent {
            throw CompareInputError.differentWorkloads(base: base.run.workload, new: new.run.workload)
        }
        let names = metrics?.names ?? ScopedMetrics.NameTable()
        var a = metrics?.base ?? ScopedMetrics(base, names: names)
        var b = metrics?.new ?? ScopedMetrics(new, names: names)
        if !thresholds.overrides.isEmpty { try thresholds.checkPatterns(against: Set(a.paths).union(b.paths)) }
        if !filter.isEmpty {
            try filter.check(against: Set(a.paths).union(b.paths))
            a = a.filtered(filter.keeps, names: names)
            b = b.filtered(filter.keeps, names: names)
        }
        var rows: [MetricComparison] = []
        var counts: [String: Int] = [:]
        // Every app has the same metrics: each one's judging is found once per path below the
        // app (per full path when the thresholds file names apps).
        var judgings: [String: Thresholds.Judging] = [:]
        let perApp = thresholds.overrides.contains { $0.pattern.hasPrefix("apps.") && !$0.pattern.hasPrefix("apps.*.") }
        /// One row: `counts` are those of the resumes behind a latency (nil: not a latency, or absent).
        func compareOne(_ app: String?, _ name: String, _ x: Double?, _ y: Double?, counts resumes: (Double?, Double?)) {
            let path = app.map { "apps.\($0).\(name)" } ?? "summary." + name
            let kind = MetricKind.of(path)
            let cacheKey = perApp || app == nil ? path : name
            let judging = judgings[cacheKey] ?? thresholds.judging(path, kind: kind, userOnly: false)
            judgings[cacheKey] = judging
            var row = compareMetric(path, scope: app ?? "summary", name: name, kind: kind, base: x, new: y, judging: judging)
            if resumes.0 == 0 || resumes.1 == 0, row.verdict == .worse || row.verdict == .better {
                // A latency of a run without resumes is "no figure", not 0 µs: not a change.
                row.verdict = .same
                row.message = nil
            }
            counts[row.verdict.rawValue, default: 0] += 1
            rows.append(row)
        }
        // The apps before the summary (the apps the workload names are what it asks about), by
        // key; within an app its headline metrics first (MetricDirections.headlineRank), then by
        // path (by name: the paths of a scope share their prefix).
        var orders: [ObjectIdentifier: ScopeOrder] = [:]
        func compareScope(_ app: String?, _ x: ScopedMetrics.Scope?, _ y: ScopedMetrics.Scope?) {
            if let x, let y, x.names === y.names {
                // Most apps: the same names on both sides, compared in their order.
                let names = x.names
                let order = orders[ObjectIdentifier(names)] ?? ScopeOrder(names)
                orders[ObjectIdentifier(names)] = order
                for i in app == nil ? order.byName : order.app {
                    let c = order.latencyCount[i]
                    compareOne(app, names.list[i], x.values[i], y.values[i], counts: (c.map { x.values[$0] }, c.map { y.values[$0] }))
                }
                return
            }
            let union = Array(Set(x?.names.list ?? []).union(y?.names.list ?? []))
            let sorted = app == nil ? union.sorted()
                : union.map { (MetricDirections.headlineRank(relative: $0), $0) }.sorted { $0 < $1 }.map(\.1)
            for name in sorted {
                let count = latencyCountPath(name)
                compareOne(app, name, x?[name], y?[name], counts: (count.flatMap { x?[$0] }, count.flatMap { y?[$0] }))
            }
        }
        rows.reserveCapacity(a.summary.values.count + a.apps.values.reduce(0) { $0 + $1.values.count })
        for app in Set(a.apps.keys).union(b.apps.keys).sorted() {
            compareScope(app, a.apps[app], b.apps[app])
        }
        compareScope(nil, a.summary, b.summary)
        var notes: [String] = []
        if base.run.workload != new.run.workload {
            notes.append("different workloads: '\(base.run.workload)' and '\(new.run.workload)'")
        } else if base.run.workloadSha256 != new.run.workloadSha256 {
            notes.append("the workload file changed between the runs (sha256 \(base.run.workloadSha256.prefix(12)) → \(new.run.workloadSha256.prefix(12)))")
        }
        if base.run.seed != new.run.seed { notes.append("different seeds: \(base.run.seed) and \(new.run.seed)") }
        if base.tool.version != new.tool.version {
            notes.append("memprof \(base.tool.version) → \(new.tool.version)")
        }
        return Comparison(base: side(base), new: side(new), metrics: rows, counts: counts, notes: notes)
    }

    /// The order in which the metrics of a list of names are compared, and the latencies' counts.
    struct ScopeOrder {
        /// The indices of the names by name (the summary's order).
        let byName: [Int]
        /// An app's order: its headline metrics first (``MetricDirections/headlineRank(_:)``),
        /// then by name.
        let app: [Int]
        /// For each name, the index of the count of resumes behind it when it is a latency
        /// (``Comparer/latencyCountPath(_:)``).
        let latencyCount: [Int?]

        init(_ names: ScopedMetrics.Names) {
            let list = names.list
            byName = list.indices.sorted { list[$0] < list[$1] }
            app = list.indices.map { (MetricDirections.headlineRank(relative: list[$0]), list[$0], $0) }
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
            latencyCount = list.map { name in Comparer.latencyCountPath(name).flatMap { names.index[$0] } }
        }
    }

    /// For `apps.X.resumeLatencyUs.p50` or `.max`, the path of the count of resumes behind it
    /// (and for `resumeLatencyUs.p50`, below its app, `resumeLatencyUs.count`).
    static func latencyCountPath(_ path: String) -> String? {
        for suffix in ["resumeLatencyUs.p50", "resumeLatencyUs.max"] where path.hasSuffix(suffix) {
            let rest = path.dropLast(suffix.count)
            if rest.isEmpty { return "resumeLatencyUs.count" }
            if rest.hasSuffix(".") { return rest + "resumeLatencyUs.count" }
        }
        return nil
    }

    static func side(_ r: Report) -> Comparison.Side {
        .init(workload: r.run.workload, workloadSha256: r.run.workloadSha256, seed: r.run.seed,
              memprofVersion: r.tool.version, durationUs: r.run.durationUs)
    }

    public static func compareMetric(_ path: String, base: Double?, new: Double?, thresholds: Thresholds) -> MetricComparison {
        compareMetric(MetricPath(path), base: base, new: new,
                      judging: thresholds.judging(path, kind: MetricKind.of(path), userOnly: false))
    }

    static func compareMetric(_ parsed: MetricPath, base: Double?, new: Double?,
                              judging: Thresholds.Judging) -> MetricComparison {
        compareMetric(parsed.full, scope: parsed.scopeName, name: parsed.relative, kind: MetricKind.of(parsed.full),
                      base: base, new: new, judging: judging)
    }

    static func compareMetric(_ path: String, scope: String, name: String, kind: MetricKind, base: Double?, new: Double?,
                              judging j: Thresholds.Judging) -> MetricComparison {
        var row = MetricComparison(metric: path, scope: scope, name: name, kind: kind,
                                   direction: j.direction, base: base, new: new, change: nil, changePercent: nil,
                                   verdict: .same, threshold: j.relative, minDelta: j.minDelta, ignored: j.ignore,
                                   context: j.context, userThreshold: j.userSet, message: nil)
        guard let base else { row.verdict = .new; return row }
        guard let new else { row.verdict = .gone; return row }
        let change = new - base
        row.change = change
        row.changePercent = base != 0 ? change / abs(base) * 100 : nil
        guard let verdict = judge(change: change, base: base, direction: j.direction, relative: j.relative,
                                  floor: j.minDelta, ignore: j.ignore || j.context) else { return row }
        row.verdict = verdict
        row.message = sentence(row)
        return row
    }

    /// Whether a change from `base` passes its thresholds, and which way: nil when it is within
    /// them, the metric is neutral or ignored. The one rule of `compare` for reports and, with a
    /// paired test on top, for fleets.
    public static func judge(change: Double, base: Double, direction: MetricDirection, relative: Double,
                             floor: Double, ignore: Bool) -> Verdict? {
        guard change != 0, direction != .neutral, !ignore else { return nil }
        guard abs(change) >= floor && (base == 0 || abs(change) / abs(base) > relative) else { return nil }
        return (direction == .higherIsWorse) == (change > 0) ? .worse : .better
    }

    /// "mail: evictions rose from 2 to 5 (+150%), threshold 0".
    public static func sentence(_ row: MetricComparison) -> String {
        guard let base = row.base, let new = row.new else { return "\(row.scope): \(row.name) is \(row.verdict.rawValue)" }
        let verb = new > base ? "rose" : "fell"
        let change = new - base
        let percent: String
        if base != 0 {
            percent = signedPercent(change / abs(base) * 100)
        } else {
            percent = (change > 0 ? "+" : "-") + row.kind.format(abs(change)) + " from zero"
        }
        return "\(row.scope): \(row.name) \(verb) from \(row.kind.format(base)) to \(row.kind.format(new)) (\(percent)), "
            + "threshold \(thresholdText(row))"
    }

    /// `0`, `5%`, `5%, min delta 1 MB`.
    public static func thresholdText(_ row: MetricComparison) -> String {
        let rel = row.threshold == 0 ? "0" : trimmed(row.threshold * 100) + "%"
        return row.minDelta > 1 ? "\(rel), min delta \(row.kind.format(row.minDelta))" : rel
    }

    public static func signedPercent(_ p: Double) -> String {
        (p >= 0 ? "+" : "-") + trimmed(abs(p)) + "%"
    }

    static func trimmed(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 9e18 else { return String(x) }
        if x == x.rounded() { return String(Int64(x)) }
        if abs(x) >= 10 { return String(Int64(x.rounded())) }
        return Format.oneDecimal(x)
    }
}
