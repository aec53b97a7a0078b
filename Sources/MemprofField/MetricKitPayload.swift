import MemprofInput

/// One `MXMetricPayload` as `jsonRepresentation()` writes it, reduced to what memprof reads: who
/// wrote it (`metaData`), and every key of `applicationExitMetrics`, `memoryMetrics`,
/// `applicationTimeMetrics` and `applicationLaunchMetrics`. A payload covers one device for about
/// a day: it is one device-day of the field.
///
/// A section or counter the payload leaves out is nil or absent here, not zero: iOS omits zero
/// counters (an exit counter never hit is not written), so a missing exit counter counts as 0
/// exits, while a missing section means the payload says nothing about it.
public struct MetricKitPayload: Sendable, Equatable {
    /// Where the payload starts: its file, line and column.
    public var file: String
    public var line: Int
    public var column: Int

    /// `metaData.deviceType` (`iPhone9,2`) and `metaData.osVersion` (`iPhone OS 14.0.1 (18A393)`).
    public var deviceType: String
    public var osVersion: String
    /// `metaData.bundleIdentifier`, when written (iOS 14 and later write it).
    public var bundleIdentifier: String?
    public var appBuildVersion: String?
    public var timeStampBegin: String?
    public var timeStampEnd: String?

    /// `applicationExitMetrics`, when the payload has the section: counters by name, each side.
    public var exits: Exits?
    /// `memoryMetrics.peakMemoryUsage`, in bytes.
    public var peakMemoryBytes: Double?
    /// `memoryMetrics.averageSuspendedMemory`: the footprint at each suspension.
    public var suspendedMemory: Average?
    /// `applicationTimeMetrics`: seconds in each state.
    public var time: Times?
    /// `applicationLaunchMetrics`: how many launches and resumes each histogram counts.
    public var launches: Launches?

    public struct Exits: Sendable, Equatable {
        /// `backgroundExitData` and `foregroundExitData`: counter name to count; a counter the
        /// payload leaves out is absent (0 exits).
        public var background: [String: Int] = [:]
        public var foreground: [String: Int] = [:]
        public init() {}
    }

    /// An `MXAverage` of sizes: the mean and standard deviation in bytes, and the sample count.
    public struct Average: Sendable, Equatable {
        public var sampleCount: Int
        public var meanBytes: Double
        /// nil when the payload gives none (iOS writes -1 for an average of no samples).
        public var standardDeviationBytes: Double?
    }

    /// `MXAppRunTimeMetric`: each key the payload has, in seconds.
    public struct Times: Sendable, Equatable {
        public var foregroundSeconds: Double?
        public var backgroundSeconds: Double?
        public var backgroundAudioSeconds: Double?
        public var backgroundLocationSeconds: Double?
    }

    /// `MXAppLaunchMetric`: the number of samples (Σ `bucketCount`) of each histogram the payload has.
    public struct Launches: Sendable, Equatable {
        /// `histogrammedTimeToFirstDrawKey`: launches to a first frame.
        public var timeToFirstDraw: Int?
        /// `histogrammedOptimizedTimeToFirstDrawKey`: prewarmed launches (iOS 15.2 and later).
        public var optimizedTimeToFirstDraw: Int?
        /// `histogrammedResumeTime`: resumes from the background.
        public var resumes: Int?
        /// `histogrammedExtendedLaunch`: launches measured to the end of an extended launch (iOS 16).
        public var extendedLaunch: Int?
    }
}

/// The names MetricKit's payloads use: the sections, counters and units memprof reads.
public enum MetricKitSchema {
    /// The exit counters Apple documents for `MXBackgroundExitData` and `MXForegroundExitData`
    /// (``MetricKitExits``), and those Xcode's simulated payloads also write.
    public static let backgroundCounters = MetricKitExits.backgroundCounters
    public static let foregroundCounters = MetricKitExits.foregroundCounters

    /// Memory-pressure exits in the background (what iOS calls a system-pressure termination).
    public static let memoryPressure = "cumulativeMemoryPressureExitCount"

    /// A count of exits: `cumulative…ExitCount`. Counters MetricKit adds later are read under
    /// their own names.
    static func isExitCounter(_ key: String) -> Bool {
        key.hasPrefix("cumulative") && key.hasSuffix("ExitCount") && key.count <= 96
    }

    /// Bytes per unit of `MXMemoryMetric` sizes (`NSUnitInformationStorage`): Foundation's decimal
    /// units (`kB` is 1000 bytes, swift-corelibs-foundation Sources/Foundation/Unit.swift,
    /// `UnitInformationStorage.kilobytes`), and the binary ones by their own symbols.
    static let sizeUnits: [String: Double] = [
        "B": 1, "bytes": 1, "byte": 1,
        "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
        "KiB": 1024, "MiB": 1_048_576, "GiB": 1_073_741_824,
    ]

    /// Seconds per unit of `NSUnitDuration` as payloads write them (`sec`, `ms`, and the
    /// symbols of Foundation's other duration units).
    static let durationUnits: [String: Double] = [
        "ns": 1e-9, "µs": 1e-6, "μs": 1e-6, "us": 1e-6, "ms": 1e-3,
        "s": 1, "sec": 1, "min": 60, "hr": 3600, "h": 3600,
    ]
}
