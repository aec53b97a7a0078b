import MemprofReportReader
import MemprofCore
import MemprofHTML
import MemprofReport

/// Regressions grouped by the change in the runs that caused them: one entry per app evicted,
/// killed or warned more often in the new run than in the base ("camera evicted at 42m to make
/// room for photos, which did not happen in base"), with the summary- and app-level metrics that
/// change moved listed under it; what no such change explains is grouped by app.
public enum RegressionCauses {
    public struct Cause: Sendable {
        public var title: String
        public var metrics: [MetricComparison]
    }

    /// A decision that takes or disturbs an app, as matched between the runs.
    struct Happening: Hashable {
        enum Kind: Hashable {
            case evicted
            case killed(ExitReason)
            case warned
        }
        var kind: Kind
        var app: String
        /// The app a reclaim made room for (evictions).
        var forApp: String
    }

    /// What grouping needs of each run's decisions, gathered a row at a time: how often each
    /// happening happened and, for the new run, when it happened beyond the base's count of it
    /// (the first few times only), in the order such happenings first went beyond it.
    public struct Happenings: Sendable {
        /// Shown per cause: the times of its first extra happenings.
        static let shownTimes = 5

        struct Extra: Sendable {
            var count = 0
            var times: [Microseconds] = []
        }

        /// The base's counts (nil: this is the base).
        let base: [Happening: Int]?
        var counts: [Happening: Int] = [:]
        var extra: [Happening: Extra] = [:]
        var order: [Happening] = []

        /// For the base run.
        public init() { base = nil }

        /// For the new run, against the base's.
        public init(base: Happenings) { self.base = base.counts }

        public mutating func add(_ row: DecisionRow) {
            switch row.kind {
            case .eviction:
                for taken in row.taken { add(Happening(kind: .evicted, app: taken.app, forApp: row.app), row.atUs) }
            case .exit:
                guard let reason = row.exitReason else { return }
                add(Happening(kind: .killed(reason), app: row.app, forApp: ""), row.atUs)
            case .memoryWarning:
                for app in row.warned.map(\.app) + row.freedNothing {
                    add(Happening(kind: .warned, app: app, forApp: ""), row.atUs)
                }
            default:
                return  // compressions, reclaims that took nothing: no happening of an app
            }
        }

        mutating func add(_ happening: Happening, _ at: Microseconds) {
            counts[happening, default: 0] += 1
            guard let base, counts[happening]! > base[happening, default: 0] else { return }
            if extra[happening] == nil { order.append(happening) }
            extra[happening, default: Extra()].count += 1
            if extra[happening]!.times.count < Self.shownTimes { extra[happening]!.times.append(at) }
        }

        /// Those of a whole run's events.
        init(_ report: Report, base: Happenings? = nil) {
            self.base = base?.counts
            for row in Decisions.rows(report.events) { add(row) }
        }
    }

    /// Metric paths (relative to `apps.<app>.` or `summary.`) a happening moves.
    static func moved(_ kind: Happening.Kind) -> (app: [String], summary: [String]) {
        switch kind {
        case .evicted:
            return (["evictions", "exits.memoryPressure", "coldRelaunchesAfterKill", "launches.cold"],
                    ["evictions", "terminations.memoryPressure", "coldRelaunchesAfterKill", "coldLaunches"])
        case .killed(let reason):
            return (["exits.\(reason.rawValue)", "coldRelaunchesAfterKill", "launches.cold"],
                    ["terminations.\(reason.rawValue)", "coldRelaunchesAfterKill", "coldLaunches"])
        case .warned:
            return (["memoryWarnings"], ["memoryWarnings"])
        }
    }

    /// - Parameter happenings: the new run's (`Happenings(base:)`) when gathered while reading
    ///   the runs; nil: drawn from their events.
    public static func group(_ c: Comparison, base: Report, new: Report, happenings: Happenings? = nil) -> [Cause] {
        let regressions = c.regressions
        guard !regressions.isEmpty else { return [] }
        // Each regression by its metric, taken by the first happening that moves it: a lookup per
        // path a happening moves, not a pass over every regression per happening.
        var byMetric: [String: [Int]] = [:]
        for (index, row) in regressions.enumerated() { byMetric[row.metric, default: []].append(index) }
        var taken = [Bool](repeating: false, count: regressions.count)
        func name(_ app: String) -> String { new.apps[app]?.name ?? base.apps[app]?.name ?? app }
        let newRun = happenings ?? Happenings(new, base: Happenings(base))
        let baseCounts = newRun.base ?? [:]
        let order = newRun.order
        let extra = newRun.extra

        var causes: [Cause] = []
        for happening in order {
            let times = extra[happening]?.times ?? []
            let count = extra[happening]?.count ?? 0
            let paths = moved(happening.kind)
            let wanted = Set(paths.app.map { "apps.\(happening.app).\($0)" } + paths.summary.map { "summary.\($0)" })
            let indices = wanted.flatMap { byMetric[$0] ?? [] }.filter { !taken[$0] }.sorted()
            guard !indices.isEmpty else { continue }
            for index in indices { taken[index] = true }
            let metrics = indices.map { regressions[$0] }
            let inBase = baseCounts[happening, default: 0]
            let when = times.map(Format.duration).joined(separator: ", ") + (count > Happenings.shownTimes ? ", …" : "")
            var title: String
            switch happening.kind {
            case .evicted:
                title = "\(name(happening.app)) evicted at \(when) to make room for \(name(happening.forApp))"
            case .killed(let reason):
                title = "\(name(happening.app)) killed (\(reason.rawValue)) at \(when)"
            case .warned:
                title = "\(name(happening.app)) sent a memory warning at \(when)"
            }
            title += inBase == 0 ? ", which did not happen in base"
                : ": \(count + inBase) times in new, \(inBase) in base"
            causes.append(Cause(title: title, metrics: metrics))
        }
        // What no single change explains, by app and then the whole run.
        var byScope: [String: [MetricComparison]] = [:]
        var scopes: [String] = []
        for (index, row) in regressions.enumerated() where !taken[index] {
            let scope = MetricPath(row.metric).app ?? ""
            if byScope[scope] == nil { scopes.append(scope) }
            byScope[scope, default: []].append(row)
        }
        for scope in scopes {
            causes.append(Cause(title: scope.isEmpty ? "The whole run" : "\(name(scope)), without an eviction, kill or warning of its own to explain it",
                                metrics: byScope[scope] ?? []))
        }
        return causes
    }
}
