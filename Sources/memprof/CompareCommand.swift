import MemprofReportReader
import MemprofInput
import MemprofOutput
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofCompare
import MemprofFleet
import MemprofWorkload
import MemprofReport

/// `memprof compare BASE NEW`: every metric, its verdict, and the outputs CI reads (spec §11).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two reports metric by metric; exit 1 when something got worse.",
        discussion: """
            BASE and NEW are report.json files or folders holding one, or two fleet results (a sweep's folder \
            or its fleet.json). Counts (evictions, kills, launches, warnings) fail on any rise by default, \
            because the simulation is deterministic; sizes and durations fail beyond --threshold (default 5%). \
            The apps' own metrics come first; the internal counters (compressor, freezer) are shown as context, \
            not judged, unless --judge-internal or a direction in the thresholds file. Fleets are judged by a paired \
            test at --alpha, each change shown relative to the base mean with its 95% interval; only a threshold \
            you set holds a significant change back. \
            Exit 0 when nothing is worse, 1 when something is, 2 for bad input, 3 when an output cannot be written.
            """)

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

    @Option(help: "Only this app's metrics (repeat for more apps); the others neither show nor fail.")
    var app: [String] = []

    @Option(help: ArgumentHelp("Only metrics whose path starts with this (repeat for more): exits, exits.memoryPressure, suspendedMemory.*, summary.evictions.",
                               valueName: "pattern"))
    var metric: [String] = []

    @Flag(help: "Judge the internal counters (compressor.*, freezer.*) by their direction instead of showing them as context.")
    var judgeInternal = false

    @Flag(help: "Compare reports of different workloads.")
    var allowDifferent = false

    @Flag(help: "Show every metric, not only those that changed.")
    var all = false

    @OptionGroup var files: ResultFileOptions

    @Option(help: "Fleet results only: the significance level of the paired test (default 0.01).")
    var alpha: Double = 0.01

    func run() throws {
        var limits = Thresholds()
        if let thresholds {
            limits = try Thresholds.parse(yaml: try InputText.read(thresholds), file: thresholds)
        }
        if let threshold { limits.relative = try MetricValues.percent(threshold, option: "--threshold") }
        if let countThreshold { limits.countRelative = try MetricValues.percent(countThreshold, option: "--count-threshold") }
        if let minDelta { limits.minDelta = try MetricValues.number(minDelta, kind: nil, option: "--min-delta") }
        limits.judgeInternal = judgeInternal
        let filter = MetricFilter(apps: app, metrics: metric)
        if FleetCompare.isFleet(base) || FleetCompare.isFleet(new) { return try runFleet(thresholds: limits, filter: filter) }
        // The decisions are gathered while reading (marks, counts), not kept: memory stays bounded.
        // Each report's metrics are made once, as it is read, numbered in one table for both.
        let names = ScopedMetrics.NameTable()
        let baseDigest = DecisionDigest()
        let (baseReport, baseMetrics) = try ReportLoader.loadWithMetrics(base, options: ReportLoader.compareOptions,
                                                                         sink: baseDigest, names: names)
        let newDigest = DecisionDigest(base: baseDigest)
        let (newReport, newMetrics) = try ReportLoader.loadWithMetrics(new, options: ReportLoader.compareOptions,
                                                                       sink: newDigest, names: names)

        let comparison = try Comparer.compare(base: baseReport, new: newReport, thresholds: limits,
                                              allowDifferent: allowDifferent, filter: filter,
                                              metrics: (names, baseMetrics, newMetrics))
        try files.write(
            markdown: CompareOutput.markdown(comparison, all: all),
            html: { page in
                CompareHTML.comparison(comparison, base: baseReport, new: newReport, all: all,
                                       links: .beside(base: base, new: new, page: page),
                                       digests: (baseDigest, newDigest))
            },
            junit: { CompareOutput.junit(comparison) }, json: { try CompareOutput.json(comparison) })
        try StandardStream.out(CompareOutput.terminal(comparison, all: all, color: Terminal.stdoutWantsColor))
        if comparison.hasRegression { throw ExitCode(1) }
    }
}
