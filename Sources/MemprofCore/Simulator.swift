import HeapModule

/// The discrete-event simulation of one workload (spec §2, §4, §5).
///
/// A synchronous value: no threads, no I/O. The same workload and seed give the same result.
///
///     var simulator = Simulator(workload: workload)
///     let result = simulator.run()
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

        public init(checksInvariants: Bool = false, progress: ((Microseconds) -> Void)? = nil,
                    performer: (any WorkPerformer)? = nil) {
            self.checksInvariants = checksInvariants
            self.progress = progress
            self.performer = performer
        }
    }

    /// How often foreground growth is applied.
    static let growthTickUs: Microseconds = .second

    let workload: Workload
    let policy: any MemoryPolicy
    var options: Options
    let appMemory: Bytes
    let warningBytes: Bytes
    let criticalBytes: Bytes

    var now: Microseconds = 0
    var queue = Heap<Pending>()
    var nextSequence: UInt64 = 0
    var nextToken: UInt64 = 0
    var apps: [AppRuntime]
    var foreground: Int?
    var used: Bytes = 0
    var compressedUsed: Bytes = 0
    var level: PressureLevel = .normal
    var levelSinceUs: Microseconds = 0

    var summary = Summary()
    var events: [SimEvent] = []
    var jetsamEvents: [JetsamEvent] = []
    var usedSeries = Series()
    var compressedSeries = Series()
    var levelChanges: [Timeline.LevelChange] = [Timeline.LevelChange(atUs: 0, level: .normal)]
    var processed = 0
    var violations: [String] = []
    /// macOS: bytes paged out (spec §3), and since when anything is.
    var swap = SwapSummary()
    var swapSinceUs: Microseconds?

    public init(workload: Workload, options: Options = Options()) {
        self.workload = workload
        self.options = options
        policy = PolicyFactory.makePolicy(workload.policy)
        appMemory = workload.device.appMemory
        warningBytes = Self.threshold(workload.policy.warningLevel, of: appMemory)
        criticalBytes = Self.threshold(workload.policy.criticalLevel, of: appMemory)
        apps = workload.apps.map { AppRuntime(spec: $0) }
    }

    static func threshold(_ fraction: Double, of memory: Bytes) -> Bytes {
        Bytes((fraction * Double(memory)).rounded(.up))
    }

    /// Runs the workload to its duration and returns what happened.
    public mutating func run() -> SimulationResult {
        for entry in workload.script {
            schedule(at: entry.atUs, .script(entry.action))
        }
        if let generate = workload.generate {
            var generator = SeededGenerator(seed: workload.seed)
            for entry in ScriptGenerator.entries(for: generate, durationUs: workload.durationUs,
                                                 generator: &generator) {
                schedule(at: entry.atUs, .script(entry.action))
            }
        }
        // Each scripted action leads to about a dozen recorded events; reserving avoids copying
        // the growing array (a measured 15% of a large run).
        events.reserveCapacity(min(1 << 22, queue.count * 12))
        for i in apps.indices {
            apps[i].bytes.record(0, 0)
        }
        usedSeries.record(0, 0)
        compressedSeries.record(0, 0)

        let progressEvery = 1 << 10  // the callback paces itself by wall time
        while let next = queue.min, next.atUs <= workload.durationUs {
            _ = queue.popMin()
            now = next.atUs
            handle(next.what)
            if policy.hasFreezer { runFreezer() }
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
        }
    }

    // MARK: Recording

    mutating func record(_ event: SimEvent) {
        events.append(event)
    }

    mutating func record(_ kind: SimEvent.Kind, _ i: Int, _ fill: (inout SimEvent) -> Void = { _ in }) {
        var event = SimEvent(atUs: now, kind: kind, app: apps[i].spec.id)
        fill(&event)
        events.append(event)
    }

    mutating func ignored(_ action: ScriptAction, _ why: String) {
        var event = SimEvent(atUs: now, kind: .ignored, app: action.app.map { apps[$0].spec.id })
        event.action = action.name
        event.detail = why
        events.append(event)
    }

    /// Delivers a delegate callback to an app and posts its notification to the app's
    /// registered observers (spec §7).
    mutating func deliver(_ callback: LifecycleCallback, to i: Int) {
        let name = isMac ? callback.notificationName(on: .macos) ?? callback.notificationName
            : callback.notificationName
        apps[i].posted[callback.index] += 1
        record(.callback, i) {
            $0.callback = callback
            $0.notification = name
        }
        postToObservers(i, name)
    }
}

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

/// What can be scheduled. Tokens make an occurrence stale once what it belonged to has ended.
enum Occurrence {
    case script(ScriptAction)
    case launchDone(Int, UInt64)
    case resumeDone(Int, UInt64, Microseconds, Bool)
    case interruptionEnd(Int, UInt64)
    case answeredCallEnd(Int)
    case enterBackgroundHandlerDone(Int, UInt64)
    case enterBackgroundWatchdog(Int, UInt64)
    case taskDone(Int, UInt64)
    case taskLimit(Int, UInt64)
    case fetchWake(Int, UInt64)
    case handlerDone(Int, HandlerKind, UInt64)
    case handlerTimeout(Int, HandlerKind, UInt64)
    case backgroundLaunchDone(Int, UInt64, HandlerKind?)
    case voipKeepalive(Int, UInt64)
    case voipHandlerDone(Int, UInt64)
    case voipCallEnd(Int, UInt64)
    case growthTick(Int, UInt64)
    /// A post to a dangling observer (spec §7): the app crashes with `badAccess`.
    case observerCrash(Int, UInt64)
}
