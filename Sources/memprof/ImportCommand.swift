import ArgumentParser
import MemprofCommandLine
import MemprofCore
import Foundation
import MemprofField
import MemprofInput
import MemprofWorkload
import MemprofOutput

/// `memprof import JETSAM.ips -o workload.yaml`: a device's JetsamEvent report as a workload that
/// replays the moment before the kill.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a JetsamEvent .ips report into a workload that replays the kill under the xnu policy.",
        discussion: "Device RAM comes from the report's product (or its memory pages), every app process becomes "
            + "an app with its resident size and state, daemons become reserved memory. Run the workload with "
            + "`memprof run`; the killed process dies again for the reason the report names.")

    @Argument(help: "The JetsamEvent report (.ips).")
    var report: String

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the workload (default, or -: standard output).",
                                                      valueName: "file"), transform: OutputPath.named)
    var out: String?

    @Option(help: "The workload's name ([a-z0-9-]+; default: from the file name).")
    var name: String?

    func run() throws {
        let url = URL(fileURLWithPath: report)
        let bytes = try FieldFiles.read(report, maxBytes: JetsamReportReader.maxBytes, farSmaller: "a JetsamEvent report is")
        let parsed = try JetsamReportReader(file: report).read(bytes)
        let workloadName = try name.map(Self.checkedName) ?? Self.name(fromFile: url)
        // Runs the replay: the kills printed are those `run` makes, and a workload `run` would
        // refuse is refused here.
        let result = try JetsamImport(file: report, name: workloadName).workload(from: parsed)
        if let out, out != "-" {
            try AtomicFiles.write(Data(result.yaml.utf8), to: out)
            StandardStream.error("\(out): written; \(result.summary())\n")
        } else {
            try StandardStream.out(result.yaml)
            StandardStream.error("\(report): \(result.summary())\n")
        }
    }

    static func checkedName(_ s: String) throws -> String {
        guard !s.isEmpty, s.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw BadInput("--name '\(s)' is not a valid workload name; use lowercase letters, digits and '-'")
        }
        guard s.utf8.count <= Workload.maxNameLength else {
            throw BadInput("--name is \(s.utf8.count) characters long; a workload's name is at most \(Workload.maxNameLength)")
        }
        return s
    }

    /// `JetsamEvent-2020-01-03-041113.ips` → `jetsamevent-2020-01-03-041113`.
    static func name(fromFile url: URL) -> String {
        var base = url.lastPathComponent
        for ext in [".synced", ".ips", ".json", ".txt"] where base.hasSuffix(ext) { base = String(base.dropLast(ext.count)) }
        var out = ""
        for c in base.lowercased() {
            if ("a"..."z").contains(c) || ("0"..."9").contains(c) { out.append(c) } else if !out.hasSuffix("-") { out.append("-") }
        }
        while out.hasPrefix("-") { out.removeFirst() }
        if out.utf8.count > Workload.maxNameLength { out = String(out.prefix(Workload.maxNameLength)) }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "imported" : out
    }
}
