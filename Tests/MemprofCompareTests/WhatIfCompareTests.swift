import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofInput
import MemprofReport
import Testing

/// What a what-if compare answers: the apps first, internal counters as context, directions a
/// thresholds file gives, filters by app and metric, and a change that is not a verdict saying why.
@Suite struct WhatIfCompareTests {
    /// Raising an app's cap: its suspended memory rises, the compressor decompresses more.
    static let base = makeReport { r in
        r.summary.compressor = CompressorSummary()
        r.summary.compressor!.decompressions = 1000
        r.apps["mail"]!.suspendedMemory = SuspendedMemory(sampleCount: 4, averageBytes: 180 * .megabyte, standardDeviationBytes: 0)
        r.apps["mail"]!.exits["memoryPressure"] = 2
    }
    static let new = makeReport { r in
        r.summary.compressor = CompressorSummary()
        r.summary.compressor!.decompressions = 1010
        r.apps["mail"]!.suspendedMemory = SuspendedMemory(sampleCount: 4, averageBytes: 194 * .megabyte, standardDeviationBytes: 0)
        r.apps["mail"]!.exits["memoryPressure"] = 2
    }

    @Test func internalCountersAreContextAndTheAppsSuspendedMemoryIsJudged() throws {
        let c = try Comparer.compare(base: Self.base, new: Self.new)
        let decompressions = try #require(row(c, "summary.compressor.decompressions"))
        #expect(decompressions.context && decompressions.verdict == .same)
        #expect(CompareOutput.terminal(c).contains("context (internal counter, not judged)"))
        #expect(row(c, "apps.mail.suspendedMemory.averageBytes")?.verdict == .worse)
        #expect(c.regressions.map(\.metric) == ["apps.mail.suspendedMemory.averageBytes"])
        #expect(c.countsLine.hasSuffix("internal counters as context (not judged)"))
        // Asked for, the internal counters are judged.
        var judged = Thresholds()
        judged.judgeInternal = true
        #expect(row(try Comparer.compare(base: Self.base, new: Self.new, thresholds: judged),
                    "summary.compressor.decompressions")?.verdict == .worse)
    }

    @Test func theAppsLeadTheTable() throws {
        let c = try Comparer.compare(base: Self.base, new: Self.new)
        let shown = CompareOutput.shownRows(c, all: true)
        #expect(shown.first?.metric == "apps.mail.suspendedMemory.averageBytes")
        let firstSummary = try #require(shown.firstIndex { $0.scope == "summary" })
        #expect(shown[..<firstSummary].allSatisfy { $0.metric.hasPrefix("apps.") })
        #expect(shown.last?.context == true)
        // Within an app, its memory kills of every reason first, then its exits, memory-pressure
        // kills first.
        let mail = c.metrics.filter { $0.scope == "mail" }.map(\.name)
        #expect(Array(mail.prefix(2)) == ["memoryKills", "exits.memoryPressure"])
    }

    /// On xnu-11417 a suspended app's memory kills are idle-exit and long-idle-exit: the app's
    /// one `memoryKills` row counts them with the others, and is judged as a kill.
    @Test func anAppsMemoryKillsAreOneRowOfEveryReason() throws {
        let base = makeReport { r in
            r.apps["mail"]!.exits["memoryPressure"] = 1
            r.apps["mail"]!.exits["idleExit"] = 2
            r.apps["mail"]!.exits["userQuit"] = 3
        }
        let new = makeReport { r in
            r.apps["mail"]!.exits["memoryPressure"] = 1
            r.apps["mail"]!.exits["idleExit"] = 2
            r.apps["mail"]!.exits["longIdleExit"] = 2
            r.apps["mail"]!.exits["memoryLimit"] = 1
            r.apps["mail"]!.exits["userQuit"] = 9
        }
        #expect(MetricExtractor.metrics(of: base)["apps.mail.memoryKills"] == 3)
        let c = try Comparer.compare(base: base, new: new)
        let kills = try #require(row(c, "apps.mail.memoryKills"))
        #expect(kills.base == 3 && kills.new == 6 && kills.verdict == .worse)
        #expect(CompareOutput.shownRows(c, all: false).first?.metric == "apps.mail.memoryKills")
    }

    @Test func aThresholdsFileSaysWhichWayIsWorse() throws {
        let t = try Thresholds.parse(yaml: """
            metrics:
              apps.*.suspendedMemory.averageBytes: {direction: lowerIsWorse, threshold: 5%}
              summary.compressor.decompressions: {direction: higherIsWorse, threshold: 0%}
            """, file: "t.yaml")
        let c = try Comparer.compare(base: Self.base, new: Self.new, thresholds: t)
        #expect(row(c, "apps.mail.suspendedMemory.averageBytes")?.verdict == .better)
        #expect(row(c, "summary.compressor.decompressions")?.verdict == .worse)
        #expect(throws: WorkloadError.self) {
            try Thresholds.parse(yaml: "metrics:\n  summary.evictions: {direction: up}\n", file: "t.yaml")
        }
        do {
            _ = try Thresholds.parse(yaml: "metrics:\n  summary.evictions: {direction: up}\n", file: "t.yaml")
        } catch {
            #expect("\(error)" == ("t.yaml:2:34: metrics.summary.evictions.direction: unknown direction 'up'; known: higherIsWorse, lowerIsWorse, neutral"), "\(error)")
        }
    }

    @Test func aChangeWithinAThresholdSaysWhose() throws {
        let a = makeReport { $0.apps["mail"]!.peakFootprintBytes = 100 * .megabyte }
        let b = makeReport { $0.apps["mail"]!.peakFootprintBytes = 103 * .megabyte }
        let byDefault = try Comparer.compare(base: a, new: b)
        #expect(CompareOutput.terminal(byDefault).contains("same (within the default threshold 5%)"))
        var mine = Thresholds()
        mine.relative = 0.1
        #expect(CompareOutput.terminal(try Comparer.compare(base: a, new: b, thresholds: mine))
            .contains("same (within your threshold 10%)"))
    }

    @Test func filtersKeepAnAppAndSomeMetrics() throws {
        let c = try Comparer.compare(base: Self.base, new: Self.new,
                                     filter: MetricFilter(apps: ["mail"], metrics: ["suspendedMemory", "exits.memoryPressure"]))
        #expect(Set(c.metrics.map(\.metric)) == ["apps.mail.exits.memoryPressure", "apps.mail.suspendedMemory.averageBytes",
                                                "apps.mail.suspendedMemory.sampleCount",
                                                "apps.mail.suspendedMemory.standardDeviationBytes"])
        let summaryOnly = try Comparer.compare(base: Self.base, new: Self.new, filter: MetricFilter(metrics: ["summary.compressor.*"]))
        #expect(!summaryOnly.metrics.isEmpty && summaryOnly.metrics.allSatisfy { $0.metric.hasPrefix("summary.compressor.") })
        #expect(throws: (any Error).self) { try Comparer.compare(base: Self.base, new: Self.new, filter: MetricFilter(apps: ["mial"])) }
        do {
            _ = try Comparer.compare(base: Self.base, new: Self.new, filter: MetricFilter(apps: ["mial"]))
        } catch {
            #expect("\(error)" == "--app: no app 'mial' in the results (did you mean 'mail'?); they have mail, maps")
        }
        do {
            _ = try Comparer.compare(base: Self.base, new: Self.new, filter: MetricFilter(metrics: ["exit"]))
        } catch {
            #expect("\(error)".hasPrefix("--metric: 'exit' matches no metric"), "\(error)")
        }
    }
}
