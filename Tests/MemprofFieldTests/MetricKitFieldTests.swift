import Foundation
import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import Testing

/// `memprof field`'s reader and summary: a published payload, payloads with counters left out,
/// malformed payloads with their locations, the intervals against published values, and the
/// round trip of memprof's own export.
@Suite struct MetricKitFieldTests {
    static func read(_ text: String, file: String = "p.json") throws(IPSError) -> [MetricKitPayload] {
        try MetricKitPayloadReader(file: file).read(text)
    }

    /// Xcode's simulated payload as NSHipster published it (Fixtures/SOURCES.md): every section
    /// memprof reads but the exits, sizes with grouping commas.
    @Test func thePublishedSimulatedPayloadReadsWithItsUnits() throws {
        let name = "metrickit/xcode-simulated-ios13-nshipster.json"
        let payloads = try MetricKitPayloadReader(file: name).read(try Field.bytes(name))
        let p = try #require(payloads.first)
        #expect(payloads.count == 1)
        #expect(p.deviceType == "iPhone9,2" && p.osVersion == "iPhone OS 13.1.3 (17A878)")
        #expect(p.bundleIdentifier == nil && p.appBuildVersion == "0")
        #expect(p.exits == nil, "an iOS 13 payload has no applicationExitMetrics")
        #expect(p.peakMemoryBytes == 200_000_000)
        #expect(p.suspendedMemory == MetricKitPayload.Average(sampleCount: 500, meanBytes: 100_000_000, standardDeviationBytes: 0))
        #expect(p.time == MetricKitPayload.Times(foregroundSeconds: 700, backgroundSeconds: 40, backgroundAudioSeconds: 30,
                                                 backgroundLocationSeconds: 30))
        #expect(p.launches == MetricKitPayload.Launches(timeToFirstDraw: 140, optimizedTimeToFirstDraw: nil, resumes: 210,
                                                        extendedLaunch: nil))
        let summary = FieldSummary(payloads: payloads, files: 1)
        let cell = try #require(summary.cells.first)
        #expect(cell.days == 1 && cell.exitDays == 0 && cell.app == "-")
        #expect(cell.launches.map(\.key) == ["timeToFirstDraw", "resumes"])
        #expect(cell.launches.map(\.rate.perDay) == [140, 210])
        #expect(summary.text.contains("suspended memory (500 suspensions on 1 day): mean 100.0 MB, sd 0.0 MB"))
    }

    /// Real payloads leave zero counters out (an iOS 14.0.1 payload with only
    /// `"cumulativeMemoryPressureExitCount" : 13` in the background and `{ }` in the foreground):
    /// a counter left out is 0 exits; a section left out says nothing.
    @Test func countersLeftOutAreZeroAndSectionsLeftOutAreUnknown() throws {
        func day(_ pressure: Int?) -> String {
            let exits = pressure.map { #""applicationExitMetrics" : {"backgroundExitData" : {"cumulativeMemoryPressureExitCount" : \#($0)}, "foregroundExitData" : { }},"# } ?? ""
            return #"{"metaData" : {"deviceType" : "iPhone9,2", "osVersion" : "iPhone OS 14.0.1 (18A393)", "bundleIdentifier" : "a"}, "#
                + #"\#(exits) "memoryMetrics" : {"peakMemoryUsage" : "1,106,818 kB"}}"#
        }
        let payloads = try Self.read("[" + [day(13), day(nil), day(0), day(2)].joined(separator: ",") + "]")
        #expect(payloads.map { $0.exits?.background["cumulativeMemoryPressureExitCount"] } == [13, nil, 0, 2])
        #expect(payloads[0].exits?.foreground == [:])
        let cell = try #require(FieldSummary(payloads: payloads, files: 1).cells.first)
        #expect(cell.days == 4 && cell.exitDays == 3)
        let pressure = try #require(cell.exits.first { $0.counter == "cumulativeMemoryPressureExitCount" })
        #expect(pressure.rate.total == 15 && pressure.rate.perDay == 5 && pressure.rate.method == .bootstrap)
        #expect(pressure.rate.low >= 0 && pressure.rate.low < 5 && pressure.rate.high > 5 && pressure.rate.high <= 13)
        let normal = try #require(cell.exits.first { $0.counter == "cumulativeNormalAppExitCount" && $0.side == "background" })
        #expect(normal.rate.total == 0 && normal.rate.method == .garwood)
        #expect(abs(normal.rate.high - 3.689 / 3) < 0.001)
        #expect(cell.peak?.maxBytes == 1_106_818_000)
    }

    /// Garwood's 95% interval against the published table (Garwood 1936; the same values as
    /// ½ χ² quantiles: 0 → [0, 3.689], 1 → [0.0253, 5.572], 10 → [4.795, 18.39]).
    @Test func garwoodMatchesThePublishedInterval() {
        for (k, low, high) in [(0, 0.0, 3.6889), (1, 0.0253, 5.5716), (10, 4.7954, 18.3904)] {
            let interval = FieldStatistics.garwood(k)
            #expect(abs(interval.low - low) < 0.0005 && abs(interval.high - high) < 0.0005, "\(k): \(interval)")
        }
    }

    /// Malformed payloads: the file, line, column and key of what is wrong.
    @Test(arguments: [
        (#"{"metaData": {"deviceType": "iPhone9,2", "osVersion": "x"}, "memoryMetrics": {"peakMemoryUsage": "200 furlongs"}}"#,
         1, 98, "memoryMetrics.peakMemoryUsage", "unknown size unit 'furlongs'"),
        ("[{\"metaData\": {\"deviceType\": \"d\", \"osVersion\": \"o\"},\n \"applicationExitMetrics\": {\"backgroundExitData\": {\"cumulativeMemoryPressureExitCount\": -1}}}]",
         2, 89, "[0].applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount", "out of range"),
        (#"{"memoryMetrics": {}}"#, 1, 1, "", "missing 'metaData'"),
        ("{\"metaData\": {\"deviceType\": \"d\", \"osVersion\": \"o\"},\n  \"applicationTimeMetrics\": {\"cumulativeForegroundTime\": 700}}",
         2, 58, "applicationTimeMetrics.cumulativeForegroundTime", "expected a string"),
        ("{\"metaData\": {\"deviceType\": \"d\", \"osVersion\": \"o\"},\n\"applicationExitMetrics\": {", 2, 28, "", "invalid JSON"),
        (#"{"metaData": {"deviceType": "d", "osVersion": "o"}, "applicationLaunchMetrics": {"histogrammedResumeTime": {"histogramNumBuckets": 2, "#
            + #""histogramValue": {"0": {"bucketCount": 1, "bucketStart": "1 ms", "bucketEnd": "2 ms"}}}}}"#,
         1, 132, "applicationLaunchMetrics.histogrammedResumeTime.histogramNumBuckets", "2 buckets declared, 1"),
    ])
    func malformedPayloadsAreLocated(text: String, line: Int, column: Int, key: String, message: String) {
        do throws(IPSError) {
            _ = try Self.read(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == "p.json", "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.keyPath == key, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// What `memprof export --format metrickit` writes reads back: each run a device-day, each
    /// app's exits on each side, peak and suspended memory to the kB, times to the second.
    @Test func memprofsOwnExportReadsBack() throws {
        var payloads: [MetricKitPayload] = []
        var reports: [Report] = []
        for seed: UInt64 in 1...4 {
            let report = try ReportFixture.builtin("background-heavy", seed: seed)
            reports.append(report)
            payloads += try MetricKitPayloadReader(file: "day-\(seed).json").read(MetricKitExport.json(report))
        }
        let summary = FieldSummary(payloads: payloads, files: 4)
        let apps = reports[0].apps.keys.sorted()
        #expect(summary.cells.map(\.app) == apps)
        for cell in summary.cells {
            #expect(cell.days == 4 && cell.exitDays == 4)
            let stats = reports.map { $0.apps[cell.app]! }
            let exits = stats.reduce(0) { $0 + $1.exits.values.reduce(0, +) }
            #expect(Int(cell.exits.reduce(0) { $0 + $1.rate.total }) == exits, "\(cell.app)")
            let foreground = stats.reduce(0) { $0 + ($1.foregroundExits ?? [:]).values.reduce(0, +) }
            #expect(Int(cell.exits.filter { $0.side == "foreground" }.reduce(0) { $0 + $1.rate.total }) == foreground)
            let peak = stats.map { Double($0.peakFootprintBytes) }.max()!
            #expect(abs((cell.peak?.maxBytes ?? 0) - peak) <= 500)
            #expect(cell.suspended?.sampleCount == stats.reduce(0) { $0 + ($1.suspendedMemory?.sampleCount ?? 0) })
            let onScreen = stats.map { Double(($0.timeInStateUs["active"] ?? 0) + ($0.timeInStateUs["inactive"] ?? 0)) / 1e6 }
            let time = try #require(cell.time.first { $0.key == "foregroundSeconds" })
            #expect(abs(time.rate.perDay - onScreen.reduce(0, +) / 4) <= 0.5)
            // applicationLaunchMetrics: every day's cold launches and measured resumes, as counted.
            let launches = try #require(cell.launches.first { $0.key == "timeToFirstDraw" })
            #expect(launches.days == 4 && Int(launches.rate.total) == stats.reduce(0) { $0 + $1.launches.cold }, "\(cell.app)")
            let resumes = try #require(cell.launches.first { $0.key == "resumes" })
            #expect(resumes.days == 4 && Int(resumes.rate.total) == stats.reduce(0) { $0 + $1.resumeLatencyUs.count }, "\(cell.app)")
        }
        // field.json is JSON, with one cell per app.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == FieldSummary.schema)
        #expect((json["cells"] as? [[String: Any]])?.count == apps.count)
    }

    /// The same payloads give the same summary, byte for byte (the bootstrap is seeded).
    @Test func theSummaryIsRepeatable() throws {
        let payloads = try (1...3).flatMap { seed in
            try MetricKitPayloadReader(file: "d.json").read(MetricKitExport.json(try ReportFixture.builtin("phone-day", seed: UInt64(seed))))
        }
        #expect(FieldSummary(payloads: payloads, files: 3).json == FieldSummary(payloads: payloads, files: 3).json)
    }
}
