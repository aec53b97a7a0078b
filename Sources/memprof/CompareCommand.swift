import MemprofOutput
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofCompare
import MemprofFleet
import MemprofWorkload
import MemprofReport

/// `memprof compare BASE NEW`: every metric, its verdict, and the outputs CI reads (spec §11, issue 5).
struct CompareCommand: ParsableCommand {
    static let configuration = ToolCommand.compare.configuration

    @Argument(help: "The base report (report.json or its folder).")
    var base: String

    @Argument(help: "The new report.")
    var new: String

    @Option(help: "Relative threshold for sizes and durations, e.g. 5%.")
    var threshold: String?

    @Option(help: "Relative threshold for counts (default 0%: any rise is worse).")
    var countThreshold: String?

    @Option(help: "Absolute floor: a change smaller than this is never worse or better (default 1).")
    var minDelta: String?

    @Option(help: "A YAML file of thresholds and per-metric overrides.")
    var thresholds: String?

    @Flag(help: "Compare reports of different workloads.")
    var allowDifferent = false

    @Flag(help: "Show every metric, not only those that changed.")
    var all = false

    @Option(help: "Write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set).")
    var markdown: String?

    @Option(help: "Write a self-contained HTML page.")
    var html: String?

    @Option(help: "Write JUnit XML, one test case per metric.")
    var junit: String?

    @Option(help: "Write the comparison as JSON.")
    var json: String?

    @Option(help: "Fleet results only: the significance level of the paired test (default 0.01).")
    var alpha: Double = 0.01

    func run() throws {
        var limits = Thresholds()
        if let thresholds {
            limits = try Thresholds.parse(yaml: try InputText.read(thresholds), file: thresholds)
        }
        if let threshold { limits.relative = try Quantities.percent(threshold, option: "--threshold") }
        if let countThreshold { limits.countRelative = try Quantities.percent(countThreshold, option: "--count-threshold") }
        if let minDelta { limits.minDelta = try Quantities.number(minDelta, kind: nil, option: "--min-delta") }
        if FleetCompare.isFleet(base) || FleetCompare.isFleet(new) { return try runFleet(thresholds: limits) }
        // The decisions are gathered while reading (marks, counts), not kept: memory stays bounded.
        let baseDigest = DecisionDigest()
        let baseReport = try ReportLoader.load(base, options: ReportLoader.compareOptions, sink: baseDigest)
        let newDigest = DecisionDigest(base: baseDigest)
        let newReport = try ReportLoader.load(new, options: ReportLoader.compareOptions, sink: newDigest)

        let comparison = try Comparer.compare(base: baseReport, new: newReport, thresholds: limits,
                                              allowDifferent: allowDifferent)
        let markdownText = CompareOutput.markdown(comparison, all: all)
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        try Terminal.appendToStepSummary(markdownText)
        if let html {
            let page = CompareHTML.comparison(comparison, base: baseReport, new: newReport, all: all,
                                              links: .beside(base: base, new: new, page: html),
                                              digests: (baseDigest, newDigest))
            try AtomicFiles.write(Data(page.utf8), to: html)
        }
        if let junit { try AtomicFiles.write(Data(CompareOutput.junit(comparison).utf8), to: junit) }
        if let json { try AtomicFiles.write(try CompareOutput.json(comparison), to: json) }
        print(CompareOutput.terminal(comparison, all: all, color: Terminal.stdoutWantsColor), terminator: "")
        if comparison.hasRegression { throw ExitCode(1) }
    }
}
