import Foundation
import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import MemprofWorkload
import Testing

/// The MetricKit export, checked against the field names Apple documents for
/// `MXBackgroundExitData`, `MXForegroundExitData` and `MXMemoryMetric`.
@Suite struct MetricKitExportTests {
    static let appleBackground = MetricKitNames.background
    static let appleForeground = MetricKitNames.foreground

    @Test(arguments: ["phone-day", "phone-day-xnu", "background-heavy"])
    func thePayloadsUseApplesNamesAndCountEveryExit(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        let json = MetricKitExport.json(report)
        let payloads = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(payloads.count == report.apps.count)
        var counted = 0
        for payload in payloads {
            #expect(Set(payload.keys) == MetricKitNames.payload)
            let meta = try #require(payload["metaData"] as? [String: Any])
            let app = try #require(meta["bundleIdentifier"] as? String)
            let exits = try #require(payload["applicationExitMetrics"] as? [String: [String: Int]])
            #expect(Set(exits.keys) == MetricKitNames.exitSections)
            #expect(Set(exits["backgroundExitData"]!.keys) == Self.appleBackground)
            #expect(Set(exits["foregroundExitData"]!.keys) == Self.appleForeground)
            counted += exits.values.flatMap(\.values).reduce(0, +)
            let appExits = report.apps[app]!.exits.values.reduce(0, +)
            #expect(exits.values.flatMap(\.values).reduce(0, +) == appExits, "\(app)")

            let memory = try #require(payload["memoryMetrics"] as? [String: Any])
            #expect(memory["peakMemoryUsage"] as? String == "\((report.apps[app]!.peakFootprintBytes + 500) / 1000) kB")
            let suspended = try #require(memory["averageSuspendedMemory"] as? [String: Any])
            #expect(Set(suspended.keys) == MetricKitNames.average)
            let suspensions = report.events.count { $0.kind == .transition && $0.app == app && $0.fields.to == .suspended }
            #expect(suspended["sampleCount"] as? Int == suspensions)

            // Cold launches and measured resumes, each one bucket spanning the times of the events.
            let launches = try #require(payload["applicationLaunchMetrics"] as? [String: [String: Any]])
            #expect(Set(launches.keys) == MetricKitNames.launch)
            let stats = report.apps[app]!
            for (key, count, times) in [
                ("histogrammedTimeToFirstDrawKey", stats.launches.cold, Self.launchTimes(report, app)),
                ("histogrammedResumeTime", stats.resumeLatencyUs.count, report.events.compactMap { e -> Int64? in
                    guard e.app == app, case .resume(_, let latency) = e.payload else { return nil }
                    return latency
                }),
            ] {
                let h = try #require(launches[key])
                #expect(Set(h.keys) == MetricKitNames.histogram)
                let buckets = try #require(h["histogramValue"] as? [String: [String: Any]])
                #expect(h["histogramNumBuckets"] as? Int == buckets.count)
                #expect(buckets.count == (count > 0 ? 1 : 0), "\(app) \(key)")
                guard let b = buckets["0"] else { continue }
                #expect(Set(b.keys) == MetricKitNames.bucket)
                #expect(b["bucketCount"] as? Int == count, "\(app) \(key)")
                let ms = times.map { Double($0) / 1000 }
                #expect(b["bucketStart"] as? String == "\(Int64(ms.min()!.rounded(.down))) ms", "\(app) \(key)")
                #expect(b["bucketEnd"] as? String == "\(Int64(ms.max()!.rounded(.up))) ms", "\(app) \(key)")
            }
        }
        #expect(counted == report.summary.terminations.values.reduce(0, +))
    }

    /// Each cold launch's time from its event to the app's `applicationDidFinishLaunching`.
    static func launchTimes(_ report: Report, _ app: String) -> [Int64] {
        var start: Int64?, times: [Int64] = []
        for e in report.events where e.app == app {
            if case .launch(let kind, _, _) = e.payload { start = kind == .cold ? e.atUs : nil }
            if case .callback(.applicationDidFinishLaunching, _) = e.payload, let s = start {
                times.append(e.atUs - s)
                start = nil
            }
        }
        return times
    }

    /// Every cold launch of a built-in workload takes its app's `launch.time`: the bucket of the
    /// time to first draw is that one time.
    @Test func theLaunchBucketIsTheAppsLaunchTime() throws {
        let report = try ReportFixture.builtin("phone-day")
        let workload = try WorkloadLoader.load("phone-day").workload
        var checked = 0
        for app in workload.apps where (report.apps[app.id]?.launches.cold ?? 0) > 0 {
            let times = Self.launchTimes(report, app.id)
            #expect(!times.isEmpty && times.allSatisfy { $0 == app.launchTimeUs }, "\(app.id): \(times)")
            let h = try #require(MetricKitExport.launches(report)[app.id]?.timeToFirstDraw)
            #expect(h.startUs == app.launchTimeUs && h.endUs == app.launchTimeUs && h.count == report.apps[app.id]!.launches.cold)
            checked += 1
        }
        #expect(checked > 0)
        #expect(MetricKitExport.milliseconds(1_000_001, roundingUp: true) == "1001 ms")
        #expect(MetricKitExport.milliseconds(1_000_999, roundingUp: false) == "1000 ms")
    }

    /// Exits map one to one onto a counter per side; the two without a MetricKit counter of their
    /// own (fetch and push timeouts) are watchdog exits, as iOS ends an overdue handler.
    @Test func exitReasonsMapOntoDocumentedCounters() {
        for reason in ExitReason.allCases {
            #expect(Self.appleBackground.contains(MetricKitExits.backgroundCounter(reason.rawValue)))
            #expect(Self.appleForeground.contains(MetricKitExits.foregroundCounter(reason.rawValue)))
        }
        #expect(MetricKitExits.backgroundCounter("memoryPressure") == "cumulativeMemoryPressureExitCount")
        #expect(MetricKitExits.backgroundCounter("memoryLimit") == "cumulativeMemoryResourceLimitExitCount")
        // An idle app killed by xnu-11417's idle split or its reaper is a memory-pressure exit.
        #expect(MetricKitExits.backgroundCounter("idleExit") == "cumulativeMemoryPressureExitCount")
        #expect(MetricKitExits.backgroundCounter("longIdleExit") == "cumulativeMemoryPressureExitCount")
        #expect(MetricKitExits.backgroundCounter("backgroundTaskTimeout") == "cumulativeBackgroundTaskAssertionTimeoutExitCount")
        #expect(MetricKitExits.backgroundCounter("badAccess") == "cumulativeBadAccessExitCount")
        #expect(MetricKitExits.backgroundCounter("watchdog") == "cumulativeAppWatchdogExitCount")
        #expect(MetricKitExits.backgroundCounter("userQuit") == "cumulativeNormalAppExitCount")
    }

    /// The memory kills the sweep and compare count (`ExitReason.memoryKills`) are the exits
    /// MetricKit counts as memory exits, on either side, and no other reason is.
    @Test func theMemoryKillsAreMetricKitsMemoryExits() {
        let memory: Set = ["cumulativeMemoryPressureExitCount", "cumulativeMemoryResourceLimitExitCount"]
        #expect(ExitReason.memoryKills == [.memoryPressure, .memoryLimit, .highwater, .idleExit, .longIdleExit, .compressorSpaceShortage])
        for reason in ExitReason.allCases {
            #expect(memory.contains(MetricKitExits.backgroundCounter(reason.rawValue)) == reason.isMemoryKill, "\(reason)")
            #expect((MetricKitExits.foregroundCounter(reason.rawValue) == "cumulativeMemoryResourceLimitExitCount") == reason.isMemoryKill,
                    "\(reason)")
        }
        #expect(MetricKitExits.backgroundCounter("highwater") == "cumulativeMemoryPressureExitCount")
        #expect(ExitReason.memoryKills(in: ["idleExit": 2, "longIdleExit": 1, "memoryLimit": 1, "userQuit": 5, "watchdog": 1]) == 4)
    }

    @Test func averageSuspendedMemoryIsTheMeanAndSampleDeviation() {
        var accumulator = SuspendedMemory.Accumulator()
        for kb: Int64 in [10, 20, 30] { accumulator.add(kb * 1024) }
        let m = accumulator.summary
        #expect(m.sampleCount == 3)
        #expect(m.averageBytes == 20 * 1024)
        #expect(m.standardDeviationBytes == 10 * 1024)
        #expect(MetricKitExport.kilobytes(Double(m.averageBytes)) == "20 kB")
    }

    /// report.json's apps carry what the payloads say: exits per side and the footprints at
    /// suspension, the same figures the export reads from the event log of older reports.
    @Test(arguments: ["phone-day", "phone-day-xnu"])
    func reportAppsAgreeWithTheEventLog(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        var old = report
        for id in old.apps.keys {
            old.apps[id]!.foregroundExits = nil
            old.apps[id]!.suspendedMemory = nil
        }
        let fromStats = MetricKitExport.metrics(report), fromEvents = MetricKitExport.metrics(old)
        #expect(fromStats.map(\.background) == fromEvents.map(\.background))
        #expect(fromStats.map(\.foreground) == fromEvents.map(\.foreground))
        #expect(fromStats.map(\.suspended.sampleCount) == fromEvents.map(\.suspended.sampleCount))
        #expect(fromStats.contains { $0.suspended.sampleCount > 0 })
    }
}

/// The two new exits reach their MetricKit counters from a workload that declares them.
@Suite struct MetricKitNewExitsTests {
    @Test func lockedFileAndCPUExitsAreCountedWhereMetricKitCountsThem() throws {
        let yaml = """
            memprof: 1
            name: field-exits
            duration: 10m
            apps:
              db:
                launch: {footprint: 30MB}
                backgroundTask: {time: 10s, locksFile: true}
              miner:
                launch: {footprint: 30MB}
                backgroundTask: {time: 5m, cpu: 95%}
              other:
                launch: {footprint: 30MB}
            script:
              - {at: 0s, open: db}
              - {at: 5s, open: miner}
              - {at: 10s, open: other}
            """
        let workload = try WorkloadParser(file: "f.yaml").parse(yaml)
        var simulator = Simulator(workload: workload)
        let report = Report(result: simulator.run(), workloadSha256: "0", source: "f.yaml", host: ReportFixture.fixedHost)
        let metrics = Dictionary(uniqueKeysWithValues: MetricKitExport.metrics(report).map { ($0.app, $0) })
        #expect(metrics["db"]?.background["cumulativeSuspendedWithLockedFileExitCount"] == 1)
        #expect(metrics["miner"]?.background["cumulativeCPUResourceLimitExitCount"] == 1)
        #expect(report.summary.terminations["suspendedWithLockedFile"] == 1)
        #expect(report.summary.terminations["cpuResourceLimit"] == 1)
    }
}
