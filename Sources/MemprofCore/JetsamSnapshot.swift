/// A jetsam snapshot as the engine takes it at a memory kill: apps by their index in
/// the workload, states as the engine's, so taking one copies no strings and retains nothing
/// (a run with many kills takes one at each, with every app in memory). ``event(appIDs:)``
/// makes it the report's ``JetsamEvent``; report.json's writer writes it straight.
public struct JetsamSnapshot: Sendable, Hashable {
    /// One app in memory at the kill, or a process that is not an app.
    public struct Process: Sendable, Hashable {
        /// Its index in the workload's apps, or `apps.count + k` for its `k`th process
        /// (``Workload/jetsamNames`` names both).
        public var app: Int
        /// Its jetsam band at the moment (nil when it has none).
        public var priority: Int?
        /// Resident pages.
        public var rpages: Int64
        public var state: AppState
        public var playingAudio: Bool
        /// Set for a process that is not an app; its `state` then means nothing.
        public var kind: ProcessKind?

        public init(app: Int, priority: Int?, rpages: Int64, state: AppState, playingAudio: Bool,
                    kind: ProcessKind? = nil) {
            self.app = app
            self.priority = priority
            self.rpages = rpages
            self.state = state
            self.playingAudio = playingAudio
            self.kind = kind
        }

        /// A stable pid per app: 300 + 7 × its index in the workload.
        public var pid: Int { 300 + 7 * app }

        /// Its `states` in iOS's words.
        public var states: [String] {
            if let kind { return kind.jetsamStates(band: priority ?? 0) }
            return state.jetsamStates(playingAudio: playingAudio)
        }
    }

    public var atUs: Microseconds
    /// The index of the app killed.
    public var killed: Int
    public var exitReason: ExitReason
    /// The index of the largest app in memory.
    public var largestProcess: Int
    public var pageSize: Bytes
    /// Largest first (ties by app id, then index): every process in memory, or past
    /// ``JetsamEvent/listLimit`` the largest ones and the killed one.
    public var processes: [Process]
    /// The in-RAM compressor's pool and counters at the moment (nil in a run without one).
    public var compressor: JetsamEvent.Compressor?
    /// The processes in memory that `processes` leaves out (nil when it lists every one).
    public var unlisted: JetsamEvent.Unlisted?

    public init(atUs: Microseconds, killed: Int, exitReason: ExitReason, largestProcess: Int, pageSize: Bytes,
                processes: [Process], compressor: JetsamEvent.Compressor? = nil, unlisted: JetsamEvent.Unlisted? = nil) {
        self.atUs = atUs
        self.killed = killed
        self.exitReason = exitReason
        self.largestProcess = largestProcess
        self.pageSize = pageSize
        self.processes = processes
        self.compressor = compressor
        self.unlisted = unlisted
    }

    /// The `reason` of a process: on the killed one only.
    public func reason(of process: Process) -> String? {
        process.app == killed ? exitReason.jetsamReason : nil
    }

    /// The snapshot with apps named by `appIDs` (``Workload/jetsamNames``: the workload's app
    /// ids, in its order, then its processes' names).
    public func event(appIDs: [String]) -> JetsamEvent {
        JetsamEvent(atUs: atUs, killed: appIDs[killed], exitReason: exitReason, largestProcess: appIDs[largestProcess],
                    pageSize: pageSize,
                    processes: processes.map {
                        JetsamEvent.Process(pid: $0.pid, priority: $0.priority, name: appIDs[$0.app], rpages: $0.rpages,
                                            states: $0.states, reason: reason(of: $0))
                    },
                    compressor: compressor, unlisted: unlisted)
    }
}
