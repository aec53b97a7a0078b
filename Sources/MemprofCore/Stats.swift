/// Counts of one kind of background handler (spec §10).
public struct HandlerCounts: Sendable, Hashable, Codable {
    public var started = 0
    public var completed = 0
    public var timedOut = 0

    public init() {}
}

/// Counts of BGTaskScheduler tasks of one kind: started, completed, and expired (the system
/// called the expiration handler: an app refresh task past its window, a processing task when the
/// user started using the phone or it was unplugged; the task ends there, the app is not killed).
public struct ScheduledTaskCounts: Sendable, Hashable, Codable {
    public var started = 0
    public var completed = 0
    public var expired = 0

    public init() {}
}

/// Counts of background tasks (spec §10).
public struct BackgroundTaskCounts: Sendable, Hashable, Codable {
    public var started = 0
    public var completed = 0
    public var expiredEnded = 0
    public var expiredKilled = 0

    public init() {}
}

/// Launch counts of one app (spec §10).
public struct LaunchCounts: Sendable, Hashable, Codable {
    /// Cold launches into the foreground.
    public var cold = 0
    /// Launches into the background for a fetch, push or VoIP wake.
    public var background = 0
    /// Resumes of a suspended or background app.
    public var warm = 0
    /// Resumes that read the app back from flash.
    public var fromCompressed = 0

    public init() {}
}

/// Resume latency figures of one app: the time from `open` to `active`.
public struct LatencySummary: Sendable, Hashable, Codable {
    public var count: Int
    /// The lower median (0 without resumes).
    public var p50: Microseconds
    public var max: Microseconds

    public init(samples: [Microseconds]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
        max = sorted.last ?? 0
    }
}

/// Time spent at each pressure level (spec §10 `timeAtPressureUs`).
public struct PressureTimes: Sendable, Hashable, Codable {
    public var normal: Microseconds = 0
    public var warning: Microseconds = 0
    public var critical: Microseconds = 0

    public init() {}

    public subscript(level: PressureLevel) -> Microseconds {
        get {
            switch level {
            case .normal: normal
            case .warning: warning
            case .critical: critical
            }
        }
        set {
            switch level {
            case .normal: normal = newValue
            case .warning: warning = newValue
            case .critical: critical = newValue
            }
        }
    }
}

/// Exit counts keyed by reason; every reason is present, so reports keep one shape (`highwater`
/// only in the summary of a workload with processes, see `ExitReason.counts`).
public typealias ExitCounts = [String: Int]

func zeroExitCounts() -> ExitCounts {
    Dictionary(uniqueKeysWithValues: ExitReason.allCases.filter { !$0.isOccasional }.map { ($0.rawValue, 0) })
}

/// One app's figures (spec §10 `apps`).
public struct AppStats: Sendable, Hashable, Codable {
    public var name: String
    /// Microseconds in each state; they add up to the run's duration.
    public var timeInStateUs: [String: Microseconds]
    public var launches = LaunchCounts()
    public var exits: ExitCounts = zeroExitCounts()
    /// The app's memory kills (``ExitReason/isMemoryKill``, every reason's count in `exits`): not
    /// in report.json, a metric (`apps.<key>.memoryKills`) compare, check and sweeps derive from it.
    public var memoryKills: Int { ExitReason.memoryKills(in: exits) }
    public var compressions = 0
    public var evictions = 0
    public var memoryWarnings = 0
    public var peakFootprintBytes: Bytes = 0
    /// The largest footprint the app asked for when passing its fatal limit killed it for
    /// `memoryLimit` (a launch or growth it never reached); nil when its limit never killed it.
    public var killedAskingBytes: Bytes?
    public var resumeLatencyUs = LatencySummary(samples: [])
    public var backgroundTasks = BackgroundTaskCounts()
    public var fetches = HandlerCounts()
    public var pushes = HandlerCounts()
    /// BGTaskScheduler app refresh tasks (``ScheduledTaskCounts``); absent for an app that
    /// declares none.
    public var refreshTasks: ScheduledTaskCounts?
    /// BGTaskScheduler processing tasks; absent for an app that declares none.
    public var processingTasks: ScheduledTaskCounts?
    /// Cold launches into the foreground of an app the system had killed (memory or time limits).
    public var coldRelaunchesAfterKill = 0
    /// How the app's declared handlers and its peak footprint sit against their limits.
    public var headroom: Headroom?
    /// The exits of `exits` that ended the app in the foreground (`inactive` or `active`), by
    /// reason; the rest ended it in the background. MetricKit counts the two sides apart
    /// (`MXForegroundExitData`, `MXBackgroundExitData`). Absent in reports of older versions.
    public var foregroundExits: ExitCounts?
    /// MetricKit's `averageSuspendedMemory`: the app's footprint each time it was suspended.
    /// Absent in reports of older versions.
    public var suspendedMemory: SuspendedMemory?

    public init(name: String) {
        self.name = name
        timeInStateUs = Dictionary(uniqueKeysWithValues: AppState.allCases.map { ($0.rawValue, 0) })
    }
}

/// The footprints an app had when it was suspended, as MetricKit's `MXAverage` gives them: how
/// many, their mean and their sample standard deviation (n − 1), in bytes rounded to the byte.
public struct SuspendedMemory: Sendable, Hashable, Codable {
    public var sampleCount: Int
    public var averageBytes: Bytes
    public var standardDeviationBytes: Bytes

    public init(sampleCount: Int, averageBytes: Bytes, standardDeviationBytes: Bytes) {
        self.sampleCount = sampleCount
        self.averageBytes = averageBytes
        self.standardDeviationBytes = standardDeviationBytes
    }

    /// Welford's running mean and sum of squared deviations of footprints at suspension.
    public struct Accumulator: Sendable, Hashable {
        public private(set) var count = 0
        public private(set) var mean = 0.0
        public private(set) var squaredDeviations = 0.0

        public init() {}

        public mutating func add(_ bytes: Bytes) {
            count += 1
            let delta = Double(bytes) - mean
            mean += delta / Double(count)
            squaredDeviations += delta * (Double(bytes) - mean)
        }

        public var summary: SuspendedMemory {
            let sd = count > 1 ? (max(squaredDeviations, 0) / Double(count - 1)).squareRoot() : 0
            return SuspendedMemory(sampleCount: count, averageBytes: Bytes(mean.rounded()),
                                   standardDeviationBytes: Bytes(sd.rounded()))
        }
    }
}

/// The whole run's figures (spec §10 `summary`).
public struct Summary: Sendable, Hashable, Codable {
    public var coldLaunches = 0
    public var backgroundLaunches = 0
    public var warmResumes = 0
    public var compressedResumes = 0
    public var compressions = 0
    public var evictions = 0
    /// Rises of the pressure level out of `normal` (warnings sent by the script are not rises).
    public var memoryWarnings = 0
    public var terminations: ExitCounts = zeroExitCounts()
    public var backgroundTasks = BackgroundTaskCounts()
    public var fetches = HandlerCounts()
    public var pushes = HandlerCounts()
    /// BGTaskScheduler app refresh tasks of all apps; absent when no app declares one.
    public var refreshTasks: ScheduledTaskCounts?
    /// BGTaskScheduler processing tasks of all apps; absent when no app declares one.
    public var processingTasks: ScheduledTaskCounts?
    public var peakUsedBytes: Bytes = 0
    public var peakCompressedBytes: Bytes = 0
    public var timeAtPressureUs = PressureTimes()
    /// Cold launches into the foreground of an app the system had killed: what eviction costs the user.
    public var coldRelaunchesAfterKill = 0
    /// macOS only (spec §3): memory paged out past RAM; absent on iOS.
    public var swap: SwapSummary?
    /// The in-RAM compressor (the `xnu` policy on a phone); absent otherwise.
    public var compressor: CompressorSummary?
    /// The `xnu` freezer's writes under its daily budget; absent where the policy has no budget.
    public var freezer: FreezerSummary?

    public init() {}
}

/// Change points of the memory series (spec §10 `timeline`): each pair is `[atUs, bytes]`, the
/// value holding from that time until the next pair.
public struct Timeline: Sendable, Hashable, Codable {
    public struct LevelChange: Sendable, Hashable, Codable {
        public var atUs: Microseconds
        public var level: PressureLevel

        public init(atUs: Microseconds, level: PressureLevel) {
            self.atUs = atUs
            self.level = level
        }
    }

    public var usedBytes: [[Int64]] = []
    /// Bytes frozen to flash (iOS; the compressed store).
    public var compressedBytes: [[Int64]] = []
    /// RAM the in-RAM compressor's pool takes (compressed bytes): only in a run that has one
    /// (the `xnu` policy on a phone), nil otherwise and then not written in report.json.
    public var compressorBytes: [[Int64]]?
    /// Resident bytes per app (0 while compressed or not running).
    public var appBytes: [String: [[Int64]]] = [:]
    public var levels: [LevelChange] = []

    public init() {}
}

/// The in-RAM compressor over a run (the `xnu` policy on a phone): its pool at its largest, and
/// the pages that went into it and came out decompressed, as jetsam reports count them
/// (`memoryStatus.compressorSize`, `uncompressed`, `compressions`, `decompressions`).
public struct CompressorSummary: Sendable, Hashable, Codable {
    /// The most RAM the pool took (compressed bytes), and what it then held uncompressed.
    public var peakBytes: Bytes = 0
    public var peakUncompressedBytes: Bytes = 0
    /// What the pool held at the end of the run, compressed and uncompressed.
    public var endBytes: Bytes = 0
    public var endUncompressedBytes: Bytes = 0
    /// Pages compressed into the pool (at suspensions) and decompressed (when a suspended app ran
    /// again, and as a thawed app read its pages back from flash); a frozen or killed app's pages
    /// leave the pool without decompression.
    public var compressions: Int64 = 0
    public var decompressions: Int64 = 0
    /// The ratio each app's memory compresses at (uncompressed ÷ compressed), in the workload's
    /// order: inputs, not outcomes, so a list (which comparisons and sweeps do not read as metrics).
    public var ratios: [AppRatio] = []

    /// An app's compression ratio.
    public struct AppRatio: Sendable, Hashable, Codable {
        public var app: String
        public var ratio: Double

        public init(app: String, ratio: Double) {
            self.app = app
            self.ratio = ratio
        }
    }

    public init() {}
}
