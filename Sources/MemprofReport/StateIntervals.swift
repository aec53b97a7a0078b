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
        var builder = Builder(apps: apps, durationUs: durationUs)
        var result: [String: [StateInterval]] = [:]
        for app in apps { result[app] = [] }
        for event in events {
            if let (app, interval) = builder.add(event) { result[app, default: []].append(interval) }
        }
        builder.finish { app, interval in result[app, default: []].append(interval) }
        return result
    }

    /// Handler runs per app, from `handlerStart`/`handlerEnd` pairs.
    public static func handlers(events: [SimEvent], durationUs: Microseconds) -> [String: [HandlerInterval]] {
        var builder = HandlerRuns()
        var result: [String: [HandlerInterval]] = [:]
        for event in events {
            builder.add(event) { app, run in result[app, default: []].append(run) }
        }
        builder.finish(durationUs: durationUs) { app, run in result[app, default: []].append(run) }
        return result
    }

    /// ``make(events:apps:durationUs:)`` one event at a time, for a run whose events are streamed
    /// (issue 9): each app's intervals come out in time order as its transitions close them.
    public struct Builder {
        private var open: [String: StateInterval] = [:]
        let durationUs: Microseconds

        public init(apps: [String], durationUs: Microseconds) {
            self.durationUs = durationUs
            for app in apps { open[app] = StateInterval(startUs: 0, endUs: 0, state: .notRunning) }
        }

        /// The interval `event` closes, if it is a transition and the interval lasted.
        public mutating func add(_ event: SimEvent) -> (app: String, interval: StateInterval)? {
            guard case .transition(let from, let to, let cause) = event.payload, let app = event.app else { return nil }
            var current = open[app] ?? StateInterval(startUs: 0, endUs: 0, state: from)
            let at = min(max(event.atUs, current.startUs), durationUs)
            current.endUs = at
            open[app] = StateInterval(startUs: at, endUs: at, state: to, cause: cause)
            return current.lengthUs > 0 ? (app, current) : nil
        }

        /// Closes every app's last interval at the end of the run.
        public mutating func finish(_ emit: (String, StateInterval) -> Void) {
            for (app, var current) in open {
                current.endUs = max(durationUs, current.startUs)
                if current.lengthUs > 0 { emit(app, current) }
            }
            open = [:]
        }
    }

    /// ``handlers(events:durationUs:)`` one event at a time: each app's runs come out sorted by
    /// start and end, as soon as no run still open can come before them.
    public struct HandlerRuns {
        private var open: [String: [HandlerInterval]] = [:]
        /// Ended runs waiting for an earlier-starting open run of their app to end, sorted.
        private var ended: [String: [HandlerInterval]] = [:]

        public init() {}

        public mutating func add(_ event: SimEvent, _ emit: (String, HandlerInterval) -> Void) {
            guard let app = event.app else { return }
            switch event.payload {
            case .handlerStart(let activity, _, _):
                open[app, default: []].append(HandlerInterval(startUs: event.atUs, endUs: event.atUs,
                                                              handler: activity.rawValue, outcome: "running"))
            case .handlerEnd(let activity, let outcome):
                let name = activity.rawValue
                guard var list = open[app], let index = list.lastIndex(where: { $0.handler == name }) ?? list.indices.last
                else { return }
                var run = list.remove(at: index)
                open[app] = list
                run.endUs = max(run.startUs, event.atUs)
                run.outcome = outcome.detail
                end(run, app, emit)
            case .exit(let reason, _):
                // An app that ends takes its running handlers with it.
                let list = open[app] ?? []
                open[app] = []
                for var run in list {
                    run.endUs = max(run.startUs, event.atUs)
                    run.outcome = "exit \(reason.rawValue)"
                    end(run, app, emit)
                }
            default:
                return
            }
        }

        private mutating func end(_ run: HandlerInterval, _ app: String, _ emit: (String, HandlerInterval) -> Void) {
            var list = ended[app] ?? []
            ended[app] = nil
            let at = list.firstIndex { ($0.startUs, $0.endUs) > (run.startUs, run.endUs) } ?? list.count
            list.insert(run, at: at)
            // A run still open started no earlier than its start and ends no earlier than now: the
            // ended runs starting at or before every open run's start are in their final order.
            let earliestOpen = open[app]?.map(\.startUs).min() ?? .max
            let ready = list.prefix { $0.startUs <= earliestOpen }.count
            for run in list[..<ready] { emit(app, run) }
            list.removeFirst(ready)
            ended[app] = list.isEmpty ? nil : list
        }

        /// Ends the runs still open at the end of the run (`running`) and hands out the rest.
        public mutating func finish(durationUs: Microseconds, _ emit: (String, HandlerInterval) -> Void) {
            for (app, list) in open.sorted(by: { $0.key < $1.key }) {
                open[app] = []
                for var run in list {
                    run.endUs = max(run.startUs, durationUs)
                    end(run, app, emit)
                }
            }
            open = [:]
            for (app, list) in ended.sorted(by: { $0.key < $1.key }) {
                for run in list { emit(app, run) }
            }
            ended = [:]
        }
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
