/// Where an app is in its lifecycle (spec §2).
public enum AppState: String, Sendable, Hashable, Codable, CaseIterable {
    case notRunning
    case inactive
    case active
    case background
    case suspended
    case compressed

    /// Its footprint counts toward `used` (spec §4).
    public var isResident: Bool {
        switch self {
        case .inactive, .active, .background, .suspended: true
        case .notRunning, .compressed: false
        }
    }

    /// It runs code, so it can receive callbacks and memory warnings.
    public var runsCode: Bool {
        switch self {
        case .inactive, .active, .background: true
        case .notRunning, .suspended, .compressed: false
        }
    }

    public var isForeground: Bool { self == .inactive || self == .active }

    /// The state in the words iOS writes in a jetsam report's `states`: `inactive` and
    /// `background` never appear there; a running background app is `active`.
    /// (The arrays are built once: a snapshot at every memory kill lists every app in memory.)
    public func jetsamStates(playingAudio: Bool) -> [String] {
        switch self {
        case .inactive, .active: JetsamStates.frontmost
        case .background: playingAudio ? JetsamStates.activeAudio : JetsamStates.active
        case .suspended: JetsamStates.suspended
        case .compressed: JetsamStates.frozen
        case .notRunning: []
        }
    }

    /// Position in `allCases`, for per-state arrays.
    var index: Int {
        switch self {
        case .notRunning: 0
        case .inactive: 1
        case .active: 2
        case .background: 3
        case .suspended: 4
        case .compressed: 5
        }
    }
}

/// The `states` lists of jetsam reports, built once.
private enum JetsamStates {
    static let frontmost = ["frontmost", "resume"]
    static let active = ["active"]
    static let activeAudio = ["active", "audio"]
    static let suspended = ["suspended"]
    static let frozen = ["suspended", "frozen"]
}

/// Why an app ended (spec §6).
public enum ExitReason: String, Sendable, Hashable, Codable, CaseIterable {
    case userQuit
    case memoryPressure
    case memoryLimit
    case backgroundTaskTimeout
    case fetchTimeout
    case pushTimeout
    case watchdog
    case badAccess
    /// Suspended while holding a file lock in a shared container (`0xdead10cc`; MetricKit's
    /// `cumulativeSuspendedWithLockedFileExitCount`).
    case suspendedWithLockedFile
    /// Over the background CPU limit (MetricKit's `cumulativeCPUResourceLimitExitCount`).
    case cpuResourceLimit
    /// A daemon or extension above its high-water mark once available memory is under the
    /// pressure threshold, killed by xnu's highwater pass (spec §5; `JETSAM_REASON_MEMORY_HIGHWATER`,
    /// jetsam reason `highwater`). Only processes that are not apps end so.
    case highwater
    /// A process in the idle band killed while available memory is under the idle threshold but
    /// above the critical one, from xnu-11417 (`kMemorystatusKilledIdleExit`, jetsam reason
    /// `idle-exit`: `memorystatus_pick_action`, xnu-11417.121.6 bsd/kern/kern_memorystatus_policy.c:209-216).
    case idleExit
    /// A process idle in the idle band for 300 s or more, killed by xnu-11417's reaper while
    /// available memory is under the reaper threshold (`kMemorystatusKilledLongIdleExit`, jetsam
    /// reason `long-idle-exit`: kern_memorystatus_policy.c:218-224; XNUSettings.reaperThresholdFraction).
    case longIdleExit
    /// Killed while xnu's in-RAM compressor is low on space (``CompressorLimits``), in the eras
    /// that kill for it (``XNUSettings/compressorSpaceKills``; `kMemorystatusKilledVMCompressorSpaceShortage`,
    /// jetsam reason `vm-compressor-space-shortage`, xnu-11417.121.6 bsd/kern/kern_memorystatus.c:118).
    case compressorSpaceShortage

    /// Position in `allCases`, for per-reason counts.
    var index: Int {
        switch self {
        case .userQuit: 0
        case .memoryPressure: 1
        case .memoryLimit: 2
        case .backgroundTaskTimeout: 3
        case .fetchTimeout: 4
        case .pushTimeout: 5
        case .watchdog: 6
        case .badAccess: 7
        case .suspendedWithLockedFile: 8
        case .cpuResourceLimit: 9
        case .highwater: 10
        case .idleExit: 11
        case .longIdleExit: 12
        case .compressorSpaceShortage: 13
        }
    }

    /// Reasons only some runs can have (processes, or xnu-11417's idle kills): in the counts only
    /// where the run has processes or one happened, so other reports keep their shape.
    /// A kill in the idle band that xnu takes no jetsam snapshot of: `memorystatus_idle_snapshot`
    /// is 0 by default (xnu-11417.121.6 bsd/kern/kern_memorystatus.c:904), and a kill of a
    /// process at idle priority begins no snapshot without it (:6561-6563) nor logs (:4357-4366).
    var isIdleKill: Bool { self == .idleExit || self == .longIdleExit }

    var isOccasional: Bool {
        self == .highwater || self == .idleExit || self == .longIdleExit || self == .compressorSpaceShortage
    }

    /// Counts by `index` as an ``ExitCounts``: every reason present, the occasional ones
    /// (``isOccasional``) only `withHighwater` (a workload with processes) or when one happened,
    /// so reports of workloads without them keep their shape.
    static func counts(_ byIndex: [Int], withHighwater: Bool = false) -> ExitCounts {
        Dictionary(uniqueKeysWithValues: allCases.filter { withHighwater || !$0.isOccasional || byIndex[$0.index] > 0 }
            .map { ($0.rawValue, byIndex[$0.index]) })
    }

    /// Whether the reason is a memory kill: jetsam ending the process for memory, to reclaim it
    /// (`memoryPressure`, and on xnu-11417 an idle process's `idleExit` and `longIdleExit`), over
    /// its high-water mark (`highwater`) or over its own limit (`memoryLimit`). These are the
    /// reasons a jetsam event report names (``jetsamReason``); every count of "memory kills"
    /// (the MetricKit export's memory exits, the sweep's and compare's `memoryKills`) reads them here.
    public var isMemoryKill: Bool { jetsamReason != nil }

    /// Whether the reason is a memory kill to reclaim memory for the system, not over the
    /// process's own limit: MetricKit's memory-pressure exits (`MXBackgroundExitData`'s
    /// `cumulativeMemoryPressureExitCount`), where `memoryLimit` is a memory resource limit exit.
    public var isMemoryPressureKill: Bool { isMemoryKill && self != .memoryLimit }

    /// The memory kills (``isMemoryKill``), in `allCases` order.
    public static let memoryKills: [ExitReason] = allCases.filter(\.isMemoryKill)

    /// Memory kills in per-reason counts keyed by report.json's reason names (an app's `exits`
    /// or `foregroundExits`, the summary's `terminations`).
    public static func memoryKills(in counts: [String: Int]?) -> Int {
        memoryKills.reduce(0) { $0 + (counts?[$1.rawValue] ?? 0) }
    }

    /// The reason as an iOS jetsam event report names it, for memory kills.
    public var jetsamReason: String? {
        switch self {
        case .memoryPressure: "vm-pageshortage"
        case .memoryLimit: "per-process-limit"
        case .highwater: "highwater"
        case .idleExit: "idle-exit"
        case .longIdleExit: "long-idle-exit"
        case .compressorSpaceShortage: "vm-compressor-space-shortage"
        default: nil
        }
    }
}

/// The memory pressure level (spec §4).
public enum PressureLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case normal
    case warning
    case critical

    private var rank: Int {
        switch self {
        case .normal: 0
        case .warning: 1
        case .critical: 2
        }
    }

    public static func < (a: PressureLevel, b: PressureLevel) -> Bool { a.rank < b.rank }
}

/// An app delegate callback and the notification posted with it (spec §2).
public enum LifecycleCallback: String, Sendable, Hashable, Codable, CaseIterable {
    case applicationDidFinishLaunching
    case applicationWillResignActive
    case applicationDidEnterBackground
    case applicationWillEnterForeground
    case applicationDidBecomeActive
    case applicationWillTerminate
    case applicationDidReceiveMemoryWarning
    /// macOS only (spec §3): sent with the resign and become-active pairs.
    case applicationDidResignActive
    case applicationWillBecomeActive

    /// Position in `allCases`, for per-callback arrays.
    var index: Int {
        switch self {
        case .applicationDidFinishLaunching: 0
        case .applicationWillResignActive: 1
        case .applicationDidEnterBackground: 2
        case .applicationWillEnterForeground: 3
        case .applicationDidBecomeActive: 4
        case .applicationWillTerminate: 5
        case .applicationDidReceiveMemoryWarning: 6
        case .applicationDidResignActive: 7
        case .applicationWillBecomeActive: 8
        }
    }

    /// The notification posted to the app's notification center with this callback (the iOS
    /// name; see `notificationName(on:)` for macOS).
    public var notificationName: String {
        switch self {
        case .applicationDidFinishLaunching: "UIApplicationDidFinishLaunchingNotification"
        case .applicationWillResignActive: "UIApplicationWillResignActiveNotification"
        case .applicationDidEnterBackground: "UIApplicationDidEnterBackgroundNotification"
        case .applicationWillEnterForeground: "UIApplicationWillEnterForegroundNotification"
        case .applicationDidBecomeActive: "UIApplicationDidBecomeActiveNotification"
        case .applicationWillTerminate: "UIApplicationWillTerminateNotification"
        case .applicationDidReceiveMemoryWarning: "UIApplicationDidReceiveMemoryWarningNotification"
        case .applicationDidResignActive: "NSApplicationDidResignActiveNotification"
        case .applicationWillBecomeActive: "NSApplicationWillBecomeActiveNotification"
        }
    }
}
