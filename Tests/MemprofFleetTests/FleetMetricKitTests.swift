import Foundation
import MemprofFleet
import MemprofTestSupport
import Testing

/// `memprof export FLEET --format metrickit`: one payload array per cell, its runs
/// aggregated, checked against Apple's field names and against numbers worked out by hand.
@Suite struct FleetMetricKitTests {
    /// Every run is the same day (no `generate`), so a cell's sums are three times one run's.
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

    /// The sample standard deviation of `values`, in kB, rounded as the payload writes it.
    static func deviationKB(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (variance.squareRoot() / 1024).rounded()
    }

    @Test func eachCellIsOnePayloadArrayWithItsRunsAggregated() throws {
        let dir = try Scratch.makeDirectory("fleet-metrickit")
        try Self.workload.write(to: dir.appendingPathComponent("mk.yaml"), atomically: true, encoding: .utf8)
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let plan = try SweepPlan(sweep: try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path))
        let out = dir.appendingPathComponent("out")
        _ = try FleetSweep.run(plan, threads: 2, into: out)

        let files = try FleetMetricKit.files(out.appendingPathComponent("fleet.json").path)
        #expect(files.map(\.name) == ["cell-0.json", "cell-1.json"])
        var cells: [[String: [String: Any]]] = []
        for file in files {
            let payloads = try #require(try JSONSerialization.jsonObject(with: file.data) as? [[String: Any]])
            var byApp: [String: [String: Any]] = [:]
            for payload in payloads {
                #expect(Set(payload.keys) == MetricKitNames.payload)
                let exits = try #require(payload["applicationExitMetrics"] as? [String: [String: Int]])
                #expect(Set(exits.keys) == MetricKitNames.exitSections)
                #expect(Set(exits["backgroundExitData"]!.keys) == MetricKitNames.background)
                #expect(Set(exits["foregroundExitData"]!.keys) == MetricKitNames.foreground)
                let memory = try #require(payload["memoryMetrics"] as? [String: Any])
                #expect(Set((memory["averageSuspendedMemory"] as? [String: Any] ?? [:]).keys) == MetricKitNames.average)
                let meta = try #require(payload["metaData"] as? [String: String])
                #expect(payload["timeStampEnd"] as? String == "2015-01-01 00:10:00.00 +0000")
                byApp[try #require(meta["bundleIdentifier"])] = payload
            }
            cells.append(byApp)
        }
        func exits(_ cell: Int, _ app: String, _ side: String) -> [String: Int] {
            ((cells[cell][app]?["applicationExitMetrics"] as? [String: [String: Int]])?[side] ?? [:]).filter { $0.value != 0 }
        }
        func memory(_ cell: Int, _ app: String) -> [String: Any] { cells[cell][app]?["memoryMetrics"] as? [String: Any] ?? [:] }
        func suspended(_ cell: Int, _ app: String) -> [String: Any] { memory(cell, app)["averageSuspendedMemory"] as? [String: Any] ?? [:] }

        // Cell 0, iPhone 6 Plus: a killed for its limit in the foreground in each of 3 runs.
        #expect((cells[0]["a"]?["metaData"] as? [String: String])?["deviceType"] == "iPhone7,1")
        #expect(exits(0, "a", "foregroundExitData") == ["cumulativeMemoryResourceLimitExitCount": 3])
        #expect(exits(0, "a", "backgroundExitData").isEmpty)
        #expect(memory(0, "a")["peakMemoryUsage"] as? String == "\(60 * 1024) kB")
        #expect(suspended(0, "a")["sampleCount"] as? Int == 6)
        #expect(suspended(0, "a")["averageValue"] as? String == "\(40 * 1024) kB")
        #expect(suspended(0, "a")["standardDeviation"] as? Double
            == Self.deviationKB([30, 50, 30, 50, 30, 50].map { $0 * Self.megabyte }))
        // Cell 1, iPad Air 2: a survives with 760 MB and is suspended a third time, with 750 MB.
        #expect((cells[1]["a"]?["metaData"] as? [String: String])?["deviceType"] == "iPad5,3")
        #expect(exits(1, "a", "foregroundExitData").isEmpty && exits(1, "a", "backgroundExitData").isEmpty)
        #expect(memory(1, "a")["peakMemoryUsage"] as? String == "\(760 * 1024) kB")
        #expect(suspended(1, "a")["sampleCount"] as? Int == 9)
        #expect(suspended(1, "a")["averageValue"] as? String == "\(Int((830.0 / 3 * 1024).rounded())) kB")
        #expect(suspended(1, "a")["standardDeviation"] as? Double
            == Self.deviationKB(Array(repeating: [30.0, 50, 750], count: 3).flatMap { $0 }.map { $0 * Self.megabyte }))
        // b, the same on both: 3 quits (background normal exits), 6 suspensions at 30 MB.
        for cell in 0..<2 {
            #expect(exits(cell, "b", "backgroundExitData") == ["cumulativeNormalAppExitCount": 3])
            #expect(exits(cell, "b", "foregroundExitData").isEmpty)
            #expect(suspended(cell, "b")["sampleCount"] as? Int == 6)
            #expect(suspended(cell, "b")["averageValue"] as? String == "\(30 * 1024) kB")
            #expect(suspended(cell, "b")["standardDeviation"] as? Double == 0)
        }
    }

    @Test func pooledDeviationEqualsTheDeviationOfAllSamples() {
        // Groups [1, 2, 3] and [10, 20]: all five samples have mean 7.2 and sd 7.6942…
        let pooled = FleetMetricKit.pooled([
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
