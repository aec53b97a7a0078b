import MemprofCore

/// One stretch of time an app spent in one state, read off the report's transition events.
public struct StateInterval: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds
    public var state: AppState
    /// What made the app enter this state (`launch cold`, `exit memoryPressure`, ...), or empty.
    public var cause: String

    public init(startUs: Microseconds, endUs: Microseconds, state: AppState, cause: String = "") {
        self.startUs = startUs
        self.endUs = endUs
        self.state = state
        self.cause = cause
    }

    public var lengthUs: Microseconds { endUs - startUs }
}

/// A background handler's run, from `handlerStart` to `handlerEnd` (or the end of the run).
public struct HandlerInterval: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds
    public var handler: String
    /// How it ended (`completed`, `expiredEnded`, `timedOut`, ...), or `running` at the end of the run.
    public var outcome: String
}

/// Lifecycle intervals per app, computed from `events` (spec §10).
///
/// Every app starts `notRunning` at 0; each `transition` event closes the current interval and
/// opens one in its `to` state. Intervals of zero length (several transitions at one instant) are
/// dropped, so the intervals of an app tile `0..<durationUs` without gaps or overlaps.
public enum StateIntervals {
    /// Intervals of every app that appears in `apps` or in a transition, keyed by app.
    public static func make(events: [SimEvent], apps: [String], durationUs: Microseconds) -> [String: [StateInterval]] {
        // The events that explain changes are written before or after the transition at the same
        // instant, so the strongest explanation per app and instant is found first.
        struct Moment: Hashable { var app: String; var atUs: Microseconds }
        var causes: [Moment: (rank: Int, text: String)] = [:]
        for event in events where event.kind != .transition {
            guard let app = event.app, let text = causeText(event) else { continue }
            let rank = causeRank(event.kind)
            let moment = Moment(app: app, atUs: event.atUs)
            // Among callbacks (rank 0) the last one at an instant explains the state reached.
            if let known = causes[moment], known.rank > rank || (known.rank == rank && rank > 0) { continue }
            causes[moment] = (rank, text)
        }

        var open: [String: StateInterval] = [:]
        var result: [String: [StateInterval]] = [:]
        for app in apps {
            open[app] = StateInterval(startUs: 0, endUs: 0, state: .notRunning)
            result[app] = []
        }
        for event in events {
            guard case .transition(let from, let to) = event.payload, let app = event.app else { continue }
            var current = open[app] ?? StateInterval(startUs: 0, endUs: 0, state: from)
            let at = min(max(event.atUs, current.startUs), durationUs)
            current.endUs = at
            if current.lengthUs > 0 { result[app, default: []].append(current) }
            let why = causes[Moment(app: app, atUs: event.atUs)]?.text ?? ""
            open[app] = StateInterval(startUs: at, endUs: at, state: to, cause: why)
        }
        for (app, var current) in open {
            current.endUs = max(durationUs, current.startUs)
            if current.lengthUs > 0 { result[app, default: []].append(current) }
        }
        return result
    }

    /// How strongly an event kind explains a state change at its instant.
    static func causeRank(_ kind: SimEvent.Kind) -> Int {
        switch kind {
        case .exit, .eviction: 6
        case .launch, .resume, .compression: 5
        case .decompression: 4
        case .handlerEnd: 3
        case .handlerStart: 2
        case .memoryWarning: 1
        default: 0
        }
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

    /// A short phrase for an event that explains a state change, or nil for events that do not.
    public static func causeText(_ event: SimEvent) -> String? {
        switch event.payload {
        case .launch(let kind, _, _): "launch \(kind.rawValue)"
        case .resume(let kind, _): "resume \(kind.rawValue)"
        case .exit(let reason, _): "exit \(reason.rawValue)"
        case .eviction: "evicted"
        case .compression: "compressed"
        case .decompression: "read back from flash"
        case .handlerStart(let activity, _, let inForeground):
            "\(activity.rawValue) started" + (inForeground ? " in the foreground" : "")
        case .handlerEnd(let activity, let outcome): "\(activity.rawValue) \(outcome.detail)"
        case .memoryWarning: "memory warning"
        case .callback(let callback, _): callback.rawValue
        case .transition, .pressure, .reclaim, .pushDelivered, .ignored, .objectShown, .objectDismissed,
             .notificationDelivery, .swap: nil
        }
    }
}

extension String {
    /// The string without trailing spaces.
    package var trimmed: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
