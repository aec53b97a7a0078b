import MemprofReportReader
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MemprofBudgets
import MemprofCompare
import MemprofExport
import MemprofCore
import MemprofInput
import MemprofReport
import MemprofTrace
import MemprofWorkload
import Testing

/// mail evicted twice (each for a reclaim by game) and killed once for its memory limit.
func budgetReport() -> Report {
    makeReport(apps: ["mail", "game"]) {
        $0.apps["mail"]!.evictions = 2
        $0.apps["mail"]!.exits["memoryLimit"] = 1
        $0.apps["mail"]!.peakFootprintBytes = 160 << 20
        $0.summary.evictions = 2
        $0.summary.backgroundTasks.expiredKilled = 0
        $0.timeline.appBytes["mail"] = [[0, 0], [60_000_000, 160 << 20], [120_000_000, 10 << 20]]
        var events: [SimEvent] = []
        for (i, t) in [Int64(600_000_000), 1_200_000_000].enumerated() {
            events.append(SimEvent(atUs: t, app: "mail", .eviction(bytes: Int64(40 + i) << 20)))
            let candidate = SimEvent.Candidate(app: "mail", state: .suspended, footprintBytes: Int64(40 + i) << 20,
                                               lastForegroundUs: 0, taken: true)
            events.append(SimEvent(atUs: t, app: "game", .reclaim(.init(neededBytes: 300 << 20, freedBytes: Int64(40 + i) << 20,
                                                                        usedBytes: 0, candidates: [candidate]))))
        }
        events.append(SimEvent(atUs: 1_800_000_000, app: "mail", .exit(.memoryLimit, from: .background)))
        $0.events = events
    }
}

let issueBudget = """
    apps:
      mail: {evictions: {max: 1}, exits.memoryLimit: {max: 0}, peakFootprintBytes: {max: 150MB}}
    summary:
      backgroundTasks.expiredKilled: {max: 0}
    """

@Suite struct BudgetTests {
    @Test func theIssueExampleParses() throws {
        let b = try Budget.parse(yaml: issueBudget)
        #expect(b.limits.map(\.metric) == ["apps.mail.evictions", "apps.mail.exits.memoryLimit", "apps.mail.peakFootprintBytes",
                                          "summary.backgroundTasks.expiredKilled"])
        #expect(b.limits[2].max == Double(150 * 1_048_576))
    }

    @Test func metBudgets() throws {
        let report = budgetReport()
        let check = try BudgetChecker.check(report, against: try Budget.parse(yaml: """
            apps:
              mail: {evictions: {max: 2}, peakFootprintBytes: {max: 200MB}}
              "*": {exits.watchdog: {max: 0}}
            summary:
              evictions: {min: 1, max: 3}
            """))
        #expect(check.passed)
        #expect(check.results.count == 5, "the * budget applies to both apps")
        #expect(check.results.allSatisfy { $0.causes.isEmpty })
    }

    @Test func brokenBudgetsSayWhatWasAllowedWhatHappenedAndWhy() throws {
        let check = try BudgetChecker.check(budgetReport(), against: try Budget.parse(yaml: issueBudget))
        #expect(!check.passed)
        #expect(check.broken.map(\.metric) == ["apps.mail.evictions", "apps.mail.exits.memoryLimit", "apps.mail.peakFootprintBytes"])
        let evictions = check.broken[0]
        #expect(evictions.message == "mail: evictions allowed at most 1, was 2")
        #expect(evictions.causes == [
            "at 10m: evicted (40 MB), to make room for game (needed 300 MB, freed 40 MB)",
            "at 20m: evicted (41 MB), to make room for game (needed 300 MB, freed 41 MB)",
        ])
        #expect(check.broken[1].causes == ["at 30m: exit memoryLimit while background"])
        #expect(check.broken[2].message == "mail: peakFootprintBytes allowed at most 150 MB, was 160 MB")
        #expect(check.broken[2].causes.first == "at 1m: peak of 160 MB")
        let text = CheckOutput.terminal(check)
        #expect(text.contains("BROKEN  mail: evictions allowed at most 1, was 2"))
        #expect(text.contains("at 10m: evicted (40 MB)"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func checkOutputsParseBack() throws {
        let report = budgetReport()
        let check = try BudgetChecker.check(report, against: try Budget.parse(yaml: issueBudget))
        let doc = try XMLDocument(data: Data(CheckOutput.junit(check).utf8))
        #expect(try doc.nodes(forXPath: "//testcase").count == 4)
        #expect(try doc.nodes(forXPath: "//testcase/failure").count == 3)
        let md = CheckOutput.markdown(check)
        let table = md.split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") }
        #expect(table.count == 6)
        #expect(table.allSatisfy { markdownCells($0).count == 4 })
        #expect(md.contains("- at 10m: evicted (40 MB)"))
        let json = try #require(try JSONSerialization.jsonObject(with: try CheckOutput.json(check)) as? [String: Any])
        #expect((json["results"] as? [Any])?.count == 4)
        let html = CheckOutput.html(check, report: report)
        #expect(html.contains("<svg id=\"mem\"") && !html.contains("src=") && !html.contains("https://"))
    }

    @Test(arguments: [
        "",
        "just text",
        "apps: [mail]",
        "apps: {mail: {evictions: 1}}",
        "apps: {mail: {evictions: {most: 1}}}",
        "apps: {mail: {evictions: {max: many}}}",
        "apps: {mail: {peakFootprintBytes: {max: 2s}}}",
        "apps: {mail: {evictions: {min: 3, max: 1}}}",
        "apps: {mail: {evictions: {}}}",
        "sumary: {evictions: {max: 1}}",
        "apps: {mail: {evictions: {max: [1]}}}",
        "key: [unclosed",
    ])
    func malformedBudgets(text: String) {
        #expect(throws: WorkloadError.self) { try Budget.parse(yaml: text) }
    }

    @Test func budgetsForUnknownAppsOrMetricsAreLocatedWithASuggestion() throws {
        let report = budgetReport()
        let app = #expect(throws: WorkloadError.self) {
            try BudgetChecker.check(report, against: try Budget.parse(yaml: "apps: {mial: {evictions: {max: 1}}}", file: "b.yaml"))
        }
        #expect(app?.description.hasPrefix("b.yaml:1:14: apps.mial: no app 'mial' in the report (did you mean 'mail'?)") == true,
                "\(app?.description ?? "")")
        let metric = #expect(throws: WorkloadError.self) {
            try BudgetChecker.check(report, against: try Budget.parse(yaml: "summary:\n  evictoins: {max: 1}", file: "b.yaml"))
        }
        #expect(metric?.description.hasPrefix("b.yaml:2:14: summary.evictoins: 'evictoins' is not a metric of summary (did you mean 'evictions'?)") == true,
                "\(metric?.description ?? "")")
    }

    @Test func budgetLimitsOutOfRangeNameTheLargestValue() {
        let error = #expect(throws: WorkloadError.self) { try Budget.parse(yaml: "summary: {evictions: {max: 1e308}}", file: "b.yaml") }
        #expect(error?.description == "b.yaml:1:28: summary.evictions.max: '1e308' is too large; the largest number accepted is 9007199254740992 (2^53)")
        let size = #expect(throws: WorkloadError.self) {
            try Budget.parse(yaml: "apps: {mail: {peakFootprintBytes: {max: 99999999999999999999GB}}}", file: "b.yaml")
        }
        #expect(size?.message == "'99999999999999999999GB' is too large; the largest size accepted is 4096GB")
    }
}

@Suite struct ExportTests {
    @Test func traceIsTheSameWriterAsTheRunsTraceJSON() throws {
        var report = budgetReport()
        let t1 = SimEvent(atUs: 0, app: "mail", .transition(from: .notRunning, to: .active, cause: .launch(.cold)))
        let t2 = SimEvent(atUs: 60_000_000, app: "mail", .transition(from: .active, to: .suspended, cause: nil))
        report.events.insert(contentsOf: [t1, t2], at: 0)
        report.timeline.usedBytes = [[0, 0], [60_000_000, 160 << 20]]
        let data = try Exporter.export(report, format: .trace)
        #expect(data == (try TraceJSON.encode(report)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.contains { $0["name"] as? String == "active" && ($0["dur"] as? NSNumber)?.int64Value == 60_000_000 })
    }

    @Test(arguments: [ExportFormat.speedscope, .folded, .pprof])
    func sampleFormatsNeedSamples(format: ExportFormat) {
        #expect(throws: ExportError.noStackSamples(format: format.rawValue)) {
            try Exporter.export(makeReport(), format: format)
        }
        #expect(ExportError.noStackSamples(format: "folded").description.hasPrefix("this report has no stack samples"))
    }

    @Test func loaderRefusesMissingFilesNonReportsAndUnknownSchemas() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ReportFileError.missingFile(dir.appendingPathComponent("nope.json").path)) {
            try ReportLoader.load(dir.appendingPathComponent("nope.json").path)
        }
        let notReport = dir.appendingPathComponent("x.json")
        try Data("[1,2]".utf8).write(to: notReport)
        #expect(throws: ReportFileError.self) { try ReportLoader.load(notReport.path) }
        let future = dir.appendingPathComponent("future.json")
        try Data(#"{"schema":"memprof.report/9"}"#.utf8).write(to: future)
        #expect(throws: ReportFileError.notAReport(future.path, .unknownSchema("memprof.report/9"))) {
            try ReportLoader.load(future.path)
        }
        try Data(fixtureJSON.utf8).write(to: dir.appendingPathComponent("report.json"))
        #expect(try ReportLoader.load(dir.path).run.workload == "fixture", "a folder with a report.json")
    }
}
