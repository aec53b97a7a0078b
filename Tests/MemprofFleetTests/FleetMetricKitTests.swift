import Foundation
import MemprofField
import MemprofFleet
import MemprofTestSupport
import Testing

/// `memprof export FLEET --format metrickit`: per cell, one payload per run and app, checked
/// against Apple's field names, against numbers worked out by hand, and read back as the field.
@Suite struct FleetMetricKitTests {
    /// Every run is the same day (no `generate`), so a cell's three payloads of an app are the same.
    ///
    /// By hand, per run: `a` launches with 40 MB and releases 10 MB on leaving the foreground (it
    /// gets them back when it returns): suspended at 1m with 30 MB; back at 2m (40 MB), +20 MB at
    /// 2m15s (peak 60 MB), suspended at 2m30s with 50 MB; back at 2m45s (60 MB). At 3m it asks for
    /// 700 MB more: 760 MB passes the iPhone 6 Plus's 645 MB limit (a memoryLimit kill in the
    /// foreground) but not the iPad Air 2's 1383 MB, where it peaks at 760 MB and is suspended a
    /// third time at 4m, with 750 MB. `b` (30 MB) is suspended at 2m and 2m45s and quit at 5m: a
    /// quit takes the app out of the foreground first (spec §2.1), so it counts as a background
    /// normal exit.
    static let workload = """
        memprof: 1
        name: mk
        duration: 10m
        device: iphone-6-plus
        apps:
          a:
            launch: {footprint: 40MB}
            onBackground: {release: 10MB}
          b:
            launch: {footprint: 30MB}
        script:
          - {at: 0s, open: a}
          - {at: 1m, open: b}
          - {at: 2m, open: a}
          - {at: 2m15s, allocate: a, size: 20MB}
          - {at: 2m30s, open: b}
          - {at: 2m45s, open: a}
          - {at: 3m, allocate: a, size: 700MB}
          - {at: 4m, open: b}
          - {at: 5m, quit: b}
        """
    static let sweep = """
        memprof: 1
        sweep: mk-fleet
        workload: mk.yaml
        seeds: 1..3
        matrix:
          device: [iphone-6-plus, ipad-air-2]
        """

    static let megabyte = 1024.0 * 1024

    /// A size in the payload's kB (Foundation's: 1000 bytes), rounded as the payload writes it.
    static func kB(_ bytes: Double) -> String { "\(Int64((bytes / 1000).rounded())) kB" }

    /// The sample standard deviation of `values`, in kB, rounded as the payload writes it.
    static func deviationKB(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (variance.squareRoot() / 1000).rounded()
    }

    @Test func eachCellHoldsOnePayloadPerRunAndApp() throws {
        let dir = try Scratch.makeDirectory("fleet-metrickit")
        try Self.workload.write(to: dir.appendingPathComponent("mk.yaml"), atomically: true, encoding: .utf8)
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let plan = try SweepPlan(sweep: try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path))
        let out = dir.appendingPathComponent("out")
        _ = try FleetSweep.run(plan, threads: 2, into: out)

        let files = try FleetMetricKit.files(out.appendingPathComponent("fleet.json").path)
        #expect(files.map(\.name) == ["cell-0.json", "cell-1.json"])
        // Per cell, per app: its payloads in run order (seeds 1, 2, 3).
        var cells: [[String: [[String: Any]]]] = []
        for file in files {
            let payloads = try #require(try JSONSerialization.jsonObject(with: file.data) as? [[String: Any]])
            #expect(payloads.count == 6)
            var byApp: [String: [[String: Any]]] = [:]
            for payload in payloads {
                #expect(Set(payload.keys) == MetricKitNames.payload)
                let exits = try #require(payload["applicationExitMetrics"] as? [String: [String: Int]])
                #expect(Set(exits.keys) == MetricKitNames.exitSections)
                #expect(Set(exits["backgroundExitData"]!.keys) == MetricKitNames.background)
                #expect(Set(exits["foregroundExitData"]!.keys) == MetricKitNames.foreground)
                let memory = try #require(payload["memoryMetrics"] as? [String: Any])
                #expect(Set((memory["averageSuspendedMemory"] as? [String: Any] ?? [:]).keys) == MetricKitNames.average)
                let time = try #require(payload["applicationTimeMetrics"] as? [String: String])
                #expect(Set(time.keys) == MetricKitNames.time)
                let meta = try #require(payload["metaData"] as? [String: String])
                #expect(payload["timeStampEnd"] as? String == "2015-01-01 00:10:00.00 +0000")
                byApp[try #require(meta["bundleIdentifier"]), default: []].append(payload)
            }
            cells.append(byApp)
        }
        func each(_ cell: Int, _ app: String, _ check: ([String: Any]) -> Void) {
            #expect(cells[cell][app]?.count == 3)
            for payload in cells[cell][app] ?? [] { check(payload) }
        }
        func exits(_ p: [String: Any], _ side: String) -> [String: Int] {
            ((p["applicationExitMetrics"] as? [String: [String: Int]])?[side] ?? [:]).filter { $0.value != 0 }
        }
        func memory(_ p: [String: Any]) -> [String: Any] { p["memoryMetrics"] as? [String: Any] ?? [:] }
        func suspended(_ p: [String: Any]) -> [String: Any] { memory(p)["averageSuspendedMemory"] as? [String: Any] ?? [:] }
        /// The one bucket of a launch histogram: count, start, end.
        func bucket(_ p: [String: Any], _ key: String) -> [String]? {
            let h = (p["applicationLaunchMetrics"] as? [String: [String: Any]])?[key]
            guard let b = (h?["histogramValue"] as? [String: [String: Any]])?["0"], h?["histogramNumBuckets"] as? Int == 1 else { return nil }
            return ["\(b["bucketCount"] as? Int ?? -1)", b["bucketStart"] as? String ?? "", b["bucketEnd"] as? String ?? ""]
        }

        // The build names the workload (its path), the cell and the run's seed.
        let builds = cells[0]["a"]?.map { ($0["metaData"] as? [String: String])?["appBuildVersion"] ?? "" } ?? []
        #expect(builds.count == 3 && zip(builds, 1...3).allSatisfy { $0.hasSuffix("mk.yaml device=iphone-6-plus seed \($1)") }, "\(builds)")
        // Cell 0, iPhone 6 Plus: a killed for its limit in the foreground in each run.
        each(0, "a") { p in
            #expect((p["metaData"] as? [String: String])?["deviceType"] == "iPhone7,1")
            #expect(exits(p, "foregroundExitData") == ["cumulativeMemoryResourceLimitExitCount": 1])
            #expect(exits(p, "backgroundExitData").isEmpty)
            #expect(memory(p)["peakMemoryUsage"] as? String == Self.kB(60 * Self.megabyte))
            #expect(suspended(p)["sampleCount"] as? Int == 2)
            #expect(suspended(p)["averageValue"] as? String == Self.kB(40 * Self.megabyte))
            #expect(suspended(p)["standardDeviation"] as? Double == Self.deviationKB([30, 50].map { $0 * Self.megabyte }))
            #expect((p["applicationTimeMetrics"] as? [String: String])?["cumulativeBackgroundTime"] == "0 sec")
            // One cold launch at 0s (the default launch.time, 1 s) and two warm resumes at 2m and
            // 2m45s (the default resumeTime, 200 ms, the largest latency of runs.csv too).
            #expect(bucket(p, "histogrammedTimeToFirstDrawKey") == ["1", "1000 ms", "1000 ms"])
            #expect(bucket(p, "histogrammedResumeTime") == ["2", "200 ms", "200 ms"])
        }
        // Cell 1, iPad Air 2: a survives with 760 MB and is suspended a third time, with 750 MB.
        each(1, "a") { p in
            #expect((p["metaData"] as? [String: String])?["deviceType"] == "iPad5,3")
            #expect(exits(p, "foregroundExitData").isEmpty && exits(p, "backgroundExitData").isEmpty)
            #expect(memory(p)["peakMemoryUsage"] as? String == Self.kB(760 * Self.megabyte))
            #expect(suspended(p)["sampleCount"] as? Int == 3)
            #expect(suspended(p)["averageValue"] as? String == Self.kB(830.0 / 3 * Self.megabyte))
            #expect(suspended(p)["standardDeviation"] as? Double == Self.deviationKB([30.0, 50, 750].map { $0 * Self.megabyte }))
        }
        // b, the same on both: a quit each run (a background normal exit), 2 suspensions at 30 MB.
        for cell in 0..<2 {
            each(cell, "b") { p in
                #expect(exits(p, "backgroundExitData") == ["cumulativeNormalAppExitCount": 1])
                #expect(exits(p, "foregroundExitData").isEmpty)
                #expect(suspended(p)["sampleCount"] as? Int == 2)
                #expect(suspended(p)["averageValue"] as? String == Self.kB(30 * Self.megabyte))
                #expect(suspended(p)["standardDeviation"] as? Double == 0)
                // Launched at 1m, resumed at 2m30s and 4m.
                #expect(bucket(p, "histogrammedTimeToFirstDrawKey") == ["1", "1000 ms", "1000 ms"])
                #expect(bucket(p, "histogrammedResumeTime") == ["2", "200 ms", "200 ms"])
            }
        }

        // Read back as the field: each run a device-day, the cell's runs pooled.
        let payloads = try files.flatMap { try MetricKitPayloadReader(file: $0.name).read([UInt8]($0.data)) }
        let field = FieldSummary(payloads: payloads, files: files.count)
        #expect(field.cells.map { "\($0.app) \($0.deviceType)" } == ["a iPad5,3", "a iPhone7,1", "b iPad5,3", "b iPhone7,1"])
        let phone = try #require(field.cells.first { $0.app == "a" && $0.deviceType == "iPhone7,1" })
        #expect(phone.days == 3)
        let limit = try #require(phone.exits.first { $0.side == "foreground" && $0.counter == "cumulativeMemoryResourceLimitExitCount" })
        #expect(limit.rate.total == 3 && limit.rate.perDay == 1)
        #expect(phone.suspended?.sampleCount == 6)
        #expect(abs(Double(phone.suspended?.averageBytes ?? 0) - 40 * Self.megabyte) <= 1000)
        #expect(phone.launches.map { "\($0.key) \($0.days) \($0.rate.total)" } == ["timeToFirstDraw 3 3.0", "resumes 3 6.0"])
    }

    @Test func pooledDeviationEqualsTheDeviationOfAllSamples() {
        // Groups [1, 2, 3] and [10, 20]: all five samples have mean 7.2 and sd 7.6942…
        let pooled = MetricKitExport.pooled([
            .init(sampleCount: 3, averageBytes: 2_000_000, standardDeviationBytes: 1_000_000),
            .init(sampleCount: 2, averageBytes: 15_000_000, standardDeviationBytes: Int64((50.0).squareRoot() * 1_000_000)),
            .init(sampleCount: 0, averageBytes: 0, standardDeviationBytes: 0),
        ])
        #expect(pooled.sampleCount == 5)
        #expect(pooled.averageBytes == 7_200_000)
        let all = [1.0, 2, 3, 10, 20].map { $0 * 1_000_000 }
        let sd = (all.reduce(0) { $0 + ($1 - 7_200_000) * ($1 - 7_200_000) } / 4).squareRoot()
        #expect(abs(Double(pooled.standardDeviationBytes) - sd) <= 1)
    }
}
