/// A background handler or task that is running: what it holds, and the token of its end.
struct HandlerRun {
    var token: UInt64
    var allocated: Bytes
    /// Its program failed (spec §8.1): the handler ends when it did, with this outcome.
    var failure: String? = nil

    /// How the handler ends when its time is up: completed, or failed with its program.
    var outcome: HandlerOutcome { failure.map(HandlerOutcome.failed) ?? .completed }
}

/// The simulator's view of one app while a run goes on.
struct AppRuntime {
    let spec: AppSpec
    /// `spec.modes` asked once (a set lookup hashes): fetch, remote-notification, voip.
    let fetchMode: Bool, remoteNotificationMode: Bool, voipMode: Bool
    var state: AppState = .notRunning
    var stateSinceUs: Microseconds = 0
    /// When the app was last suspended (a compressed app was suspended first).
    var suspendedSinceUs: Microseconds = 0
    /// What made the app enter `state` (nil at the start of the run).
    var stateCause: StateCause?
    /// The states held so far, each closed when the next one is set.
    var intervals: [StateInterval] = []
    var footprint: Bytes = 0
    /// Whether its memory sits in the in-RAM compressor (suspended, under the `xnu` policy on a
    /// phone; Compressor.swift), and the bytes of the pool that hold it.
    var pooled = false
    var pooledBytes: Bytes = 0
    /// `P_MEMSTAT_FROZEN`: frozen once in this life, and kept when thawed where the era keeps it
    /// (FreezerBudget.swift); and `P_MEMSTAT_REFREEZE_ELIGIBLE`: thawed since, so the freezer may
    /// write it again.
    var frozen = false
    var refreezeEligible = false
    /// When the freezer demoted it from the frozen band to the idle band (its elevation lost;
    /// ``XNUSettings/demotesWhenSpent``); nil while it keeps it, or was never frozen.
    var demotedAtUs: Microseconds?
    /// What it holds of the freezer's swap while compressed, where xnu caps that in compressed
    /// bytes (``XNUSettings/freezerSwapBytes``).
    var swapBytes: Bytes = 0
    var everLaunched = false
    var userQuit = false
    var lastExit: ExitReason?
    /// When the app last left the foreground: the key of least-recently-used order.
    var lastForegroundUs: Microseconds = 0
    var lastFetchStartUs: Microseconds = 0
    /// What the app released on entering the background; it takes it back when it resumes.
    var releasedOnBackground: Bytes = 0

    // Tokens: an occurrence carrying an older token than these is stale.
    var lifeToken: UInt64 = 0
    var foregroundToken: UInt64 = 0
    var backgroundToken: UInt64 = 0
    var fetchWakeToken: UInt64 = 0

    /// When the launch under way (cold, or into the background) completes; nil once launched.
    var launchEndsUs: Microseconds?
    /// In the foreground: a launch or resume is under way and the app becomes active at its end.
    var activationPending = false
    /// In the foreground: the latest end of the interruptions on screen (spec §2.1); the app
    /// stays `inactive` until then.
    var interruptedUntilUs: Microseconds = 0
    /// A cold launch the user left before it completed: it finishes launching in the background
    /// and only then enters the background (callbacks, release, handler, task, fetch).
    var leftDuringLaunch = false

    // What keeps the app running in the background.
    var launchingInBackground = false
    var enterBackgroundHandlerRunning = false
    var task: HandlerRun?
    var fetchRun: HandlerRun?
    var pushRun: HandlerRun?
    var refreshRun: HandlerRun?
    var processingRun: HandlerRun?
    /// BGTaskScheduler's pending requests (Scheduler.swift): the earliest time each may run, by
    /// kind (a fetch from iOS 13 is scheduled as one); they outlive the app's life, as the
    /// scheduler holds them.
    var fetchDueUs: Microseconds?
    var refreshDueUs: Microseconds?
    var processingDueUs: Microseconds?
    var voipHandlerToken: UInt64?
    var voipCallToken: UInt64?
    var playing = false
    /// A handler that declared `locksFile` has run: the next suspension kills the app.
    var holdsFileLock = false
    var tracking = false

    // Foreground growth: bytes × µs not yet turned into whole bytes.
    var growthCarry: Int64 = 0
    var lastGrowthUs: Microseconds = 0

    var stats: AppStats
    var timeInState: [Microseconds] = Array(repeating: 0, count: AppState.allCases.count)
    /// Exits by `ExitReason.index`: all of them, and those that ended the app in the foreground.
    var exits = Array(repeating: 0, count: ExitReason.allCases.count)
    var foregroundExits = Array(repeating: 0, count: ExitReason.allCases.count)
    var resumeLatencies: [Microseconds] = []
    /// Footprints at each suspension (MetricKit's averageSuspendedMemory).
    var suspendedFootprints = SuspendedMemory.Accumulator()
    /// Notifications posted, by `LifecycleCallback.index`.
    var posted: [Int] = Array(repeating: 0, count: LifecycleCallback.allCases.count)
    var bytes = Series()
    /// Its object instances and notification center (spec §7).
    var objects = ObjectRuntime()

    init(spec: AppSpec) {
        self.spec = spec
        fetchMode = spec.modes.contains(.fetch)
        remoteNotificationMode = spec.modes.contains(.remoteNotification)
        voipMode = spec.modes.contains(.voip)
        stats = AppStats(name: spec.displayName)
        if spec.refresh != nil { stats.refreshTasks = ScheduledTaskCounts() }
        if spec.processing != nil { stats.processingTasks = ScheduledTaskCounts() }
    }

    /// Something keeps the app in `background` instead of suspending it.
    var keepsRunning: Bool {
        launchingInBackground || enterBackgroundHandlerRunning || task != nil || fetchRun != nil
            || pushRun != nil || refreshRun != nil || processingRun != nil || voipHandlerToken != nil || voipCallToken != nil || playing || tracking
    }

    /// What it holds in RAM: its footprint, or while its memory is compressed the pool's bytes
    /// that hold it.
    var residentBytes: Bytes { state.isResident ? (pooled ? pooledBytes : footprint) : 0 }

    /// The run of the handler of `kind` going on (the background task, a fetch, a push), if any.
    subscript(run kind: HandlerKind) -> HandlerRun? {
        get {
            switch kind {
            case .backgroundTask: task
            case .fetch: fetchRun
            case .push: pushRun
            case .refresh: refreshRun
            case .processing: processingRun
            }
        }
        set {
            switch kind {
            case .backgroundTask: task = newValue
            case .fetch: fetchRun = newValue
            case .push: pushRun = newValue
            case .refresh: refreshRun = newValue
            case .processing: processingRun = newValue
            }
        }
    }

    /// The pending BGTaskScheduler request of `kind` (fetch, refresh, processing): its earliest time.
    subscript(due kind: HandlerKind) -> Microseconds? {
        get {
            switch kind {
            case .fetch: fetchDueUs
            case .refresh: refreshDueUs
            case .processing: processingDueUs
            case .backgroundTask, .push: nil
            }
        }
        set {
            switch kind {
            case .fetch: fetchDueUs = newValue
            case .refresh: refreshDueUs = newValue
            case .processing: processingDueUs = newValue
            case .backgroundTask, .push: break
            }
        }
    }

    /// Leaves the current state at `t`: its time and, if it lasted and the run keeps its history
    /// (`keepsInterval`), its interval are recorded.
    mutating func leaveState(at t: Microseconds, keepsInterval: Bool) {
        timeInState[state.index] += t - stateSinceUs
        if keepsInterval, t > stateSinceUs {
            intervals.append(StateInterval(startUs: stateSinceUs, endUs: t, state: state, cause: stateCause))
        }
        stateSinceUs = t
    }

    /// The tokens a new life (or the end of one) starts with: every occurrence scheduled with the
    /// old ones becomes stale.
    struct Tokens {
        var life: UInt64
        var foreground: UInt64
        var background: UInt64
    }

    /// Forgets everything of the life that ended with `reason` (spec §6): its launch, its
    /// foreground bookkeeping, its background work and what it released. State, footprint and
    /// objects are the engine's to end first (they move `used` and post notifications); what
    /// outlives a life stays (statistics, `everLaunched`, the fetch schedule, `lastForegroundUs`).
    mutating func endLife(_ reason: ExitReason, tokens: Tokens) {
        lifeToken = tokens.life
        foregroundToken = tokens.foreground
        backgroundToken = tokens.background
        launchingInBackground = false
        launchEndsUs = nil
        leftDuringLaunch = false
        activationPending = false
        interruptedUntilUs = 0
        enterBackgroundHandlerRunning = false
        task = nil
        fetchRun = nil
        pushRun = nil
        refreshRun = nil
        processingRun = nil
        voipHandlerToken = nil
        voipCallToken = nil
        playing = false
        holdsFileLock = false
        tracking = false
        lastExit = reason
        releasedOnBackground = 0
        frozen = false
        refreezeEligible = false
        demotedAtUs = nil
    }
}
