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
        case "userQuit": "cumulativeNormalAppExitCount"
        case "memoryPressure": "cumulativeMemoryPressureExitCount"
        case "memoryLimit": "cumulativeMemoryResourceLimitExitCount"
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
        case "userQuit": "cumulativeNormalAppExitCount"
        case "memoryPressure", "memoryLimit": "cumulativeMemoryResourceLimitExitCount"
        case "fetchTimeout", "pushTimeout", "watchdog": "cumulativeAppWatchdogExitCount"
        case "badAccess": "cumulativeBadAccessExitCount"
        default: "cumulativeAbnormalExitCount"
        }
    }
}

/// `memprof export REPORT --format metrickit`: one `MXMetricPayload`-shaped JSON object per app
/// (its `applicationExitMetrics` and `memoryMetrics`, as `jsonRepresentation()` writes them), in
/// an array, as `didReceive(_:)` hands them to an app's subscriber.
public enum MetricKitExport {
    /// Per app: exits by MetricKit counter, and the memory figures.
    public struct AppMetrics: Sendable, Equatable {
        public var app: String
        public var background: [String: Int]
        public var foreground: [String: Int]
        public var peakMemoryBytes: Bytes
        /// The footprint each time the app was suspended.
        public var suspendedSamples: [Bytes]

        public var averageSuspendedBytes: Double {
            suspendedSamples.isEmpty ? 0 : Double(suspendedSamples.reduce(0, +)) / Double(suspendedSamples.count)
        }

        public var suspendedStandardDeviation: Double {
            guard suspendedSamples.count > 1 else { return 0 }
            let mean = averageSuspendedBytes
            let squares = suspendedSamples.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) }
            return (squares / Double(suspendedSamples.count - 1)).squareRoot()
        }
    }

    public static func metrics(_ report: Report) -> [AppMetrics] {
        var byApp: [String: AppMetrics] = [:]
        for id in report.apps.keys {
            byApp[id] = AppMetrics(
                app: id, background: Dictionary(uniqueKeysWithValues: MetricKitExits.backgroundCounters.map { ($0, 0) }),
                foreground: Dictionary(uniqueKeysWithValues: MetricKitExits.foregroundCounters.map { ($0, 0) }),
                peakMemoryBytes: report.apps[id]!.peakFootprintBytes, suspendedSamples: [])
        }
        for e in report.events {
            guard let app = e.app, byApp[app] != nil else { continue }
            switch e.payload {
            case .exit(let reason, let from):
                if from.isForeground {
                    byApp[app]!.foreground[MetricKitExits.foregroundCounter(reason.rawValue), default: 0] += 1
                } else {
                    byApp[app]!.background[MetricKitExits.backgroundCounter(reason.rawValue), default: 0] += 1
                }
            case .transition(_, to: .suspended):
                let bytes = JetsamExport.lastValue(report.timeline.appBytes[app] ?? [], upTo: e.atUs)
                byApp[app]!.suspendedSamples.append(bytes)
            default:
                continue
            }
        }
        return report.apps.keys.sorted().map { byApp[$0]! }
    }

    public static func json(_ report: Report) -> String {
        let identity = FieldIdentity.of(report.device)
        let begin = JetsamExport.dateStamp(0)
        let end = JetsamExport.dateStamp(report.run.durationUs)
        var out = "["
        for (i, m) in metrics(report).enumerated() {
            var layout = JSONLayout()
            layout.object(indent: 2) { p in
                p.string("appVersion", "memprof \(MemprofVersion.current)")
                p.string("timeStampBegin", begin)
                p.string("timeStampEnd", end)
                p.object("metaData") { d in
                    d.string("appBuildVersion", report.run.workload)
                    d.string("bundleIdentifier", m.app)
                    d.string("deviceType", identity.product)
                    d.string("osVersion", identity.osVersion)
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
                        s.string("averageValue", kilobytes(m.averageSuspendedBytes))
                        s.double("standardDeviation", (m.suspendedStandardDeviation / 1024).rounded())
                        s.int("sampleCount", m.suspendedSamples.count)
                    }
                }
            }
            out += (i == 0 ? "\n  " : ",\n  ") + layout.text
        }
        return out + "\n]\n"
    }

    /// A measurement as `jsonRepresentation()` writes one: `"184320 kB"`.
    static func kilobytes(_ bytes: Double) -> String {
        "\(Int64((bytes / 1024).rounded())) kB"
    }
}
