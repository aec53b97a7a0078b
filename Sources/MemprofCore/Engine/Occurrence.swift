/// A scheduled occurrence, ordered by time, then by the order it was scheduled in (spec §1).
struct Pending: Comparable {
    var atUs: Microseconds
    var sequence: UInt64
    var what: Occurrence

    static func < (a: Pending, b: Pending) -> Bool {
        a.atUs != b.atUs ? a.atUs < b.atUs : a.sequence < b.sequence
    }

    static func == (a: Pending, b: Pending) -> Bool {
        a.atUs == b.atUs && a.sequence == b.sequence
    }
}

/// What can be scheduled, with the lifecycle step that handles it. A token makes an occurrence
/// stale once what it belonged to has ended: each names the token of `AppRuntime` (or of a run)
/// it must still match.
enum Occurrence {
    /// A line of the script (ScriptActions.swift).
    case script(ScriptAction)
    /// A launch into the foreground completes (Launch.swift).
    case launchDone(app: Int, foregroundToken: UInt64)
    /// A resume completes: the app becomes active (Foreground.swift).
    case resumeDone(app: Int, foregroundToken: UInt64, latencyUs: Microseconds, fromCompressed: Bool)
    /// An interruption ends (Foreground.swift).
    case interruptionEnd(app: Int, foregroundToken: UInt64)
    /// An answered call ends: its app is opened again if the home screen shows (Foreground.swift).
    case answeredCallEnd(app: Int)
    /// The enter-background handler returns (LeavingForeground.swift).
    case enterBackgroundHandlerDone(app: Int, backgroundToken: UInt64)
    /// The enter-background handler reaches the 5 s limit (LeavingForeground.swift).
    case enterBackgroundWatchdog(app: Int, backgroundToken: UInt64)
    /// The background task completes (LeavingForeground.swift).
    case taskDone(app: Int, taskToken: UInt64)
    /// The background-task limit, counted from entering the background (LeavingForeground.swift).
    case taskLimit(app: Int, backgroundToken: UInt64)
    /// A fetch wake (Waking.swift).
    case fetchWake(app: Int, wakeToken: UInt64)
    /// A fetch or push handler completes (Waking.swift).
    case handlerDone(app: Int, kind: HandlerKind, runToken: UInt64)
    /// A background handler's CPU limit window ends (Waking.swift).
    case cpuLimit(app: Int, kind: HandlerKind, runToken: UInt64)
    /// A fetch or push handler reaches its window (Waking.swift).
    case handlerTimeout(app: Int, kind: HandlerKind, runToken: UInt64)
    /// A launch into the background completes, and the handler it was for runs (Launch.swift).
    case backgroundLaunchDone(app: Int, lifeToken: UInt64, wake: HandlerKind?)
    /// The VoIP keep-alive of a living app (Waking.swift).
    case voipKeepalive(app: Int, lifeToken: UInt64)
    /// The VoIP keep-alive handler completes (Waking.swift).
    case voipHandlerDone(app: Int, runToken: UInt64)
    /// A VoIP call ends (Waking.swift).
    case voipCallEnd(app: Int, callToken: UInt64)
    /// Foreground growth, once a second (Foreground.swift).
    case growthTick(app: Int, foregroundToken: UInt64)
    /// A post to a dangling observer (spec §7): the app crashes with `badAccess` (Objects.swift).
    case observerCrash(app: Int, lifeToken: UInt64)
    /// launchd's throttle after a process's death has passed: it is started again once memory
    /// allows (Processes.swift). `life` is the death it follows.
    case relaunch(process: Int, life: Int)
    /// A BGTaskScheduler request reaches its earliest time (Scheduler.swift): the loop's pass
    /// offers it its time.
    case scheduledTaskDue
    /// The phone is put on (`true`) or taken off its charger (Scheduler.swift).
    case charging(on: Bool)
    /// A notification service extension's push is done (Processes.swift).
    case servicePushDone(process: Int, bytes: Bytes, life: Int)
}
