extension SimEvent.Kind {
    /// What memprof's outputs and readers do with events of one kind, declared once for every
    /// kind (``SimEvent/Kind/outputs``): the event log, trace.json's tracks, report.html's lanes,
    /// decisions and flame graphs, compare's decisions and the causes `check` and budgets list
    /// each ask it before they read an event, so a kind none of them draws needs no code in any
    /// of them (<doc:AddingAnEventKind>).
    ///
    /// report.json writes every event of the kinds its log keeps, with the keys
    /// ``SimEvent/fields`` gives it.
    public struct Outputs: Sendable, Hashable {
        /// Kept by `--events decisions`: a decision of the system about memory.
        public var isDecision: Bool
        /// trace.json: an instant on the app's lifecycle track or on the device's, or none.
        public var traceInstant: Track?
        /// Ends the app's state interval and opens the next (trace.json's state slices,
        /// report.html's lanes).
        public var changesState: Bool
        /// Starts or ends a handler run (trace.json's handler slices, report.html's handler lanes;
        /// the starts also place report.html's flame graphs).
        public var handlerRun: HandlerRunEdge?
        /// A mark on the app's lane in report.html's swimlanes.
        public var laneMark: Bool
        /// A row (or part of one) of report.html's decisions table, by its word there (the
        /// table's `kind` filter; compare reads these kinds for its decisions); nil for none.
        public var decisionRow: String?
        /// Sets the pressure level (the timeline's `levels`, trace.json's pressure counter,
        /// report.html's pressure strip).
        public var setsPressureLevel: Bool
        /// The report's metrics (the first word of a metric's path: `evictions`,
        /// `exits.memoryLimit`'s `exits`) whose causes events of the kind are: what `check` and
        /// budgets read to say why a metric is what it is.
        public var causeOf: Metrics

        /// A kind no output draws but report.json's events; the other uses are set by name.
        public init(isDecision: Bool = false, traceInstant: Track? = nil, changesState: Bool = false,
                    handlerRun: HandlerRunEdge? = nil, laneMark: Bool = false, decisionRow: String? = nil,
                    setsPressureLevel: Bool = false, causeOf: Metrics = []) {
            self.isDecision = isDecision
            self.traceInstant = traceInstant
            self.changesState = changesState
            self.handlerRun = handlerRun
            self.laneMark = laneMark
            self.decisionRow = decisionRow
            self.setsPressureLevel = setsPressureLevel
            self.causeOf = causeOf
        }

        /// Whether trace.json reads events of the kind (as instants, state changes or handler runs).
        public var isTraced: Bool { traceInstant != nil || changesState || handlerRun != nil }
    }

    /// Where trace.json draws an instant.
    public enum Track: Sendable, Hashable {
        /// The app's lifecycle track (the device's for an event without an app).
        case app
        /// The device's track.
        case device
    }

    /// How an event bounds a handler run.
    public enum HandlerRunEdge: Sendable, Hashable {
        /// A run starts.
        case start
        /// A run ends (a handler's end, or its app's exit, which ends every run it had open).
        case end
    }

    /// The kinds whose events make report.html's decisions rows: what compare reads of a report
    /// for its decisions and the grouping of its regressions.
    public static let decisionRowKinds: Set<SimEvent.Kind> = Set(allCases.filter { $0.outputs.decisionRow != nil })

    /// The kinds whose events are causes of a metric (its path's first word, as in
    /// ``Outputs/causeOf``); none for a metric no event explains.
    public static func causes(of metric: some StringProtocol) -> Set<SimEvent.Kind> {
        guard let family = Metrics(named: metric) else { return [] }
        return Set(allCases.filter { !$0.outputs.causeOf.isDisjoint(with: family) })
    }

    /// Families of the report's metrics, by the first word of their paths (`exits.memoryLimit`
    /// is of `exits`): those events explain (``Outputs/causeOf``).
    public struct Metrics: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let coldLaunches = Metrics(rawValue: 1 << 0)
        public static let launches = Metrics(rawValue: 1 << 1)
        public static let backgroundLaunches = Metrics(rawValue: 1 << 2)
        public static let coldRelaunchesAfterKill = Metrics(rawValue: 1 << 3)
        public static let warmResumes = Metrics(rawValue: 1 << 4)
        public static let compressedResumes = Metrics(rawValue: 1 << 5)
        public static let resumeLatencyUs = Metrics(rawValue: 1 << 6)
        public static let evictions = Metrics(rawValue: 1 << 7)
        public static let exits = Metrics(rawValue: 1 << 8)
        public static let terminations = Metrics(rawValue: 1 << 9)
        public static let compressions = Metrics(rawValue: 1 << 10)
        public static let memoryWarnings = Metrics(rawValue: 1 << 11)
        public static let timeAtPressureUs = Metrics(rawValue: 1 << 12)
        public static let peakFootprintBytes = Metrics(rawValue: 1 << 13)
        public static let peakUsedBytes = Metrics(rawValue: 1 << 14)
        public static let peakCompressedBytes = Metrics(rawValue: 1 << 15)
        public static let backgroundTasks = Metrics(rawValue: 1 << 16)
        public static let fetches = Metrics(rawValue: 1 << 17)
        public static let pushes = Metrics(rawValue: 1 << 18)
        public static let refreshTasks = Metrics(rawValue: 1 << 19)
        public static let processingTasks = Metrics(rawValue: 1 << 20)

        /// Every family, by its word in a metric's path.
        public static let named: [(name: String, family: Metrics)] = [
            ("coldLaunches", .coldLaunches), ("launches", .launches), ("backgroundLaunches", .backgroundLaunches),
            ("coldRelaunchesAfterKill", .coldRelaunchesAfterKill), ("warmResumes", .warmResumes),
            ("compressedResumes", .compressedResumes), ("resumeLatencyUs", .resumeLatencyUs), ("evictions", .evictions),
            ("exits", .exits), ("terminations", .terminations), ("compressions", .compressions),
            ("memoryWarnings", .memoryWarnings), ("timeAtPressureUs", .timeAtPressureUs),
            ("peakFootprintBytes", .peakFootprintBytes), ("peakUsedBytes", .peakUsedBytes),
            ("peakCompressedBytes", .peakCompressedBytes), ("backgroundTasks", .backgroundTasks), ("fetches", .fetches),
            ("pushes", .pushes), ("refreshTasks", .refreshTasks), ("processingTasks", .processingTasks),
        ]

        /// The family a metric's path's first word names, nil for a metric outside them.
        public init?(named name: some StringProtocol) {
            guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
            self = found.family
        }

        /// Launches: a launch, the resume it may be, and the exit before it.
        public static let ofLaunches: Metrics = [.coldLaunches, .launches, .backgroundLaunches, .coldRelaunchesAfterKill]
        /// Exits: the exits, evictions and the reclaims that took them.
        public static let ofExits: Metrics = [.evictions, .exits, .terminations]
        /// Peaks of memory: what happened around one.
        public static let ofPeaks: Metrics = [.peakFootprintBytes, .peakUsedBytes, .peakCompressedBytes]
        /// Background handlers' runs.
        public static let ofHandlers: Metrics = [.backgroundTasks, .fetches, .pushes, .refreshTasks, .processingTasks]
    }

    /// What each output does with events of this kind: the one declaration of it.
    @inlinable
    public var outputs: Outputs {
        switch self {
        case .transition: Outputs(changesState: true)
        case .callback, .pushDelivered, .ignored, .objectShown, .objectDismissed, .notificationDelivery: Outputs()
        case .launch: Outputs(traceInstant: .app, laneMark: true, causeOf: .ofLaunches)
        case .resume:
            Outputs(traceInstant: .app, laneMark: true,
                    causeOf: Metrics.ofLaunches.union([.warmResumes, .compressedResumes, .resumeLatencyUs]))
        case .compression:
            Outputs(isDecision: true, traceInstant: .app, laneMark: true, decisionRow: "compression", causeOf: .compressions)
        case .eviction:
            Outputs(isDecision: true, traceInstant: .app, laneMark: true, decisionRow: "eviction", causeOf: .ofExits)
        case .decompression, .swap: Outputs(isDecision: true)
        case .processExit: Outputs(isDecision: true, traceInstant: .device)
        case .processLaunch: Outputs(traceInstant: .device)
        // The charger runs processing tasks (and app refresh tasks while the phone sleeps) and,
        // taken off, expires them.
        case .charging: Outputs(traceInstant: .device, causeOf: [.refreshTasks, .processingTasks])
        case .exit:
            Outputs(isDecision: true, traceInstant: .app, handlerRun: .end, laneMark: true, decisionRow: "kill",
                    causeOf: Metrics.ofExits.union(.ofLaunches))
        case .memoryWarning:
            Outputs(isDecision: true, traceInstant: .app, decisionRow: "memoryWarning",
                    causeOf: Metrics.ofPeaks.union(.memoryWarnings))
        case .pressure:
            Outputs(isDecision: true, traceInstant: .device, setsPressureLevel: true,
                    causeOf: Metrics.ofPeaks.union([.memoryWarnings, .timeAtPressureUs]))
        case .reclaim:
            Outputs(isDecision: true, traceInstant: .device, decisionRow: "reclaim", causeOf: Metrics.ofExits.union(.ofPeaks))
        case .handlerStart: Outputs(handlerRun: .start, causeOf: .ofHandlers)
        case .handlerEnd: Outputs(handlerRun: .end, causeOf: .ofHandlers)
        }
    }
}

extension SimEvent {
    /// A value of an instant's `args` in trace.json.
    public enum InstantArgument: Sendable, Hashable {
        case text(String)
        case number(Int64)
    }

    /// trace.json's name of the event's instant, for a kind that declares one
    /// (``Kind/Outputs/traceInstant``): the kind's word unless it says more.
    public var traceInstantName: String {
        switch payload {
        case .exit(let reason, _): reason == .userQuit ? "exit" : "kill"
        case .pressure(let level, _): "pressure \(level.rawValue)"
        case .processExit: "process kill"
        case .processLaunch: "process launch"
        default: kind.rawValue
        }
    }

    /// trace.json's `args` of the event's instant, handed to `argument` in order; the first is
    /// always `reason`. A kind without a line here has its report.json `detail` (or its word) as
    /// the reason.
    public func traceInstantArguments(_ argument: (_ key: String, _ value: InstantArgument) -> Void) {
        switch payload {
        case .launch(let kind, let bytes, _):
            argument("reason", .text(kind.rawValue)); argument("bytes", .number(bytes))
        case .resume(let kind, let latency):
            argument("reason", .text(kind.rawValue)); argument("latencyUs", .number(latency))
        case .compression(let bytes, _, _):
            argument("reason", .text("suspended under the compression threshold")); argument("bytes", .number(bytes))
        case .eviction(let bytes):
            argument("reason", .text(ExitReason.memoryPressure.rawValue)); argument("bytes", .number(bytes))
        case .exit(let reason, _):
            argument("reason", .text(reason.rawValue))
        case .memoryWarning(let cause, let freed):
            argument("reason", .text(cause.rawValue)); argument("freedBytes", .number(freed))
        case .pressure:
            argument("reason", .text("level changed"))
        case .reclaim(let r):
            argument("reason", .text("demand did not fit"))
            argument("neededBytes", .number(r.neededBytes))
            argument("freedBytes", .number(r.freedBytes))
            argument("candidates", .text(r.candidates.map { $0.taken ? $0.app + "*" : $0.app }.joined(separator: " ")))
            if let app { argument("demandingApp", .text(app)) }
        case .processExit(let reason, _, _, let bytes):
            argument("reason", .text(reason.rawValue)); argument("bytes", .number(bytes))
            if let app { argument("process", .text(app)) }
            if let detail = fields.detail { argument("detail", .text(detail)) }
        case .processLaunch(_, _, let bytes):
            argument("reason", .text("launchd")); argument("bytes", .number(bytes))
            if let app { argument("process", .text(app)) }
            if let detail = fields.detail { argument("detail", .text(detail)) }
        default:
            argument("reason", .text(fields.detail ?? kind.rawValue))
        }
    }
}
