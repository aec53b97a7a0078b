import MemprofCore

/// A background handler's run, from `handlerStart` to `handlerEnd` (or the end of the run).
public struct HandlerInterval: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds
    public var handler: String
    /// How it ended (`completed`, `expiredEnded`, `timedOut`, ...), or `running` at the end of the run.
    public var outcome: String
}

/// Lifecycle intervals per app (spec §10): the run's own, or for a report read back from
/// report.json the ones its transitions describe, with the causes they carry.
///
/// Every app starts `notRunning` at 0, without a cause; each `transition` event closes the
/// current interval and opens one in its `to` state with the transition's `cause`. Intervals of
/// zero length (several transitions at one instant) are dropped, so the intervals of an app tile
/// `0..<durationUs` without gaps or overlaps and the one reached last at an instant has the cause
/// of the last transition, as the engine's do: rebuilt from a report's full event log they are
/// the run's own. A report.json written before transitions carried a `cause` gives none.
public enum StateIntervals {
    /// Intervals of every app that appears in `apps` or in a transition, keyed by app.
    public static func make(events: [SimEvent], apps: [String], durationUs: Microseconds) -> [String: [StateInterval]] {
        var open: [String: StateInterval] = [:]
        var result: [String: [StateInterval]] = [:]
        for app in apps {
            open[app] = StateInterval(startUs: 0, endUs: 0, state: .notRunning)
            result[app] = []
        }
        for event in events {
            guard case .transition(let from, let to, let cause) = event.payload, let app = event.app else { continue }
            var current = open[app] ?? StateInterval(startUs: 0, endUs: 0, state: from)
            let at = min(max(event.atUs, current.startUs), durationUs)
            current.endUs = at
            if current.lengthUs > 0 { result[app, default: []].append(current) }
            open[app] = StateInterval(startUs: at, endUs: at, state: to, cause: cause)
        }
        for (app, var current) in open {
            current.endUs = max(durationUs, current.startUs)
            if current.lengthUs > 0 { result[app, default: []].append(current) }
        }
        return result
    }

    /// Handler runs per app, from `handlerStart`/`handlerEnd` pairs.
    public static func handlers(events: [SimEvent], durationUs: Microseconds) -> [String: [HandlerInterval]] {
        var open: [String: [HandlerInterval]] = [:]
        var result: [String: [HandlerInterval]] = [:]
        for event in events {
            guard let app = event.app else { continue }
            switch event.payload {
            case .handlerStart(let activity, _, _):
                open[app, default: []].append(HandlerInterval(startUs: event.atUs, endUs: event.atUs,
                                                              handler: activity.rawValue, outcome: "running"))
            case .handlerEnd(let activity, let outcome):
                let name = activity.rawValue
                guard var list = open[app], let index = list.lastIndex(where: { $0.handler == name }) ?? list.indices.last
                else { continue }
                var run = list.remove(at: index)
                open[app] = list
                run.endUs = max(run.startUs, event.atUs)
                run.outcome = outcome.detail
                result[app, default: []].append(run)
            case .exit(let reason, _):
                // An app that ends takes its running handlers with it.
                for var run in open[app] ?? [] {
                    run.endUs = max(run.startUs, event.atUs)
                    run.outcome = "exit \(reason.rawValue)"
                    result[app, default: []].append(run)
                }
                open[app] = []
            default:
                continue
            }
        }
        for (app, list) in open {
            for var run in list {
                run.endUs = max(run.startUs, durationUs)
                result[app, default: []].append(run)
            }
        }
        for app in result.keys { result[app]!.sort { ($0.startUs, $0.endUs) < ($1.startUs, $1.endUs) } }
        return result
    }
}

extension Report {
    /// The lifecycle intervals of `apps` that trace.json and the swimlanes draw: the run's when
    /// the report was built from a run; rebuilt from the transitions and their causes when it was
    /// read back from report.json.
    public func lifecycle(apps: [String]) -> [String: [StateInterval]] {
        stateIntervals ?? StateIntervals.make(events: events, apps: apps, durationUs: run.durationUs)
    }
}
