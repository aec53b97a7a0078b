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

    static func happenings(_ report: Report) -> [(Happening, Microseconds)] {
        var out: [(Happening, Microseconds)] = []
        for row in Decisions.rows(report.events) {
            switch row.kind {
            case .eviction:
                for taken in row.taken { out.append((Happening(kind: .evicted, app: taken.app, forApp: row.app), row.atUs)) }
            case .kill:
                guard let reason = row.exitReason else { continue }
                out.append((Happening(kind: .killed(reason), app: row.app, forApp: ""), row.atUs))
            case .memoryWarning:
                for app in row.warned.map(\.app) + row.freedNothing {
                    out.append((Happening(kind: .warned, app: app, forApp: ""), row.atUs))
                }
            case .compression, .reclaim:
                continue
            }
        }
        return out
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

    public static func group(_ c: Comparison, base: Report, new: Report) -> [Cause] {
        var remaining = c.regressions
        guard !remaining.isEmpty else { return [] }
        func name(_ app: String) -> String { new.apps[app]?.name ?? base.apps[app]?.name ?? app }

        var baseCounts: [Happening: Int] = [:]
        for (happening, _) in happenings(base) { baseCounts[happening, default: 0] += 1 }
        // The new run's happenings beyond the base's count of the same one, in time order.
        var extra: [Happening: [Microseconds]] = [:]
        var order: [Happening] = []
        var seen: [Happening: Int] = [:]
        for (happening, at) in happenings(new) {
            seen[happening, default: 0] += 1
            guard seen[happening]! > baseCounts[happening, default: 0] else { continue }
            if extra[happening] == nil { order.append(happening) }
            extra[happening, default: []].append(at)
        }

        var causes: [Cause] = []
        for happening in order {
            let times = extra[happening] ?? []
            let paths = moved(happening.kind)
            let wanted = Set(paths.app.map { "apps.\(happening.app).\($0)" } + paths.summary.map { "summary.\($0)" })
            let metrics = remaining.filter { wanted.contains($0.metric) }
            guard !metrics.isEmpty else { continue }
            remaining.removeAll { wanted.contains($0.metric) }
            let inBase = baseCounts[happening, default: 0]
            let when = times.prefix(5).map(Format.duration).joined(separator: ", ") + (times.count > 5 ? ", …" : "")
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
                : ": \(times.count + inBase) times in new, \(inBase) in base"
            causes.append(Cause(title: title, metrics: metrics))
        }
        // What no single change explains, by app and then the whole run.
        var byScope: [String: [MetricComparison]] = [:]
        var scopes: [String] = []
        for row in remaining {
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
