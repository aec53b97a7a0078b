/// What keeps an app running in the background, as events name it (`handler`, spec §2.2).
enum BackgroundActivity: String {
    case backgroundTask
    case fetch
    case push
    case audio
    case location
    case voipCall
    case voipKeepalive

    init(_ kind: HandlerKind) {
        switch kind {
        case .backgroundTask: self = .backgroundTask
        case .fetch: self = .fetch
        case .push: self = .push
        }
    }
}

/// How a background activity ended (the `detail` of a `handlerEnd` event).
enum HandlerOutcome {
    /// It finished on its own, or the app stopped it.
    case completed
    /// A background task reached its limit and its expiration handler ended it.
    case expiredEnded
    /// A background task reached its limit without ending: the app is killed.
    case expiredKilled
    /// A fetch or push handler ran past its window: the app is killed.
    case timedOut
    /// Audio stopped because another app started playing.
    case interrupted(by: String)

    var detail: String {
        switch self {
        case .completed: "completed"
        case .expiredEnded: "expiredEnded"
        case .expiredKilled: "expiredKilled"
        case .timedOut: "timedOut"
        case .interrupted(let app): "interrupted by \(app)"
        }
    }
}

extension Simulator {
    /// Records that `activity` started for app `i`, holding `bytes` (handlers), and whether it runs
    /// in the foreground (a push to the foreground app runs in place).
    mutating func recordStart(_ activity: BackgroundActivity, _ i: Int, bytes: Bytes? = nil, inForeground: Bool = false) {
        record(.handlerStart, i) {
            $0.handler = activity.rawValue
            $0.bytes = bytes
            if inForeground { $0.detail = "in the foreground" }
        }
    }

    /// Records how `activity` of app `i` ended.
    mutating func recordEnd(_ activity: BackgroundActivity, _ i: Int, _ outcome: HandlerOutcome) {
        record(.handlerEnd, i) {
            $0.handler = activity.rawValue
            $0.detail = outcome.detail
        }
    }
}
