import MemprofOutput
import ArgumentParser
import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofWorkload
import MemprofReport

/// `memprof check REPORT --budget FILE`: absolute budgets (spec §11, issue 5).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a report against absolute budgets; exit 1 when one is broken.",
        discussion: """
            The budget file maps metrics to limits, e.g.
              apps:
                mail: {evictions: {max: 1}, exits.memoryLimit: {max: 0}, peakFootprintBytes: {max: 150MB}}
              summary:
                backgroundTasks.expiredKilled: {max: 0}
            Each broken budget prints what was allowed, what happened and the events behind it.
            """)

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
        options.eventKinds = ReportLoader.decisionKinds.union(Evidence.eventKinds(for: budgetFile.limits.map { MetricPath($0.metric) }))
        let loaded = try ReportLoader.load(report, options: options)
        let check = try BudgetChecker.check(loaded, against: budgetFile)
        let markdownText = CheckOutput.markdown(check)
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        try Terminal.appendToStepSummary(markdownText)
        if let html { try AtomicFiles.write(Data(CheckOutput.html(check, report: loaded).utf8), to: html) }
        if let junit { try AtomicFiles.write(Data(CheckOutput.junit(check).utf8), to: junit) }
        if let json { try AtomicFiles.write(try CheckOutput.json(check), to: json) }
        print(CheckOutput.terminal(check, color: Terminal.stdoutWantsColor), terminator: "")
        if !check.passed { throw ExitCode(1) }
    }
}
