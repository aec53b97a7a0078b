import ArgumentParser
import Foundation
import MemprofCommandLine
import MemprofField
import MemprofCore
import MemprofOutput

/// `memprof field PAYLOADS... -o field.json`: a team's MetricKit payloads as the field per app,
/// device and OS, with intervals; field.json for tools.
struct FieldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "field",
        abstract: "Read MetricKit payloads (MXMetricPayload JSON) into the field per app, device and OS, with 95% intervals.",
        discussion: "Each argument is a payload file (one payload, or an array as didReceive hands them over) or a folder "
            + "of them (its .json files). A payload is one device-day. Prints exits per 1,000 days by reason and side "
            + "(Garwood's exact interval for fewer than 10 exits, else a bootstrap over days), time in each state, "
            + "launches and resumes a day, peak and suspended memory with their spread; writes the same as field.json.")

    @Argument(help: "Payload files or folders of them.")
    var payloads: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write field.json (default: field.json; -: standard output, "
                                                      + "instead of the table).", valueName: "file"), transform: OutputPath.named)
    var out: String = "field.json"

    @Option(help: ArgumentHelp("Only the payloads of this app (metaData.bundleIdentifier).", valueName: "bundle-id"))
    var app: String?

    func run() throws {
        var (files, read) = try FieldFiles.metricKitPayloads(payloads)
        if let app {
            read = read.filter { $0.bundleIdentifier == app }
            guard !read.isEmpty else { throw BadInput("no payload of \(app) (metaData.bundleIdentifier) in \(Format.count(files, "file"))") }
        }
        guard !read.isEmpty else { throw BadInput("no payloads: the files hold empty arrays") }
        let summary = FieldSummary(payloads: read, files: files)
        if out == "-" {
            try StandardStream.out(summary.json)
            return
        }
        try AtomicFiles.write(Data(summary.json.utf8), to: out)
        try StandardStream.out(summary.text)
        StandardStream.error("\(out): written\n")
    }
}
