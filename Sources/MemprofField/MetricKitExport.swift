import MemprofCore
import MemprofReport

/// memprof's exit reasons in MetricKit's words: the `MXBackgroundExitData` and
/// `MXForegroundExitData` counter each one adds to (Apple's MetricKit documentation).
public enum MetricKitExits {
    /// `MXBackgroundExitData`'s counters, in Apple's order.
    public static let backgroundCounters = [
        "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeAppWatchdogExitCount",
        "cumulativeCPUResourceLimitExitCount", "cumulativeMemoryResourceLimitExitCount",
        "cumulativeMemoryPressureExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
        "cumulativeBackgroundTaskAssertionTimeoutExitCount", "cumulativeSuspendedWithLockedFileExitCount",
    ]
    /// `MXForegroundExitData`'s counters, in Apple's order.
    public static let foregroundCounters = [
        "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeAppWatchdogExitCount",
        "cumulativeMemoryResourceLimitExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
    ]

    /// The counter an exit from the background adds to (reason by its report.json name).
    public static func backgroundCounter(_ reason: String) -> String {
        switch reason {
        // jetsam's kills of an idle app (xnu-11417's idle-exit and long-idle-exit) free memory
        // as a page-shortage kill does: MetricKit counts "the system ended the app due to memory
        // pressure" (MXBackgroundExitData.cumulativeMemoryPressureExitCount).
        case _ where ExitReason(rawValue: reason)?.isMemoryPressureKill == true: "cumulativeMemoryPressureExitCount"
        case _ where ExitReason(rawValue: reason)?.isMemoryKill == true: "cumulativeMemoryResourceLimitExitCount"
        case "userQuit": "cumulativeNormalAppExitCount"
        case "backgroundTaskTimeout": "cumulativeBackgroundTaskAssertionTimeoutExitCount"
        case "fetchTimeout", "pushTimeout", "watchdog": "cumulativeAppWatchdogExitCount"
        case "badAccess": "cumulativeBadAccessExitCount"
        case "suspendedWithLockedFile": "cumulativeSuspendedWithLockedFileExitCount"
        case "cpuResourceLimit": "cumulativeCPUResourceLimitExitCount"
        default: "cumulativeAbnormalExitCount"
        }
    }

    /// The counter an exit from the foreground adds to. `MXForegroundExitData` has no memory
    /// pressure counter: a foreground page-shortage kill is a memory resource limit exit there.
    public static func foregroundCounter(_ reason: String) -> String {
        switch reason {
        case _ where ExitReason(rawValue: reason)?.isMemoryKill == true: "cumulativeMemoryResourceLimitExitCount"
        case "userQuit": "cumulativeNormalAppExitCount"
        case "fetchTimeout", "pushTimeout", "watchdog": "cumulativeAppWatchdogExitCount"
        case "badAccess": "cumulativeBadAccessExitCount"
        default: "cumulativeAbnormalExitCount"
        }
    }
}

/// `memprof export REPORT --format metrickit`: one `MXMetricPayload`-shaped JSON object per app
/// (its `applicationExitMetrics`, `memoryMetrics`, `applicationTimeMetrics` and
/// `applicationLaunchMetrics`, as `jsonRepresentation()` writes them), in an array, as
/// `didReceive(_:)` hands them to an app's subscriber. A fleet sweep's cells are written the same
/// way, one array per cell (`FleetMetricKit` in MemprofFleet).
///
/// `applicationLaunchMetrics` counts the app's cold launches into the foreground
/// (`launches.cold`) in `histogrammedTimeToFirstDrawKey` and its resumes whose latency memprof
/// measured (`resumeLatencyUs.count`) in `histogrammedResumeTime`; a launch into the background
/// for a wake draws nothing and is in neither. memprof keeps no per-sample distribution to bin, so
/// each histogram is one bucket spanning the times it measured (``Histogram``); a day without
/// launches or resumes writes its histogram with no buckets, so that the field counts it as 0.
public enum MetricKitExport {
    /// Per app: exits by MetricKit counter, and the memory figures.
    public struct AppMetrics: Sendable, Equatable {
        public var app: String
        public var background: [String: Int]
        public var foreground: [String: Int]
        public var peakMemoryBytes: Bytes
        /// The footprint each time the app was suspended: how many, mean, standard deviation.
        public var suspended: SuspendedMemory
        /// Time on screen (active and inactive) and running in the background, when known:
        /// `applicationTimeMetrics`.
        public var foregroundUs: Microseconds?
        public var backgroundUs: Microseconds?
        /// `applicationLaunchMetrics`, when the times are known.
        public var launches: Launches?

        public init(app: String, background: [String: Int] = [:], foreground: [String: Int] = [:],
                    peakMemoryBytes: Bytes = 0, suspended: SuspendedMemory = SuspendedMemory(sampleCount: 0, averageBytes: 0, standardDeviationBytes: 0),
                    foregroundUs: Microseconds? = nil, backgroundUs: Microseconds? = nil, launches: Launches? = nil) {
            self.app = app
            self.background = Dictionary(uniqueKeysWithValues: MetricKitExits.backgroundCounters.map { ($0, background[$0] ?? 0) })
            self.foreground = Dictionary(uniqueKeysWithValues: MetricKitExits.foregroundCounters.map { ($0, foreground[$0] ?? 0) })
            self.peakMemoryBytes = peakMemoryBytes
            self.suspended = suspended
            self.foregroundUs = foregroundUs
            self.backgroundUs = backgroundUs
            self.launches = launches
        }

        /// The times of `timeInStateUs` (by AppState name): foreground is active and inactive,
        /// background is running in the background (suspended time is neither, as in MetricKit).
        public mutating func setTimes(_ timeInStateUs: (String) -> Microseconds) {
            foregroundUs = timeInStateUs(AppState.active.rawValue) &+ timeInStateUs(AppState.inactive.rawValue)
            backgroundUs = timeInStateUs(AppState.background.rawValue)
        }

        /// Adds `count` exits for `reason` (report.json's name) on the side the app ended on.
        public mutating func addExits(_ reason: String, foreground: Bool, count: Int) {
            guard count != 0 else { return }
            if foreground {
                self.foreground[MetricKitExits.foregroundCounter(reason), default: 0] += count
            } else {
                self.background[MetricKitExits.backgroundCounter(reason), default: 0] += count
            }
        }
    }

    /// An `MXHistogram` of durations as memprof writes one: `count` samples in a single bucket from
    /// `startUs` to `endUs`, the shortest and the longest time measured (a bound where the
    /// shortest is not kept: see the callers). No bucket when `count` is 0.
    public struct Histogram: Sendable, Equatable {
        public var count: Int
        public var startUs: Microseconds
        public var endUs: Microseconds

        public init(count: Int, startUs: Microseconds, endUs: Microseconds) {
            self.count = max(count, 0)
            self.startUs = max(startUs, 0)
            self.endUs = max(endUs, self.startUs)
        }
    }

    /// `MXAppLaunchMetric`: the cold launches' times to their first frame and the resumes' times.
    public struct Launches: Sendable, Equatable {
        public var timeToFirstDraw: Histogram
        public var resumes: Histogram

        public init(timeToFirstDraw: Histogram, resumes: Histogram) {
            self.timeToFirstDraw = timeToFirstDraw
            self.resumes = resumes
        }
    }

    /// What a payload says about where it comes from: its span and its `metaData`.
    public struct Context: Sendable, Equatable {
        public var durationUs: Int64
        /// `metaData.appBuildVersion`: the workload (and for a fleet cell, the cell).
        public var build: String
        public var identity: FieldIdentity

        public init(durationUs: Int64, build: String, identity: FieldIdentity) {
            self.durationUs = durationUs
            self.build = build
            self.identity = identity
        }
    }

    /// The apps' metrics of one run: exits per side from `apps.<id>.exits` and `foregroundExits`,
    /// the peak footprint, and the footprints at suspension (`suspendedMemory`). Reports of older
    /// versions, without the last two, are read from `events` and `timeline.appBytes`.
    public static func metrics(_ report: Report) -> [AppMetrics] {
        let launches = launches(report)
        return report.apps.keys.sorted().map { id in
            let stats = report.apps[id]!
            var m = AppMetrics(app: id, peakMemoryBytes: stats.peakFootprintBytes)
            m.setTimes { stats.timeInStateUs[$0] ?? 0 }
            m.launches = launches[id]
            if let foregroundExits = stats.foregroundExits, let suspended = stats.suspendedMemory {
                for (reason, count) in stats.exits {
                    let inForeground = min(max(foregroundExits[reason] ?? 0, 0), count)
                    m.addExits(reason, foreground: true, count: inForeground)
                    m.addExits(reason, foreground: false, count: count - inForeground)
                }
                m.suspended = suspended
                return m
            }
            var accumulator = SuspendedMemory.Accumulator()
            for e in report.events where e.app == id {
                switch e.payload {
                case .exit(let reason, let from):
                    m.addExits(reason.rawValue, foreground: from.isForeground, count: 1)
                case .transition(_, to: .suspended, _):
                    accumulator.add(JetsamExport.lastValue(report.timeline.appBytes[id] ?? [], upTo: e.atUs))
                default:
                    continue
                }
            }
            m.suspended = accumulator.summary
            return m
        }
    }

    /// Each app's launch metrics in a report, from one pass over its events: `launches.cold`
    /// cold launches, each taking the time from its `launch` event to its
    /// `applicationDidFinishLaunching` (the app's `launch.time`: memprof draws no frame, so the
    /// launch's end stands for the first one), and `resumeLatencyUs.count` resumes from the smallest
    /// latency of its `resume` events to `resumeLatencyUs.max`. No entry for an app when a count
    /// has no time measured in the events (every cold launch ended before it finished): the times
    /// would be invented.
    static func launches(_ report: Report) -> [String: Launches] {
        struct Seen {
            var launchStart: Microseconds?, shortestLaunch: Microseconds?, longestLaunch: Microseconds = 0
            var shortestResume: Microseconds?
        }
        var seen: [String: Seen] = [:]
        for e in report.events {
            guard let app = e.app, report.apps[app] != nil else { continue }
            switch e.payload {
            case .launch(let kind, _, _):
                seen[app, default: Seen()].launchStart = kind == .cold ? e.atUs : nil
            case .callback(.applicationDidFinishLaunching, _):
                if let start = seen[app]?.launchStart {
                    // A report read back is range-checked; wrapping keeps a hostile one from trapping.
                    let time = max(e.atUs &- start, 0)
                    seen[app]!.shortestLaunch = min(seen[app]!.shortestLaunch ?? .max, time)
                    seen[app]!.longestLaunch = max(seen[app]!.longestLaunch, time)
                }
                seen[app]?.launchStart = nil
            case .exit:
                seen[app]?.launchStart = nil
            case .resume(_, let latency):
                seen[app, default: Seen()].shortestResume = min(seen[app]?.shortestResume ?? .max, latency)
            default:
                continue
            }
        }
        var out: [String: Launches] = [:]
        for (app, stats) in report.apps {
            let s = seen[app] ?? Seen(), cold = stats.launches.cold, resumes = stats.resumeLatencyUs
            guard cold == 0 || s.shortestLaunch != nil, resumes.count == 0 || s.shortestResume != nil else { continue }
            out[app] = Launches(timeToFirstDraw: Histogram(count: cold, startUs: s.shortestLaunch ?? 0, endUs: s.longestLaunch),
                                resumes: Histogram(count: resumes.count, startUs: s.shortestResume ?? 0, endUs: resumes.max))
        }
        return out
    }

    public static func json(_ report: Report) -> String {
        json(metrics(report), context: Context(durationUs: report.run.durationUs, build: report.run.workload,
                                               identity: FieldIdentity.of(report.device)))
    }

    /// The payloads of `metrics`, one per app, in an array.
    public static func json(_ metrics: [AppMetrics], context: Context) -> String {
        json(days: [(metrics, context)])
    }

    /// The payloads of several days (runs), each day's apps in turn, in one array.
    public static func json(days: [(metrics: [AppMetrics], context: Context)]) -> String {
        var out = "["
        var first = true
        for (metrics, context) in days {
            let begin = JetsamExport.dateStamp(0)
            let end = JetsamExport.dateStamp(context.durationUs)
            for m in metrics {
                out += (first ? "\n  " : ",\n  ") + payload(m, context: context, begin: begin, end: end)
                first = false
            }
        }
        return out + "\n]\n"
    }

    /// One payload, as `jsonRepresentation()` lays it out.
    static func payload(_ m: AppMetrics, context: Context, begin: String, end: String) -> String {
        var layout = JSONLayout()
        layout.object(indent: 2) { p in
            p.string("appVersion", "memprof \(MemprofVersion.current)")
            p.string("timeStampBegin", begin)
            p.string("timeStampEnd", end)
            p.object("metaData") { d in
                d.string("appBuildVersion", context.build)
                d.string("bundleIdentifier", m.app)
                d.string("deviceType", context.identity.product)
                d.string("osVersion", context.identity.osVersion)
                d.string("platformArchitecture", "arm64")
                d.string("regionFormat", "US")
            }
            p.object("applicationExitMetrics") { a in
                a.object("backgroundExitData") { b in
                    for k in MetricKitExits.backgroundCounters { b.int(k, m.background[k] ?? 0) }
                }
                a.object("foregroundExitData") { f in
                    for k in MetricKitExits.foregroundCounters { f.int(k, m.foreground[k] ?? 0) }
                }
            }
            p.object("memoryMetrics") { mm in
                mm.string("peakMemoryUsage", kilobytes(Double(m.peakMemoryBytes)))
                mm.object("averageSuspendedMemory") { s in
                    s.string("averageValue", kilobytes(Double(m.suspended.averageBytes)))
                    s.double("standardDeviation", (Double(m.suspended.standardDeviationBytes) / 1000).rounded())
                    s.int("sampleCount", m.suspended.sampleCount)
                }
            }
            if let foreground = m.foregroundUs, let background = m.backgroundUs {
                p.object("applicationTimeMetrics") { t in
                    t.string("cumulativeForegroundTime", seconds(foreground))
                    t.string("cumulativeBackgroundTime", seconds(background))
                }
            }
            if let launches = m.launches {
                p.object("applicationLaunchMetrics") { l in
                    for (key, h) in [("histogrammedTimeToFirstDrawKey", launches.timeToFirstDraw),
                                     ("histogrammedResumeTime", launches.resumes)] {
                        l.object(key) { o in
                            o.int("histogramNumBuckets", h.count > 0 ? 1 : 0)
                            o.object("histogramValue") { buckets in
                                guard h.count > 0 else { return }
                                buckets.object("0") { b in
                                    b.int("bucketCount", h.count)
                                    b.string("bucketStart", milliseconds(h.startUs, roundingUp: false))
                                    b.string("bucketEnd", milliseconds(h.endUs, roundingUp: true))
                                }
                            }
                        }
                    }
                }
            }
        }
        return layout.text
    }

    /// The mean and sample standard deviation of every sample of several groups, from each
    /// group's count, mean and sample standard deviation:
    /// sd² = (Σ (nᵢ − 1) sᵢ² + Σ nᵢ (mᵢ − m)²) ÷ (N − 1), with m = Σ nᵢ mᵢ ÷ N.
    ///
    /// The count is summed in 128 bits and given as at most `Int.max`; the mean and deviation
    /// are taken in floating point, so no group can make them overflow.
    public static func pooled(_ groups: [SuspendedMemory]) -> SuspendedMemory {
        let total = groups.reduce(Int128(0)) { $0 + Int128(max($1.sampleCount, 0)) }
        guard total > 0 else { return SuspendedMemory(sampleCount: 0, averageBytes: 0, standardDeviationBytes: 0) }
        let n = Double(total)
        let mean = groups.reduce(0.0) { $0 + Double(max($1.sampleCount, 0)) * Double($1.averageBytes) } / n
        let squares = groups.reduce(0.0) { sum, g in
            let count = Double(max(g.sampleCount, 0))
            guard count > 0 else { return sum }
            let sd = Double(g.standardDeviationBytes), offset = Double(g.averageBytes) - mean
            return sum + (count - 1) * sd * sd + count * offset * offset
        }
        let sd = total > 1 ? (squares / (n - 1)).squareRoot() : 0
        return SuspendedMemory(sampleCount: Int(clamping: total), averageBytes: clamped(mean), standardDeviationBytes: clamped(sd))
    }

    /// The sample standard deviation of groups pooled, from each group's count, mean and sample
    /// deviation, by the formula of ``pooled(_:)``.
    public static func pooledDeviation(_ groups: [(count: Int, mean: Double, deviation: Double)]) -> Double {
        let n = Double(groups.reduce(0) { $0 + max($1.count, 0) })
        guard n > 1 else { return 0 }
        let mean = groups.reduce(0.0) { $0 + Double(max($1.count, 0)) * $1.mean } / n
        let squares = groups.reduce(0.0) { sum, g in
            let count = Double(max(g.count, 0))
            guard count > 0 else { return sum }
            return sum + (count - 1) * g.deviation * g.deviation + count * (g.mean - mean) * (g.mean - mean)
        }
        return (squares / (n - 1)).squareRoot()
    }

    /// `value` rounded to a whole number, within Int64 (NaN gives 0).
    static func clamped(_ value: Double) -> Int64 {
        guard value.isFinite else { return value.isNaN ? 0 : (value < 0 ? .min : .max) }
        let rounded = value.rounded()
        return rounded >= 9.223372036854775807e18 ? .max : rounded <= -9.223372036854775808e18 ? .min : Int64(rounded)
    }

    /// A size as `jsonRepresentation()` writes one: `"184320 kB"`, in Foundation's kilobytes
    /// (`UnitInformationStorage.kilobytes`, 1000 bytes: swift-corelibs-foundation
    /// Sources/Foundation/Unit.swift).
    static func kilobytes(_ bytes: Double) -> String {
        "\(Int64((bytes / 1000).rounded())) kB"
    }

    /// A histogram bound as `jsonRepresentation()` writes one: `"1010 ms"`, whole milliseconds
    /// rounded outwards (a start down, an end up), so that the bucket holds every time it counts.
    static func milliseconds(_ us: Microseconds, roundingUp: Bool) -> String {
        let ms = us / 1000, rest = us % 1000
        return "\(roundingUp && rest > 0 ? ms + 1 : ms) ms"
    }

    /// A duration as `jsonRepresentation()` writes one: `"700 sec"`.
    static func seconds(_ us: Microseconds) -> String {
        "\(Int64((Double(us) / 1e6).rounded())) sec"
    }
}
