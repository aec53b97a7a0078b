import MemprofReportReader
import MemprofInput
import MemprofOutput
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofFleet
import MemprofWorkload
import MemprofReport
import MemprofCore

/// `memprof check REPORT --budget FILE`: absolute budgets (spec §11).
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
            Each broken budget prints what was allowed, what happened and the events behind it. \
            For a fleet result (a sweep's folder or its fleet.json) budgets are on statistics of each cell's runs, \
            one run being one day of the workload:
              apps:
                news: {exits.memoryPressure: {mean: {max: 0.3}, shareAboveZero: {max: 25%}}}
              cells:
                device.preset=iphone-11: {apps: {news: {exits.memoryPressure: {mean: {max: 0.2}}}}}
            A broken one lists its cell's worst runs with the line that replays each. \
            Exit 0 when every budget holds, 1 when one is broken, 2 for bad input, 3 when an output cannot be written.
            """)

    @Argument(help: "The report (report.json or its folder), or a fleet result (a sweep's folder or its fleet.json).")
    var report: String

    @Option(help: "The budget file (YAML).")
    var budget: String

    @OptionGroup var files: ResultFileOptions

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
        if FleetCompare.isFleet(report) { return try checkFleet(budgetFile) }
        let paths = budgetFile.limits.map { MetricPath($0.metric) }
        options.eventKinds = SimEvent.Kind.decisionRowKinds.union(Evidence.eventKinds(for: paths))
        // The events are not kept: the chart's marks and each budget's causes are gathered while reading.
        let decisions = DecisionDigest()
        let evidence = Evidence.Digest(paths: paths, limit: BudgetChecker.maxCauses)
        decisions.send(to: evidence)
        let (loaded, metrics) = try ReportLoader.loadWithMetrics(report, options: options, sink: decisions)
        let check = try BudgetChecker.check(loaded, against: budgetFile, metrics: metrics, evidence: evidence) { kinds, visit in
            guard let range = decisions.eventsRange else { return }
            try withoutActuallyEscaping(visit) { visit in
                try ReportLoader.rereadEvents(report, at: range, kinds: kinds, sink: EventVisitor(visit))
            }
        }
        try files.write(markdown: CheckOutput.markdown(check),
                        html: { _ in CheckOutput.html(check, report: loaded, marks: decisions.finish().marks) },
                        junit: { CheckOutput.junit(check) }, json: { try CheckOutput.json(check) })
        try StandardStream.out(CheckOutput.terminal(check, color: Terminal.stdoutWantsColor))
        if !check.passed { throw ExitCode(1) }
    }

    /// A fleet result against budgets on statistics of each cell's runs.
    func checkFleet(_ budgetFile: Budget) throws {
        let check = try FleetBudgetChecker.check(report, against: budgetFile)
        try files.write(markdown: CheckOutput.markdown(check), html: { _ in CheckOutput.html(check, report: nil) },
                        junit: { CheckOutput.junit(check) }, json: { try CheckOutput.json(check) })
        try StandardStream.out(CheckOutput.terminal(check, color: Terminal.stdoutWantsColor))
        if !check.passed { throw ExitCode(1) }
    }
}
