/// What interrupts the foreground app (spec §2.1).
public enum InterruptionKind: String, Sendable, Hashable, Codable, CaseIterable {
    case call
    case notificationCenter
    case taskSwitcher
}

/// One thing the user (or the world) does, naming apps by index into `Workload.apps`.
public enum ScriptAction: Sendable, Hashable {
    case open(Int)
    case home
    case interrupt(InterruptionKind, lengthUs: Microseconds, answer: Bool)
    case quit(Int)
    case push(Int)
    case allocate(Int, Bytes)
    case free(Int, Bytes)
    case memoryWarning
    case play(Int)
    case stop(Int)
    case track(Int)
    case untrack(Int)
    case voipCall(Int, lengthUs: Microseconds)
    /// Creates an instance of the app's object (index into `AppSpec.objects`) (spec §7).
    case show(Int, object: Int)
    /// Removes the most recently shown live instance of the object.
    case dismiss(Int, object: Int)
    /// `allocate` on a process (index into `Workload.processes`): it grows by the bytes (spec §5).
    case allocateProcess(Int, Bytes)
    /// `free` on a process (index into `Workload.processes`).
    case freeProcess(Int, Bytes)
    /// `freeze: APP` (`xnu`): compresses a suspended app to flash at once, as xnu's
    /// `kern.memorystatus_freeze` sysctl does for a pid.
    case freeze(Int)

    /// The action's key in a workload file.
    public var name: String {
        switch self {
        case .open: "open"
        case .home: "home"
        case .interrupt: "interrupt"
        case .quit: "quit"
        case .push: "push"
        case .allocate: "allocate"
        case .free: "free"
        case .memoryWarning: "memoryWarning"
        case .play: "play"
        case .stop: "stop"
        case .track: "track"
        case .untrack: "untrack"
        case .voipCall: "voipCall"
        case .show: "show"
        case .dismiss: "dismiss"
        case .allocateProcess: "allocate"
        case .freeProcess: "free"
        case .freeze: "freeze"
        }
    }

    /// The process the action names (an index into `Workload.processes`), if any.
    public var process: Int? {
        switch self {
        case .allocateProcess(let p, _), .freeProcess(let p, _): p
        default: nil
        }
    }

    /// The app the action names, if any.
    public var app: Int? {
        switch self {
        case .open(let a), .quit(let a), .push(let a), .allocate(let a, _), .free(let a, _),
             .play(let a), .stop(let a), .track(let a), .untrack(let a), .voipCall(let a, _),
             .show(let a, _), .dismiss(let a, _), .freeze(let a):
            a
        case .home, .interrupt, .memoryWarning, .allocateProcess, .freeProcess:
            nil
        }
    }
}

/// A scripted action at a time.
public struct ScriptEntry: Sendable, Hashable {
    public var atUs: Microseconds
    public var action: ScriptAction

    public init(atUs: Microseconds, action: ScriptAction) {
        self.atUs = atUs
        self.action = action
    }
}

/// Seeded random use merged into the script (spec §9 `generate`).
public struct GenerateSpec: Sendable, Hashable {
    /// Mean time between app switches.
    public var switchEveryUs: Microseconds
    /// How often each app (by index) is chosen; apps not listed are never chosen.
    public var weights: [(app: Int, weight: Int)]
    /// Mean time between trips to the home screen, if any.
    public var homeEveryUs: Microseconds?
    /// Apps whose use is stated directly (`apps.<id>.sessions`): opened so many times a day for
    /// so long each, apart from the switches.
    public var sessions: [Sessions]

    /// One app's sessions: `perDayMilli` thousandths of a session a run (a run is a device-day),
    /// each in front for `lengthUs` on average, then the user goes home.
    public struct Sessions: Sendable, Hashable {
        public var app: Int
        public var perDayMilli: Int64
        public var lengthUs: Microseconds

        public init(app: Int, perDayMilli: Int64, lengthUs: Microseconds) {
            self.app = app
            self.perDayMilli = perDayMilli
            self.lengthUs = lengthUs
        }

        /// The mean time from a session's end to the next one's start in a run of `durationUs`:
        /// the run ÷ perDay less the length, in whole microseconds (0 when the run × 1000
        /// overflows). A run has sessions only when this is above 0.
        public func meanGapUs(durationUs: Microseconds) -> Microseconds {
            let (cycle, overflow) = durationUs.multipliedReportingOverflow(by: 1000)
            return overflow || perDayMilli <= 0 ? 0 : cycle / perDayMilli - lengthUs
        }
    }

    public init(switchEveryUs: Microseconds, weights: [(app: Int, weight: Int)], homeEveryUs: Microseconds?,
                sessions: [Sessions] = []) {
        self.switchEveryUs = switchEveryUs
        self.weights = weights
        self.homeEveryUs = homeEveryUs
        self.sessions = sessions
    }

    public static func == (a: GenerateSpec, b: GenerateSpec) -> Bool {
        a.switchEveryUs == b.switchEveryUs && a.homeEveryUs == b.homeEveryUs && a.sessions == b.sessions
            && a.weights.map(\.app) == b.weights.map(\.app) && a.weights.map(\.weight) == b.weights.map(\.weight)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(switchEveryUs)
        hasher.combine(homeEveryUs)
        for w in weights { hasher.combine(w.app); hasher.combine(w.weight) }
        if !sessions.isEmpty { hasher.combine(sessions) }
    }
}

/// A whole workload, validated and resolved: what the simulator runs.
public struct Workload: Sendable, Hashable {
    /// The longest name a workload takes: its report folder is named after it, and the staging
    /// folder beside it (`.NAME.memprof-PID-START`, 38 characters more at most) must fit a file
    /// name's 255 bytes (Linux `NAME_MAX`) with room to spare.
    public static let maxNameLength = 200

    public var name: String
    public var seed: UInt64
    public var durationUs: Microseconds
    public var device: Device
    public var policy: PolicySettings
    public var apps: [AppSpec]
    /// Processes that are not apps (spec §5): resident from the start, killed only under `xnu`.
    public var processes: [ProcessSpec]
    public var script: [ScriptEntry]
    public var generate: GenerateSpec?
    /// When the phone charges, in order and apart: what BGTaskScheduler's processing tasks that
    /// require external power wait for. Empty: never.
    public var charging: [ChargingInterval]

    public init(name: String, seed: UInt64 = 0, durationUs: Microseconds, device: Device,
                policy: PolicySettings = .seed2015, apps: [AppSpec], processes: [ProcessSpec] = [],
                script: [ScriptEntry], generate: GenerateSpec? = nil, charging: [ChargingInterval] = []) {
        self.charging = charging
        self.name = name
        self.seed = seed
        self.durationUs = durationUs
        self.device = device
        self.policy = policy
        self.apps = apps
        self.processes = processes
        self.script = script
        self.generate = generate
    }

    /// The names jetsam snapshots give their processes, by ``JetsamSnapshot/Process/app``: the
    /// apps' ids, then the processes' names as iOS writes them.
    public var jetsamNames: [String] { apps.map(\.id) + processes.map(\.displayName) }

    /// The index of the process with this id.
    public func processIndex(_ id: String) -> Int? {
        processes.firstIndex { $0.id == id }
    }

    /// The index of the app with this id.
    public func appIndex(_ id: String) -> Int? {
        apps.firstIndex { $0.id == id }
    }
}
