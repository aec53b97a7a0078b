import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofInput
import MemprofReport
import MemprofWorkload
import MemprofOutput
import Testing

@Suite struct MetricTests {
    @Test func extractsEverySummaryAndAppNumberAsDottedPaths() {
        let report = makeReport {
            $0.summary.evictions = 3
            $0.apps["mail"]!.exits["memoryLimit"] = 2
            $0.apps["mail"]!.resumeLatencyUs = LatencySummary(samples: [100, 300, 200])
        }
        let m = MetricExtractor.metrics(of: report)
        #expect(m["summary.evictions"] == 3)
        #expect(m["summary.timeAtPressureUs.warning"] == 0)
        #expect(m["summary.terminations.memoryLimit"] == 0)
        #expect(m["apps.mail.exits.memoryLimit"] == 2)
        #expect(m["apps.mail.resumeLatencyUs.p50"] == 200)
        #expect(m["apps.mail.resumeLatencyUs.max"] == 300)
        #expect(m["apps.maps.timeInStateUs.suspended"] == 0)
        #expect(m["apps.mail.name"] == nil, "strings are not metrics")
        #expect(!m.keys.contains { $0.hasPrefix("apps.mail.name") })
    }

    @Test(arguments: [
        ("summary.evictions", MetricDirection.higherIsWorse),
        ("apps.mail.evictions", .higherIsWorse),
        ("summary.coldLaunches", .higherIsWorse),
        ("apps.mail.launches.cold", .higherIsWorse),
        ("apps.mail.exits.memoryLimit", .higherIsWorse),
        ("summary.terminations.watchdog", .higherIsWorse),
        ("apps.mail.exits.userQuit", .neutral),
        ("summary.terminations.userQuit", .neutral),
        ("summary.memoryWarnings", .higherIsWorse),
        ("apps.mail.peakFootprintBytes", .higherIsWorse),
        ("summary.peakUsedBytes", .higherIsWorse),
        ("summary.timeAtPressureUs.critical", .higherIsWorse),
        ("summary.timeAtPressureUs.normal", .neutral),
        ("apps.mail.resumeLatencyUs.p50", .higherIsWorse),
        ("apps.mail.resumeLatencyUs.count", .neutral),
        ("apps.mail.fetches.completed", .lowerIsWorse),
        ("apps.mail.fetches.started", .neutral),
        ("summary.backgroundTasks.expiredKilled", .higherIsWorse),
        ("apps.mail.timeInStateUs.active", .neutral),
        ("summary.compressions", .neutral),
        ("summary.somethingAddedLater", .neutral),
    ])
    func directionTable(path: String, direction: MetricDirection) {
        #expect(MetricDirections.direction(of: path) == direction)
    }

    @Test func kinds() {
        #expect(MetricKind.of("summary.peakUsedBytes") == .bytes)
        #expect(MetricKind.of("apps.mail.resumeLatencyUs.p50") == .duration)
        #expect(MetricKind.of("apps.mail.resumeLatencyUs.count") == .count)
        #expect(MetricKind.of("summary.freezer.bytesWritten") == .bytes && MetricKind.of("summary.freezer.bytesReadBack") == .bytes)
        #expect(MetricKind.of("summary.freezer.freezes") == .count)
        #expect(MetricKind.of("summary.evictions") == .count)
        #expect(MetricKind.bytes.format(150 * 1_048_576) == "150 MB")
        #expect(MetricKind.duration.format(1_500_000) == "1.5s")
    }
}

@Suite struct VerdictTests {
    @Test func aRiseInEvictionsIsWorseWithTheSentence() throws {
        let base = makeReport { $0.apps["mail"]!.evictions = 2 }
        let new = makeReport { $0.apps["mail"]!.evictions = 5 }
        let c = try Comparer.compare(base: base, new: new)
        let r = try #require(row(c, "apps.mail.evictions"))
        #expect(r.verdict == .worse)
        #expect(r.change == 3)
        #expect(r.changePercent == 150)
        #expect(r.message == "mail: evictions rose from 2 to 5 (+150%), threshold 0")
        #expect(c.hasRegression)
        #expect(c.count(.worse) == 1)
    }

    @Test func aFallInEvictionsIsBetter() throws {
        let c = try Comparer.compare(base: makeReport { $0.summary.evictions = 5 }, new: makeReport { $0.summary.evictions = 2 })
        #expect(row(c, "summary.evictions")?.verdict == .better)
        #expect(row(c, "summary.evictions")?.message == "summary: evictions fell from 5 to 2 (-60%), threshold 0")
        #expect(!c.hasRegression)
    }

    @Test func identicalReportsAreAllSame() throws {
        let r = makeReport { $0.summary.evictions = 4; $0.apps["maps"]!.peakFootprintBytes = 100 << 20 }
        let c = try Comparer.compare(base: r, new: r)
        #expect(c.metrics.allSatisfy { $0.verdict == .same })
        #expect(c.count(.same) == c.metrics.count)
        #expect(!c.hasRegression)
    }

    @Test func aRiseFromZeroIsWorse() throws {
        let c = try Comparer.compare(base: makeReport(), new: makeReport { $0.apps["mail"]!.exits["memoryLimit"] = 1 })
        let r = try #require(row(c, "apps.mail.exits.memoryLimit"))
        #expect(r.verdict == .worse)
        #expect(r.changePercent == nil)
        #expect(r.message == "mail: exits.memoryLimit rose from 0 to 1 (+1 from zero), threshold 0")
    }

    @Test func fewerCompletedFetchesIsWorse() throws {
        let c = try Comparer.compare(base: makeReport { $0.summary.fetches.completed = 7 },
                                     new: makeReport { $0.summary.fetches.completed = 6 })
        #expect(row(c, "summary.fetches.completed")?.verdict == .worse)
    }

    @Test func neutralMetricsNeverFail() throws {
        let c = try Comparer.compare(base: makeReport { $0.apps["mail"]!.timeInStateUs["active"] = 10; $0.apps["mail"]!.exits["userQuit"] = 0 },
                                     new: makeReport { $0.apps["mail"]!.timeInStateUs["active"] = 99; $0.apps["mail"]!.exits["userQuit"] = 3 })
        #expect(row(c, "apps.mail.timeInStateUs.active")?.verdict == .same)
        #expect(row(c, "apps.mail.exits.userQuit")?.verdict == .same)
        #expect(row(c, "apps.mail.exits.userQuit")?.change == 3)
        #expect(!c.hasRegression)
    }

    @Test func addedAndRemovedAppsAreNewAndGone() throws {
        let base = makeReport(apps: ["mail", "maps"])
        let new = makeReport(apps: ["mail", "game"]) { $0.apps["game"]!.evictions = 4 }
        let c = try Comparer.compare(base: base, new: new)
        #expect(row(c, "apps.game.evictions")?.verdict == .new)
        #expect(row(c, "apps.game.evictions")?.base == nil)
        #expect(row(c, "apps.maps.evictions")?.verdict == .gone)
        #expect(row(c, "apps.maps.evictions")?.new == nil)
        #expect(row(c, "apps.mail.evictions")?.verdict == .same)
        #expect(!c.hasRegression, "new and gone apps are reported, not failed")
        #expect(c.count(.new) > 0 && c.count(.gone) > 0)
    }

    @Test func differentWorkloadsAreRefusedUnlessAllowed() throws {
        let a = makeReport(workload: "phone-day"), b = makeReport(workload: "ipad-afternoon")
        #expect(throws: CompareInputError.differentWorkloads(base: "phone-day", new: "ipad-afternoon")) {
            try Comparer.compare(base: a, new: b)
        }
        let c = try Comparer.compare(base: a, new: b, allowDifferent: true)
        #expect(c.notes.contains { $0.contains("different workloads") })
    }

    @Test func appsComeFirstByKeyThenTheSummary() throws {
        let c = try Comparer.compare(base: makeReport(), new: makeReport())
        let firstSummary = try #require(c.metrics.firstIndex { $0.scope == "summary" })
        #expect(c.metrics[..<firstSummary].allSatisfy { $0.scope != "summary" })
        #expect(c.metrics[firstSummary...].allSatisfy { $0.scope == "summary" })
        #expect(c.metrics.first?.scope == "mail" && c.metrics[..<firstSummary].last?.scope == "maps")
    }
}

@Suite struct ThresholdTests {
    func peak(_ mb: Double) -> Report {
        makeReport { $0.summary.peakUsedBytes = Int64(mb * 1_048_576) }
    }

    @Test func sizesUseTheRelativeThreshold() throws {
        #expect(row(try Comparer.compare(base: peak(100), new: peak(104)), "summary.peakUsedBytes")?.verdict == .same)
        #expect(row(try Comparer.compare(base: peak(100), new: peak(106)), "summary.peakUsedBytes")?.verdict == .worse)
        var loose = Thresholds()
        loose.relative = 0.10
        #expect(row(try Comparer.compare(base: peak(100), new: peak(106), thresholds: loose), "summary.peakUsedBytes")?.verdict == .same)
        let msg = row(try Comparer.compare(base: peak(100), new: peak(106)), "summary.peakUsedBytes")?.message
        #expect(msg == "summary: peakUsedBytes rose from 100 MB to 106 MB (+6%), threshold 5%")
    }

    @Test func countsCatchAnyRiseByDefault() throws {
        let c = try Comparer.compare(base: makeReport { $0.summary.coldLaunches = 100 }, new: makeReport { $0.summary.coldLaunches = 101 })
        #expect(row(c, "summary.coldLaunches")?.verdict == .worse)
    }

    @Test func countThresholdAndMinDelta() throws {
        var t = Thresholds()
        t.countRelative = 0.5
        let two = makeReport { $0.summary.evictions = 2 }
        #expect(row(try Comparer.compare(base: two, new: makeReport { $0.summary.evictions = 3 }, thresholds: t), "summary.evictions")?.verdict == .same)
        #expect(row(try Comparer.compare(base: two, new: makeReport { $0.summary.evictions = 4 }, thresholds: t), "summary.evictions")?.verdict == .worse)
        var floor = Thresholds()
        floor.minDelta = 2
        #expect(row(try Comparer.compare(base: two, new: makeReport { $0.summary.evictions = 3 }, thresholds: floor), "summary.evictions")?.verdict == .same)
        #expect(row(try Comparer.compare(base: two, new: makeReport { $0.summary.evictions = 4 }, thresholds: floor), "summary.evictions")?.verdict == .worse)
    }

    @Test func perMetricOverridesFromYAML() throws {
        let t = try Thresholds.parse(yaml: """
            threshold: 10%
            metrics:
              apps.mail.evictions: {threshold: 100%}
              apps.*.evictions: {threshold: 50%}
              apps.maps.peakFootprintBytes: {minDelta: 8MB}
              summary.memoryWarnings: {ignore: true}
            """)
        #expect(t.relative == 0.10)
        #expect(t.effective(for: "apps.mail.evictions", kind: .count).relative == 1.0, "an exact path wins over a pattern")
        #expect(t.effective(for: "apps.maps.evictions", kind: .count).relative == 0.5)
        #expect(t.effective(for: "apps.maps.peakFootprintBytes", kind: .bytes).minDelta == 8 * 1_048_576)
        let base = makeReport { $0.apps["mail"]!.evictions = 2; $0.apps["maps"]!.evictions = 2; $0.summary.memoryWarnings = 1
            $0.apps["maps"]!.peakFootprintBytes = 100 << 20 }
        let new = makeReport { $0.apps["mail"]!.evictions = 4; $0.apps["maps"]!.evictions = 4; $0.summary.memoryWarnings = 9
            $0.apps["maps"]!.peakFootprintBytes = 106 << 20 }
        let c = try Comparer.compare(base: base, new: new, thresholds: t)
        #expect(row(c, "apps.mail.evictions")?.verdict == .same)
        #expect(row(c, "apps.maps.evictions")?.verdict == .worse)
        #expect(row(c, "apps.maps.evictions")?.message?.hasSuffix("threshold 50%") == true)
        #expect(row(c, "summary.memoryWarnings")?.verdict == .same)
        #expect(row(c, "summary.memoryWarnings")?.ignored == true)
        #expect(row(c, "apps.maps.peakFootprintBytes")?.verdict == .same, "6 MB is under the 8 MB floor")
    }

    @Test(arguments: [
        "threshold: 5",
        "threshold: five%",
        "metrics: [a, b]",
        "metrics: {evictions: {threshold: 5%}}",
        "metrics: {summary.evictions: {thresold: 5%}}",
        "metrics: {summary.peakUsedBytes: {minDelta: 4 apples}}",
        "metrics: {summary.evictions: {ignore: maybe}}",
        "colour: red",
        "- a list",
        "key: [unclosed",
    ])
    func malformedThresholdFiles(text: String) {
        #expect(throws: WorkloadError.self) { try Thresholds.parse(yaml: text) }
    }

    @Test func quantities() throws {
        #expect(try MetricValues.percent("5%", option: "") == 0.05)
        #expect(try MetricValues.number("150MB", kind: .bytes, option: "") == 150 * 1_048_576)
        #expect(try MetricValues.number("1.5GB", kind: .bytes, option: "") == 1.5 * 1_073_741_824)
        #expect(try MetricValues.number("1m30s", kind: .duration, option: "") == 90_000_000)
        #expect(try MetricValues.number("250ms", kind: .duration, option: "") == 250_000)
        #expect(try MetricValues.number("3", kind: .count, option: "") == 3)
        #expect(throws: BadInput.self) { try MetricValues.number("150MB", kind: .duration, option: "") }
        #expect(throws: BadInput.self) { try MetricValues.number("2s", kind: .bytes, option: "") }
    }

    @Test func thresholdErrorsAreLocated() {
        let error = #expect(throws: WorkloadError.self) {
            try Thresholds.parse(yaml: "metrics:\n  summary.evictions: {thresold: 5%}", file: "t.yaml")
        }
        #expect(error?.description == "t.yaml:2:23: metrics.summary.evictions: unknown key 'thresold' (did you mean 'threshold'?)")
    }

    @Test func aPatternThatMatchesNoMetricIsAnErrorWithASuggestion() throws {
        let t = try Thresholds.parse(yaml: "metrics:\n  apps.*.memoryWarning: {threshold: 5%}", file: "t.yaml")
        let error = #expect(throws: WorkloadError.self) {
            try t.checkPatterns(against: ["apps.mail.memoryWarnings", "apps.mail.evictions", "summary.evictions"])
        }
        #expect(error?.description == "t.yaml:2:25: metrics.apps.*.memoryWarning: 'apps.*.memoryWarning' matches no metric of the reports (did you mean 'apps.*.memoryWarnings'?)")
        try Thresholds.parse(yaml: "metrics:\n  apps.*.memoryWarnings: {ignore: true}").checkPatterns(against: ["apps.mail.memoryWarnings"])
    }
}

@Suite struct LatencyWithoutResumesTests {
    /// Base: mail resumed twice (p50 200 µs, max 300 µs). New: mail never resumed, so its latency
    /// figures are 0 "by absence": that is no figure, not a 100% improvement.
    @Test func aRunWithoutResumesDoesNotMakeLatencyBetterOrWorse() throws {
        let base = makeReport { $0.apps["mail"]!.resumeLatencyUs = LatencySummary(samples: [200, 300]) }
        let new = makeReport()
        let c = try Comparer.compare(base: base, new: new)
        #expect(row(c, "apps.mail.resumeLatencyUs.p50")?.verdict == .same)
        #expect(row(c, "apps.mail.resumeLatencyUs.max")?.verdict == .same)
        let back = try Comparer.compare(base: new, new: base)
        #expect(row(back, "apps.mail.resumeLatencyUs.max")?.verdict == .same)
        // With resumes on both sides, a slower resume is still a regression.
        let slower = makeReport { $0.apps["mail"]!.resumeLatencyUs = LatencySummary(samples: [200, 600]) }
        #expect(row(try Comparer.compare(base: base, new: slower), "apps.mail.resumeLatencyUs.max")?.verdict == .worse)
    }
}
