/// The field names Apple documents for MetricKit payloads, typed from its documentation
/// (developer.apple.com/documentation/metrickit/mxbackgroundexitdata, …/mxforegroundexitdata,
/// …/mxmemorymetric, …/mxmetricpayload), for tests of memprof's MetricKit exports to check against
/// rather than against memprof's own lists.
public enum MetricKitNames {
    /// Every counter of `MXBackgroundExitData`.
    public static let background: Set<String> = [
        "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeAppWatchdogExitCount",
        "cumulativeCPUResourceLimitExitCount", "cumulativeMemoryResourceLimitExitCount", "cumulativeMemoryPressureExitCount",
        "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
        "cumulativeBackgroundTaskAssertionTimeoutExitCount", "cumulativeSuspendedWithLockedFileExitCount",
    ]
    /// Every counter of `MXForegroundExitData`.
    public static let foreground: Set<String> = [
        "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeAppWatchdogExitCount",
        "cumulativeMemoryResourceLimitExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
    ]
    /// The keys of a payload as `jsonRepresentation()` writes the sections memprof fills.
    public static let payload: Set<String> = ["appVersion", "timeStampBegin", "timeStampEnd", "metaData",
                                              "applicationExitMetrics", "memoryMetrics", "applicationTimeMetrics",
                                              "applicationLaunchMetrics"]
    /// `MXAppLaunchMetric`'s histograms memprof writes, under the keys `jsonRepresentation()` gives
    /// them (the published payload of Xcode's Simulate MetricKit Payloads, NSHipster/articles
    /// 2019-10-21-metrickit.md, in MemprofFieldTests' fixtures): launches to a first frame and resumes.
    public static let launch: Set<String> = ["histogrammedTimeToFirstDrawKey", "histogrammedResumeTime"]
    /// An `MXHistogram` as `jsonRepresentation()` writes one, and each of its buckets.
    public static let histogram: Set<String> = ["histogramNumBuckets", "histogramValue"]
    public static let bucket: Set<String> = ["bucketCount", "bucketStart", "bucketEnd"]
    /// `MXAppRunTimeMetric`'s keys memprof writes: time on screen and running in the background.
    public static let time: Set<String> = ["cumulativeForegroundTime", "cumulativeBackgroundTime"]
    public static let exitSections: Set<String> = ["backgroundExitData", "foregroundExitData"]
    /// `MXMemoryMetric`'s `averageSuspendedMemory`, an `MXAverage`.
    public static let average: Set<String> = ["averageValue", "standardDeviation", "sampleCount"]
}
