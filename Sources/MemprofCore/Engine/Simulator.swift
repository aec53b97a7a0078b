import HeapModule

/// The discrete-event simulation of one workload (spec §2, §4, §5).
///
/// A synchronous value: no threads, no I/O. The same workload and seed give the same result.
///
///     var simulator = Simulator(workload: workload)
///     let result = simulator.run()
///
/// This file is the loop: a heap of occurrences (Occurrence.swift lists each with the step
/// that handles it), recording, and callbacks. Each lifecycle step is one file of `Engine/`,
/// which lists at its top what triggers it:
///
/// - ScriptActions.swift: the script's actions, handed to their steps
/// - Launch.swift: cold launches and launches into the background
/// - Foreground.swift: resuming, becoming active, interruptions, growth
/// - LeavingForeground.swift: resign, enter the background, the enter-background handler, the
///   background task and its limit, quitting
/// - Suspension.swift: suspension, compression, the `xnu` freezer, reading back from flash
/// - Waking.swift: fetch, push and VoIP wakes and their handlers
/// - Scheduler.swift: BGTaskScheduler's app refresh and processing tasks, and fetch from iOS 13
/// - AudioAndLocation.swift: playing and tracking
/// - Memory.swift: accounting, the pressure level, demands, memory warnings
/// - Reclaiming.swift: the policy's order and evictions when a demand does not fit
/// - Exit.swift: every app's end, and jetsam snapshots
/// - Objects.swift: objects and the notification center
/// - Platform.swift and Platform+Engine.swift: what differs between a phone and a Mac
/// - Finish.swift and Invariants.swift: the result, and what holds after every step
public struct Simulator {
    /// Options that do not change what a run means.
    public struct Options {
        /// Check the model's invariants after every step (slow; for tests).
        public var checksInvariants = false
        /// Called every 1,024 occurrences with the simulated time reached, for progress displays
        /// (which pace themselves by wall time: keep it cheap).
        public var progress: ((Microseconds) -> Void)?
        /// Runs the `work` of background handlers, if any (spec §8).
        public var performer: (any WorkPerformer)?
        /// Whether the run keeps its history: events, memory series and jetsam snapshots. Sweeps
        /// turn it off: they read only the counters (summary and per-app stats), which are the
        /// same either way, and a run without history allocates a fraction as much.
        public var keepsHistory = true
        /// Where the history goes as it is made (events, jetsam snapshots, memory changes), instead
        /// of into the result; nil keeps it in the result. Only with `keepsHistory`.
        public var sink: (any SimulationSink)?

        public init(checksInvariants: Bool = false, progress: ((Microseconds) -> Void)? = nil,
                    performer: (any WorkPerformer)? = nil, keepsHistory: Bool = true,
                    sink: (any SimulationSink)? = nil) {
            self.checksInvariants = checksInvariants
            self.progress = progress
            self.performer = performer
            self.keepsHistory = keepsHistory
            self.sink = sink
        }
    }

    /// How often foreground growth is applied.
    static let growthTickUs: Microseconds = .second

    let workload: Workload
    let policy: any MemoryPolicy
    let platform: any PlatformBehaviour
    /// The platform's and the policy's answers the hot path asks, asked once (each is a call
    /// through an existential otherwise): `platform.entersBackground`, `.suspendsIdleApps`,
    /// `.limitsMemory`, `.pagesOut`, `policy.hasFreezer`, `policy.hasBands`.
    let entersBackground: Bool, suspendsIdleApps: Bool, limitsMemory: Bool, pagesOut: Bool, hasFreezer: Bool,
        hasBands: Bool
    /// The jetsam bands of the device's kernel era, for the priorities in jetsam reports (the
    /// policy's own under `xnu`, ``XNUSettings/reportBands(for:)`` otherwise); chosen once per run.
    let jetsamBands: XNUSettings
    var options: Options
    /// `options.sink` when the run keeps its history, reached on every event and memory change
    /// through `sinkRef` (`_withUnsafeGuaranteedRef`): a sink read from a property, even an
    /// `unowned(unsafe)` one, is retained and released around every call.
    let sinkHolder: SinkHolder?
    let sinkRef: Unmanaged<SinkHolder>?
    let appMemory: Bytes
    /// The pressure level's thresholds on `used`: `warning` from `warningBytes`, `critical` from
    /// `criticalBytes` (the policy's fractions of app memory, or xnu's thresholds of available
    /// memory: Compressor.swift).
    let warningBytes: Bytes
    let criticalBytes: Bytes
    /// The most `used` may reach after a demand before reclaiming: `appMemory`, or under the
    /// in-RAM compressor one byte under xnu's critical threshold (Compressor.swift).
    let jetsamLimit: Bytes
    /// The most `used` may reach before jetsam kills outside the idle band: ``jetsamLimit``, or
    /// from xnu-11417 one byte under the critical base (``XNUSettings/idleExitSplit``): between
    /// the two only the idle band dies (Reclaiming.swift).
    let killLimit: Bytes
    /// Whether kills at ``jetsamLimit`` take only the idle band, for `idle-exit` (xnu-11417).
    let splitsIdleExit: Bool
    /// xnu-11417's reaper (Reaper.swift): `used` past which available memory is under its
    /// threshold; nil without one. And the earliest time it looks again.
    let reaperUsedBytes: Bytes?
    var reaperNextUs: Microseconds = 0
    /// Killed processes waiting for memory before launchd starts them again (Processes.swift).
    var relaunchWaiting = 0
    /// Whether suspended apps' memory goes to the in-RAM compressor (the `xnu` policy on a phone).
    let compressesInRAM: Bool
    /// The compressor's pool and counters (Compressor.swift).
    var pool = CompressorPool()
    /// The pages the pool may hold before xnu finds it low on space (``CompressorLimits``), and
    /// whether the era kills for it (``XNUSettings/compressorSpaceKills``).
    let poolNearingLimitPages: Int64
    let killsForCompressorSpace: Bool
    /// The freezer's swap where xnu caps it in compressed bytes (``XNUSettings/freezerSwap(on:)``:
    /// its files, no more than the device's `flash` has room for), and what frozen apps hold of
    /// it; nil where the store is the device's `flash`, uncompressed.
    let swapCap: Bytes?
    var swapUsed: Bytes = 0

    var now: Microseconds = 0
    /// Occurrences wait in three places, each in (time, sequence) order, and the loop takes the
    /// earliest of their fronts (`nextOccurrence`): the script (`ScriptFeed`), read in order as
    /// the run goes; growth ticks, always scheduled one `growthTickUs` after now and so already in
    /// order when appended (most of what a run schedules: a queue with no sifting); and a heap
    /// for every other timer.
    var script: ScriptFeed?
    var growthTicks: [Pending] = []
    var growthHead = 0
    var queue = Heap<Pending>()
    var nextSequence: UInt64 = 0
    var nextToken: UInt64 = 0
    var apps: [AppRuntime]
    /// Processes that are not apps (Processes.swift), in the workload's order.
    var processes: [ProcessRuntime]
    /// Whether the highwater pass runs after every occurrence: processes under `xnu` on a phone.
    let runsHighwater: Bool
    /// Whether a process is a notification service extension tied to an app's pushes.
    let hasServiceExtensions: Bool
    /// The names of jetsam snapshots' processes (``Workload/jetsamNames``): apps, then processes.
    let jetsamNames: [String]
    /// Each snapshot process's place in the order of ``jetsamNames`` (`<`), so sorting by name
    /// compares integers (apps keep their order among themselves).
    let nameRank: [Int]
    /// The apps' ids, in the workload's order.
    let appIDs: [String]
    var foreground: Int?
    var used: Bytes = 0
    var compressedUsed: Bytes = 0
    var level: PressureLevel = .normal
    var levelSinceUs: Microseconds = 0

    var summary = Summary()
    /// The run's exits by `ExitReason.index` (`summary.terminations` at the end).
    var terminations = Array(repeating: 0, count: ExitReason.allCases.count)
    var events: [SimEvent] = []
    var jetsamEvents: [JetsamEvent] = []
    var usedSeries = Series()
    var compressedSeries = Series()
    /// The in-RAM compressor's pool (recorded only while `compressesInRAM`).
    var compressorSeries = Series()
    var levelChanges: [Timeline.LevelChange] = [Timeline.LevelChange(atUs: 0, level: .normal)]
    var processed = 0
    var violations: [String] = []
    /// macOS: bytes paged out (spec §3), and since when anything is.
    var swap = SwapSummary()
    var swapSinceUs: Microseconds?
    /// The freezer's daily budget (FreezerBudget.swift); nil where the policy has none.
    var freezerLedger: FreezerLedger?
    /// Whether BGTaskScheduler runs (``BackgroundTime/schedulesTasks(on:policy:)``); whether the
    /// phone charges now; and the earliest pending request's time (`.max`: none) (Scheduler.swift).
    let schedulesTasks: Bool
    var charging = false
    var nextScheduledUs: Microseconds = .max
    /// The earliest time the freezer runs again, where its era paces it
    /// (``XNUSettings/freezerRunDelayUs``; Suspension.swift).
    var freezerNextRunUs: Microseconds = 0

    public init(workload: Workload, options: Options = Options()) {
        self.workload = workload
        self.options = options
        sinkHolder = options.keepsHistory ? options.sink.map(SinkHolder.init) : nil
        sinkRef = sinkHolder.map(Unmanaged.passUnretained)
        policy = PolicyFactory.makePolicy(workload.policy)
        jetsamBands = workload.policy.xnu ?? .reportBands(for: workload.device)
        platform = workload.device.platform.behaviour
        entersBackground = platform.entersBackground
        suspendsIdleApps = platform.suspendsIdleApps
        limitsMemory = platform.limitsMemory
        pagesOut = platform.pagesOut
        hasFreezer = policy.hasFreezer
        hasBands = policy.hasBands
        appMemory = workload.device.appMemory
        compressesInRAM = hasBands && limitsMemory
        (warningBytes, criticalBytes, jetsamLimit) = workload.policy.levelBytes(on: workload.device)
        let split = compressesInRAM ? workload.policy.idleExitLimits(on: workload.device) : nil
        splitsIdleExit = split != nil
        killLimit = split?.killLimit ?? jetsamLimit
        reaperUsedBytes = compressesInRAM ? split?.reaperUsed : nil
        poolNearingLimitPages = CompressorLimits(device: workload.device).nearingLimitPages
        killsForCompressorSpace = compressesInRAM && workload.policy.xnu?.compressorSpaceKills == true
        swapCap = hasFreezer ? workload.policy.xnu?.freezerSwap(on: workload.device) : nil
        apps = workload.apps.map { AppRuntime(spec: $0) }
        appIDs = workload.apps.map(\.id)
        processes = workload.processes.map(ProcessRuntime.init)
        runsHighwater = !workload.processes.isEmpty && hasBands && limitsMemory
        hasServiceExtensions = workload.processes.contains { $0.pushService != nil }
        jetsamNames = workload.jetsamNames
        nameRank = Self.ranks(of: jetsamNames)
        freezerLedger = hasFreezer && suspendsIdleApps ? FreezerLedger(policy: workload.policy, device: workload.device, appCount: apps.count) : nil
        schedulesTasks = BackgroundTime.schedulesTasks(on: workload.device, policy: workload.policy)
        if workload.apps.contains(where: { $0.refresh != nil }) { summary.refreshTasks = ScheduledTaskCounts() }
        if workload.apps.contains(where: { $0.processing != nil }) { summary.processingTasks = ScheduledTaskCounts() }
    }

    /// The rank of each string in `<` order; strings equal under `<` share a rank.
    static func ranks(of names: [String]) -> [Int] {
        let sorted = names.indices.sorted { names[$0] < names[$1] }
        var ranks = Array(repeating: 0, count: names.count)
        var rank = 0
        for (k, i) in sorted.enumerated() {
            if k > 0, names[sorted[k - 1]] < names[i] { rank += 1 }
            ranks[i] = rank
        }
        return ranks
    }

    /// Runs the workload to its duration and returns what happened.
    public mutating func run() -> SimulationResult {
        // The script and the generated entries are read in order beside the queue (which then
        // holds only the few timers the engine sets), numbered as if scheduled first, so the order
        // of everything is the queue's (time, then sequence) either way.
        let feed = ScriptFeed(workload: workload, firstSequence: nextSequence)
        nextSequence += feed.count
        script = feed
        // Each scripted action leads to about 15 recorded events (14.8-15.0 in scripts/bench.sh's
        // generated workloads); reserving 16 avoids copying the growing array (a measured 15% of a
        // large run), and capacity never written is never touched, so it costs no memory.
        if options.keepsHistory, sinkRef == nil { events.reserveCapacity(min(1 << 22, Int(clamping: feed.count) * 16)) }
        for i in apps.indices {
            apps[i].bytes.record(0, 0)
        }
        usedSeries.record(0, 0)
        compressedSeries.record(0, 0)
        compressorSeries.record(0, 0)
        startProcesses()
        if schedulesTasks {
            for interval in workload.charging {
                schedule(at: interval.startUs, .charging(on: true))
                schedule(at: interval.endUs, .charging(on: false))
            }
        }

        let progressEvery = 1 << 10  // the callback paces itself by wall time
        while let next = nextOccurrence() {
            now = next.atUs
            handle(next.what)
            if runsHighwater { runHighwaterPass() }
            if relaunchWaiting > 0 { relaunchWaiters() }
            if let reaperUsedBytes, used > reaperUsedBytes, now >= reaperNextUs { runReaper() }
            if killsForCompressorSpace, poolLowOnSpace { killForCompressorSpace() }
            if hasFreezer { runFreezer() }
            if nextScheduledUs <= now { offerScheduledTasks() }
            processed += 1
            if options.checksInvariants { checkInvariants() }
            if processed & (progressEvery - 1) == 0 { options.progress?(now) }
        }
        now = workload.durationUs
        return finish()
    }

    // MARK: Scheduling

    mutating func schedule(at time: Microseconds, _ what: Occurrence) {
        queue.insert(Pending(atUs: time, sequence: nextSequence, what: what))
        nextSequence += 1
    }

    /// Schedules app `i`'s next growth tick, one `growthTickUs` from now (see `growthTicks`).
    mutating func scheduleGrowthTick(_ i: Int, foregroundToken: UInt64) {
        // Few ticks are ever due at once (one chain per foreground stay): dropping the taken ones
        // every 64 keeps the array small and its memory reused.
        if growthHead >= 64, growthHead * 2 >= growthTicks.count {
            growthTicks.removeFirst(growthHead)
            growthHead = 0
        }
        growthTicks.append(Pending(atUs: now + Self.growthTickUs, sequence: nextSequence,
                                   what: .growthTick(app: i, foregroundToken: foregroundToken)))
        nextSequence += 1
    }

    /// Takes the earliest occurrence of the script, the growth ticks and the heap; nil once the
    /// earliest is past the run's duration.
    mutating func nextOccurrence() -> Pending? {
        var next = script?.front
        var from = 0
        if growthHead < growthTicks.count, next.map({ growthTicks[growthHead] < $0 }) ?? true {
            next = growthTicks[growthHead]
            from = 1
        }
        if let min = queue.min, next.map({ min < $0 }) ?? true {
            next = min
            from = 2
        }
        guard let next, next.atUs <= workload.durationUs else { return nil }
        switch from {
        case 0: script?.pop()
        case 1: growthHead += 1
        default: _ = queue.popMin()
        }
        return next
    }

    mutating func makeToken() -> UInt64 {
        nextToken += 1
        return nextToken
    }

    mutating func handle(_ what: Occurrence) {
        switch what {
        case .script(let action): perform(action)
        case .launchDone(let i, let token): launchDone(i, token)
        case .resumeDone(let i, let token, let latency, let compressed): resumeDone(i, token, latency, compressed)
        case .interruptionEnd(let i, let token): interruptionEnd(i, token)
        case .answeredCallEnd(let i): answeredCallEnd(i)
        case .enterBackgroundHandlerDone(let i, let token): enterBackgroundHandlerDone(i, token)
        case .enterBackgroundWatchdog(let i, let token): enterBackgroundWatchdog(i, token)
        case .taskDone(let i, let token): taskDone(i, token)
        case .taskLimit(let i, let token): taskLimit(i, token)
        case .fetchWake(let i, let token): fetchWake(i, token)
        case .handlerDone(let i, let kind, let token): handlerDone(i, kind, token)
        case .handlerTimeout(let i, let kind, let token): handlerTimeout(i, kind, token)
        case .backgroundLaunchDone(let i, let token, let wake): backgroundLaunchDone(i, token, wake)
        case .voipKeepalive(let i, let token): voipKeepalive(i, token)
        case .voipHandlerDone(let i, let token): voipHandlerDone(i, token)
        case .voipCallEnd(let i, let token): voipCallEnd(i, token)
        case .growthTick(let i, let token): growthTick(i, token)
        case .observerCrash(let i, let token): observerCrash(i, token)
        case .servicePushDone(let k, let bytes, let life): servicePushDone(k, bytes, life)
        case .cpuLimit(let i, let kind, let token): cpuLimit(i, kind, token)
        case .relaunch(let k, let life): relaunch(process: k, life: life)
        case .scheduledTaskDue: break  // the loop's pass offers due requests their time
        case .charging(let on): chargingChanged(on)
        }
    }

    // MARK: Recording

    /// Records what happened to app `i` now, if the run keeps its history.
    mutating func record(_ payload: consuming SimEvent.Payload, _ i: Int) {
        guard options.keepsHistory else { return }
        keep(payload, app: i)
    }

    /// Records what happened to the device now (no app), if the run keeps its history.
    mutating func recordDevice(_ payload: consuming SimEvent.Payload) {
        guard options.keepsHistory else { return }
        keep(payload, app: nil)
    }

    mutating func ignored(_ action: ScriptAction, _ why: IgnoredReason) {
        guard options.keepsHistory else { return }
        keep(.ignored(action: action.name, reason: why), app: action.app)
    }

    /// An event of the history, now, of app `i` (an index into the workload's apps; nil for the
    /// device): to the sink, or into the result (made in place, moved, not copied).
    @inline(__always)
    mutating func keep(_ payload: consuming SimEvent.Payload, app i: Int?) {
        var handed = Optional(SimEvent(atUs: now, app: i.map { appIDs[$0] }, payload))
        guard let sinkRef else { return events.append(handed.take()!) }
        sinkRef._withUnsafeGuaranteedRef { $0.sink.record(handed.take()!, app: i) }
    }

    /// Whether the engine keeps each app's state intervals itself (with a sink, the transitions
    /// carry them).
    var keepsIntervals: Bool { options.keepsHistory && sinkRef == nil }

    /// Delivers a delegate callback to an app and posts its notification to the app's
    /// registered observers (spec §7).
    mutating func deliver(_ callback: LifecycleCallback, to i: Int) {
        let name = platform.notificationName(of: callback)
        apps[i].posted[callback.index] += 1
        record(.callback(callback, notification: name), i)
        postToObservers(i, name)
    }
}

/// Holds a run's sink where `Unmanaged` can reach it (`Simulator.sinkRef`).
final class SinkHolder {
    let sink: any SimulationSink

    init(_ sink: any SimulationSink) { self.sink = sink }
}
