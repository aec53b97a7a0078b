import MemprofReportReader
import MemprofOutput
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofCompare
import MemprofExport
import MemprofFleet
import MemprofReport
import MemprofCore

/// `memprof export REPORT --format F`: a report in another viewer's format (spec §11).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Rewrite a report for another viewer: trace, speedscope, folded, pprof, benchmark, jetsam or metrickit.",
        discussion: "trace opens in ui.perfetto.dev or chrome://tracing. speedscope, folded and pprof need "
            + "stack samples in the report. benchmark is the report's metrics for github-action-benchmark "
            + "(customSmallerIsBetter). jetsam writes one JetsamEvent .ips file per moment of memory kills into "
            + "the folder -o names; metrickit writes MXMetricPayload-shaped JSON, one payload per app; "
            + "of a fleet result (its folder or fleet.json), metrickit writes one such file per cell, "
            + "cell-<index>.json, into the folder -o names: a payload per run and app (each run a device-day).")

    @Argument(help: "The report (report.json or its folder), or for metrickit a fleet result (its folder or fleet.json).")
    var report: String

    @Option(help: "The format to write.")
    var format: ExportFormat

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write: a file, or a folder for jetsam and a fleet's "
                                                      + "metrickit (default, or -: standard output).", valueName: "path"),
            transform: OutputPath.named)
    var out: String?

    func run() throws {
        if format.isBinary, out == nil || out == "-", isatty(STDOUT_FILENO) == 1 {
            throw BadInput("\(format.rawValue) is binary (gzip-compressed); refusing to write it to a terminal. "
                + "Write it to a file with -o FILE, or redirect standard output")
        }
        if FleetCompare.isFleet(report) {
            guard format == .metrickit else {
                throw BadInput("\(report) is a fleet result: only --format metrickit exports one (a payload array per cell)")
            }
            guard let out, out != "-" else {
                throw BadInput("metrickit of a fleet writes one file per cell: name a folder with -o DIR")
            }
            let files = try FleetMetricKit.files(report)
            try AtomicFiles.write(files, into: URL(fileURLWithPath: out))
            StandardStream.error("\(out): \(Format.count(files.count, "cell")) written (cell-<index>.json)\n")
            return
        }
        let loaded = try ReportLoader.load(report)
        if format.isFolder {
            guard let out, out != "-" else {
                throw BadInput("\(format.rawValue) writes one .ips file per moment of memory kills: name a folder with -o DIR")
            }
            let files = Exporter.exportFiles(loaded, format: format)
            try AtomicFiles.write(files, into: URL(fileURLWithPath: out))
            let what = files.isEmpty ? "no memory kills in this report: nothing written"
                : "\(Format.count(files.count, "JetsamEvent report")) written"
            StandardStream.error("\(out): \(what)\n")
            return
        }
        let data = try Exporter.export(loaded, format: format)
        if let out, out != "-" {
            try AtomicFiles.write(data, to: out)
        } else {
            try StandardStream.write(data)
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
