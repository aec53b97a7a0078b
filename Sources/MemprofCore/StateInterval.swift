/// What made an app enter a state, as the engine knew it when it set the state (spec §2).
///
/// The engine passes one with every state change; its ``text`` is what trace.json's state slices
/// (`args.cause`) and report.html's swimlanes show.
public enum StateCause: Sendable, Hashable {
    /// A launch: cold into the foreground, or into the background for a wake.
    case launch(LaunchKind)
    /// A resume completed: the app became active.
    case resume(ResumeKind)
    /// The app ended.
    case exit(ExitReason)
    /// The app, suspended or compressed, was evicted to reclaim memory (it exits `memoryPressure`).
    case evicted
    /// A suspended app was compressed to flash.
    case compressed
    /// A compressed app was read back into RAM (to resume, or for a wake).
    case readBackFromFlash
    /// A suspended app was woken into the background for an activity.
    case woken(for: BackgroundActivity)
    /// What kept a background app running ended, and it was suspended.
    case activityEnded(BackgroundActivity, HandlerOutcome)
    /// The callback that announced the state: `applicationDidEnterBackground`,
    /// `applicationDidBecomeActive`, `applicationWillResignActive`, ...
    case callback(LifecycleCallback)

    /// The cause in words (`launch cold`, `exit memoryPressure`, `fetch completed`, ...).
    public var text: String {
        switch self {
        case .launch(let kind): "launch \(kind.rawValue)"
        case .resume(let kind): "resume \(kind.rawValue)"
        case .exit(let reason): "exit \(reason.rawValue)"
        case .evicted: "evicted"
        case .compressed: "compressed"
        case .readBackFromFlash: "read back from flash"
        case .woken(let activity): "\(activity.rawValue) started"
        case .activityEnded(let activity, let outcome): "\(activity.rawValue) \(outcome.detail)"
        case .callback(let callback): callback.rawValue
        }
    }

    /// The cause ``text`` names (report.json's `cause` of a `transition`), or nil.
    public init?(text: String) {
        if let kind = Self.word(text, after: "launch ", LaunchKind.init(rawValue:)) {
            self = .launch(kind)
        } else if let kind = Self.word(text, after: "resume ", ResumeKind.init(rawValue:)) {
            self = .resume(kind)
        } else if let reason = Self.word(text, after: "exit ", ExitReason.init(rawValue:)) {
            self = .exit(reason)
        } else if text == "evicted" {
            self = .evicted
        } else if text == "compressed" {
            self = .compressed
        } else if text == "read back from flash" {
            self = .readBackFromFlash
        } else if let callback = LifecycleCallback(rawValue: text) {
            self = .callback(callback)
        } else if let space = text.firstIndex(of: " "),
                  let activity = BackgroundActivity(rawValue: String(text[..<space])) {
            let rest = String(text[text.index(after: space)...])
            if rest == "started" {
                self = .woken(for: activity)
            } else if let outcome = HandlerOutcome(detail: rest) {
                self = .activityEnded(activity, outcome)
            } else {
                return nil
            }
        } else {
            return nil
        }
    }

    private static func word<T>(_ text: String, after prefix: String, _ parse: (String) -> T?) -> T? {
        text.hasPrefix(prefix) ? parse(String(text.dropFirst(prefix.count))) : nil
    }
}

/// One stretch of time an app spent in one state, and what made it enter that state.
///
/// A run's intervals per app tile `0..<durationUs` without gaps or overlaps: every app starts
/// `notRunning` at 0 (no cause), and states held for no time (several changes at one instant)
/// leave no interval; the one reached last at an instant has the cause of that last change.
public struct StateInterval: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds
    public var state: AppState
    /// What made the app enter this state; nil when no step of the engine names one (the start
    /// of the run, the end of an enter-background handler), or when a report read back from
    /// report.json was written by a memprof that did not record causes.
    public var cause: StateCause?

    public init(startUs: Microseconds, endUs: Microseconds, state: AppState, cause: StateCause? = nil) {
        self.startUs = startUs
        self.endUs = endUs
        self.state = state
        self.cause = cause
    }

    public var lengthUs: Microseconds { endUs - startUs }
}
