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

    /// ``make(events:apps:durationUs:)`` one event at a time, for a run whose events are streamed:
    /// each app's intervals come out in time order as its transitions close them.
    ///
    /// Apps are held by index (their place in `apps`, then in the order met): a run that knows
    /// each event's app index gives it (``add(_:app:)``), which asks no dictionary.
    public struct Builder {
        /// By app index; nil for an app met in a transition before any interval was opened.
        private var open: [StateInterval?]
        private var apps: AppIndexes
        let durationUs: Microseconds

        public init(apps: [String], durationUs: Microseconds) {
            self.durationUs = durationUs
            self.apps = AppIndexes(apps)
            open = Array(repeating: StateInterval(startUs: 0, endUs: 0, state: .notRunning), count: self.apps.names.count)
        }

        /// The interval `event` closes, if it is a transition and the interval lasted.
        public mutating func add(_ event: SimEvent) -> (app: String, interval: StateInterval)? {
            guard case .transition = event.payload, let app = event.app else { return nil }
            let i = apps.index(app)
            if i == open.count { open.append(nil) }
            return add(event, app: i).map { (app, $0) }
        }

        /// The interval `event`, an event of the app at index `i` (of `apps`), closes, if it is a
        /// transition and the interval lasted.
        @inline(__always)
        public mutating func add(_ event: SimEvent, app i: Int) -> StateInterval? {
            guard case .transition(let from, let to, let cause) = event.payload else { return nil }
            var current = open[i] ?? StateInterval(startUs: 0, endUs: 0, state: from)
            let at = min(max(event.atUs, current.startUs), durationUs)
            current.endUs = at
            open[i] = StateInterval(startUs: at, endUs: at, state: to, cause: cause)
            return current.lengthUs > 0 ? current : nil
        }

        /// The earliest start of an interval still open that trace.json draws (every state but
        /// `notRunning`), or nil: no interval closed later starts before it.
        public var earliestOpenStart: Microseconds? {
            var earliest: Microseconds?
            for case let interval? in open where interval.state != .notRunning {
                earliest = min(earliest ?? interval.startUs, interval.startUs)
            }
            return earliest
        }

        /// Closes every app's last interval at the end of the run.
        public mutating func finish(_ emit: (String, StateInterval) -> Void) {
            let names = apps.names
            finishByIndex { emit(names[$0], $1) }
        }

        /// ``finish(_:)`` with apps by index.
        public mutating func finishByIndex(_ emit: (Int, StateInterval) -> Void) {
            for (i, interval) in open.enumerated() {
                guard var current = interval else { continue }
                current.endUs = max(durationUs, current.startUs)
                if current.lengthUs > 0 { emit(i, current) }
            }
            open = []
        }
    }

    /// ``handlers(events:durationUs:)`` one event at a time: each app's runs come out sorted by
    /// start and end, as soon as no run still open can come before them. Apps by index, as in
    /// ``Builder``: in the order met, or as the caller numbers them (``add(_:app:_:)``).
    public struct HandlerRuns {
        private var open: [[HandlerInterval]] = []
        /// Ended runs waiting for an earlier-starting open run of their app to end, sorted.
        private var ended: [[HandlerInterval]] = []
        private var apps = AppIndexes([])

        public init() {}

        public mutating func add(_ event: SimEvent, _ emit: (String, HandlerInterval) -> Void) {
            guard let app = event.app else { return }
            switch event.payload {
            case .handlerStart, .handlerEnd, .exit:
                let i = apps.index(app)
                add(event, app: i) { _, run in emit(app, run) }
            default: return
            }
        }

        /// ``add(_:_:)`` for an event of the app numbered `i` by the caller.
        @inline(__always)
        public mutating func add(_ event: SimEvent, app i: Int, _ emit: (Int, HandlerInterval) -> Void) {
            switch event.payload {
            case .handlerStart(let activity, _, _):
                grow(to: i)
                open[i].append(HandlerInterval(startUs: event.atUs, endUs: event.atUs, handler: activity.rawValue,
                                               outcome: "running"))
            case .handlerEnd(let activity, let outcome):
                guard i < open.count else { return }
                let name = activity.rawValue
                guard let index = open[i].lastIndex(where: { $0.handler == name }) ?? open[i].indices.last else { return }
                var run = open[i].remove(at: index)
                run.endUs = max(run.startUs, event.atUs)
                run.outcome = outcome.detail
                end(run, i, emit)
            case .exit(let reason, _):
                // An app that ends takes its running handlers with it.
                guard i < open.count, !open[i].isEmpty else { return }
                let list = open[i]
                open[i] = []
                for var run in list {
                    run.endUs = max(run.startUs, event.atUs)
                    run.outcome = "exit \(reason.rawValue)"
                    end(run, i, emit)
                }
            default:
                return
            }
        }

        /// The earliest start of a run not handed out yet (open, or ended and waiting for an
        /// earlier one of its app), or nil: no run handed out later starts before it.
        public var earliestWaitingStart: Microseconds? {
            var earliest: Microseconds?
            for list in open { for run in list { earliest = min(earliest ?? run.startUs, run.startUs) } }
            for list in ended { if let run = list.first { earliest = min(earliest ?? run.startUs, run.startUs) } }
            return earliest
        }

        private mutating func grow(to i: Int) {
            while open.count <= i {
                open.append([])
                ended.append([])
            }
        }

        private mutating func end(_ run: HandlerInterval, _ i: Int, _ emit: (Int, HandlerInterval) -> Void) {
            let at = ended[i].firstIndex { ($0.startUs, $0.endUs) > (run.startUs, run.endUs) } ?? ended[i].count
            ended[i].insert(run, at: at)
            // A run still open started no earlier than its start and ends no earlier than now: the
            // ended runs starting at or before every open run's start are in their final order.
            let earliestOpen = open[i].map(\.startUs).min() ?? .max
            let ready = ended[i].prefix { $0.startUs <= earliestOpen }.count
            guard ready > 0 else { return }
            for run in ended[i][..<ready] { emit(i, run) }
            ended[i].removeFirst(ready)
        }

        /// Ends the runs still open at the end of the run (`running`) and hands out the rest.
        public mutating func finish(durationUs: Microseconds, _ emit: (String, HandlerInterval) -> Void) {
            let names = apps.names
            finish(durationUs: durationUs, order: names.indices.sorted { names[$0] < names[$1] }) { emit(names[$0], $1) }
        }

        /// ``finish(durationUs:_:)`` with apps by the caller's numbers, in their order.
        public mutating func finishByIndex(durationUs: Microseconds, _ emit: (Int, HandlerInterval) -> Void) {
            finish(durationUs: durationUs, order: Array(open.indices), emit)
        }

        private mutating func finish(durationUs: Microseconds, order: [Int], _ emit: (Int, HandlerInterval) -> Void) {
            for i in order where i < open.count {
                let list = open[i]
                open[i] = []
                for var run in list {
                    run.endUs = max(run.startUs, durationUs)
                    end(run, i, emit)
                }
            }
            for i in order where i < ended.count {
                for run in ended[i] { emit(i, run) }
                ended[i] = []
            }
            open = []
            ended = []
        }
    }

    /// App keys numbered in the order given, then in the order met.
    struct AppIndexes {
        private(set) var names: [String]
        private var indexes: [String: Int] = [:]

        init(_ names: [String]) {
            self.names = []
            for name in names { _ = index(name) }
        }

        /// The number of `name`, given a new one if it has none.
        mutating func index(_ name: String) -> Int {
            if let i = indexes[name] { return i }
            indexes[name] = names.count
            names.append(name)
            return names.count - 1
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
