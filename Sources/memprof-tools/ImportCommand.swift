import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofField
import MemprofWorkload
import MemprofOutput

/// `memprof import JETSAM.ips -o workload.yaml`: a device's JetsamEvent report as a workload that
/// replays the moment before the kill (issue 16).
struct ImportCommand: ParsableCommand {
    static let configuration = ToolCommand.`import`.configuration

    @Argument(help: "The JetsamEvent report (.ips).")
    var report: String

    @Option(name: [.short, .long], help: "Where to write the workload (default: standard output).")
    var out: String?

    @Option(help: "The workload's name ([a-z0-9-]+; default: from the file name).")
    var name: String?

    func run() throws {
        let url = URL(fileURLWithPath: report)
        guard FileManager.default.fileExists(atPath: url.path) else { throw BadInput("\(report): no such file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= JetsamReportReader.maxBytes else {
            throw IPSError(file: report, line: 0, column: 0, keyPath: "",
                           message: "the file is larger than \(JetsamReportReader.maxBytes >> 20) MB; a JetsamEvent report is far smaller")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw BadInput("\(report): cannot read it (\(error.localizedDescription))") }
        let parsed = try JetsamReportReader(file: report).read(Array(data))
        let workloadName = try name.map(Self.checkedName) ?? Self.name(fromFile: url)
        let result = JetsamImport(file: report, name: workloadName).workload(from: parsed)
        let kills = result.expectedKills.isEmpty ? "no memory kill to replay"
            : "under xnu it kills " + result.expectedKills.map { "\($0.app) (\($0.reason))" }.joined(separator: ", ")
        let facts = result.facts.map { "\n  not replayed: \($0)" }.joined()
        if let out, out != "-" {
            try AtomicFiles.write(Data(result.yaml.utf8), to: out)
            FileHandle.standardError.write(Data("\(out): written; \(kills)\(facts)\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data(result.yaml.utf8))
            FileHandle.standardError.write(Data("\(report): \(kills)\(facts)\n".utf8))
        }
    }

    static func checkedName(_ s: String) throws -> String {
        guard !s.isEmpty, s.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw BadInput("--name '\(s)' is not a valid workload name; use lowercase letters, digits and '-'")
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
        while out.hasSuffix("-") { out.removeLast() }
        while out.hasPrefix("-") { out.removeFirst() }
        return out.isEmpty ? "imported" : out
    }
}
