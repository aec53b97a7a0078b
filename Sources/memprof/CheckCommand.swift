import MemprofOutput
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofWorkload
import MemprofReport

/// `memprof check REPORT --budget FILE`: absolute budgets (spec §11, issue 5).
struct CheckCommand: ParsableCommand {
    static let configuration = ToolCommand.check.configuration

    @Argument(help: "The report (report.json or its folder).")
    var report: String

    @Option(help: "The budget file (YAML).")
    var budget: String

    @Option(help: "Write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set).")
    var markdown: String?

    @Option(help: "Write a self-contained HTML page.")
    var html: String?

    @Option(help: "Write JUnit XML, one test case per budget.")
    var junit: String?

    @Option(help: "Write the results as JSON.")
    var json: String?

    func run() throws {
        // The report is read keeping only what the check and its page show: the events behind
        // the budgets' metrics and the chart's decisions, and memory series reduced for the chart.
        // A broken report is named before a broken budget file, as the arguments are ordered.
        var options = ReportLoader.compareOptions
        options.candidates = true  // the taken ones say what an eviction made room for
        options.takenCandidatesOnly = true
        let budgetFile: Budget
        do {
            budgetFile = try Budget.parse(yaml: try InputText.read(budget), file: budget)
        } catch {
            _ = try ReportLoader.load(report, options: options)
            throw error
        }
        let paths = budgetFile.limits.map { MetricPath($0.metric) }
        options.eventKinds = ReportLoader.decisionKinds.union(Evidence.eventKinds(for: paths))
        // The events are not kept: the chart's marks and each budget's causes are gathered while reading.
        let decisions = DecisionDigest()
        let evidence = Evidence.Digest(paths: paths, limit: BudgetChecker.maxCauses)
        decisions.send(to: evidence)
        let loaded = try ReportLoader.load(report, options: options, sink: decisions)
        let check = try BudgetChecker.check(loaded, against: budgetFile, evidence: evidence) { kinds, visit in
            guard let range = decisions.eventsRange else { return }
            try withoutActuallyEscaping(visit) { visit in
                try ReportLoader.rereadEvents(report, at: range, kinds: kinds, sink: EventVisitor(visit))
            }
        }
        let markdownText = CheckOutput.markdown(check)
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        try Terminal.appendToStepSummary(markdownText)
        if let html { try AtomicFiles.write(Data(CheckOutput.html(check, report: loaded, marks: decisions.finish().marks).utf8), to: html) }
        if let junit { try AtomicFiles.write(Data(CheckOutput.junit(check).utf8), to: junit) }
        if let json { try AtomicFiles.write(try CheckOutput.json(check), to: json) }
        print(CheckOutput.terminal(check, color: Terminal.stdoutWantsColor), terminator: "")
        if !check.passed { throw ExitCode(1) }
    }
}
