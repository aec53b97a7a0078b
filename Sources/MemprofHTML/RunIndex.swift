import MemprofOutput
import Foundation
import MemprofCore
import MemprofReport
import MemprofReportReader

/// The list of runs in a reports folder (`Reports/index.html`, and the page `memprof serve`
/// answers `/` with): workload, device, date and headline numbers, with links to each run's
/// HTML, JSON and trace. Links are relative, so the same page works from `file://` and over HTTP.
public enum RunIndex {
    public struct Entry: Sendable, Hashable {
        /// The run's folder name, relative to the reports folder.
        public var folder: String
        public var workload: String
        public var device: String
        public var policy: String
        public var seed: UInt64
        public var durationUs: Microseconds
        public var generatedAt: String
        public var evictions: Int
        public var memoryKills: Int
        public var memoryWarnings: Int
        public var coldRelaunchesAfterKill: Int
        public var peakUsedBytes: Bytes
        public var hasHTML: Bool
        public var hasTrace: Bool
    }

    /// The runs found in `directory`: every folder directly under it holding a report.json of a
    /// schema this version reads, newest first. Unreadable folders are skipped.
    public static func scan(_ directory: URL) -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return newestFirst(names.sorted().filter { !$0.hasPrefix(".") }.compactMap { entry($0, in: directory) })
    }

    /// The run in folder `name` of `directory`, or nil when it holds no readable report.json of
    /// a schema this version reads.
    public static func entry(_ name: String, in directory: URL) -> Entry? {
        let fm = FileManager.default
        let folder = directory.appendingPathComponent(name)
        let json = folder.appendingPathComponent("report.json")
        // Through the report reader, like every reader of a report: its head, no event, snapshot or series.
        guard let report = try? ReportLoader.loadHead(json.path) else { return nil }
        let terminations = report.summary.terminations
        return Entry(
            folder: name, workload: report.run.workload, device: report.device.name,
            policy: report.policy.name, seed: report.run.seed, durationUs: report.run.durationUs,
            generatedAt: report.host.generatedAt,
            evictions: report.summary.evictions,
            memoryKills: ExitReason.memoryKills(in: terminations),
            memoryWarnings: report.summary.memoryWarnings,
            coldRelaunchesAfterKill: report.summary.coldRelaunchesAfterKill,
            peakUsedBytes: report.summary.peakUsedBytes,
            hasHTML: fm.fileExists(atPath: folder.appendingPathComponent("report.html").path),
            hasTrace: fm.fileExists(atPath: folder.appendingPathComponent("trace.json").path))
    }

    /// The index's order: newest first, then by folder name.
    public static func newestFirst(_ entries: [Entry]) -> [Entry] {
        entries.sorted { ($0.generatedAt, $1.folder) > ($1.generatedAt, $0.folder) }
    }

    /// The index page for `entries`.
    public static func render(_ entries: [Entry], title: String = "memprof runs") -> String {
        var out = HTMLAssets.head(title: title, contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'")
        out += """
        <header><h1>\(title.html) <span>\(entries.count) run\(entries.count == 1 ? "" : "s")</span></h1></header>

        """
        guard !entries.isEmpty else {
            return out + "<p class=\"empty\">No runs yet: <code>memprof run</code> writes one here.</p>\n</body>\n</html>\n"
        }
        out += "<div class=\"scroll\"><table id=\"runs\"><thead><tr><th>run</th><th>workload</th><th>device</th><th>policy</th>"
            + "<th class=\"num\">seed</th><th class=\"num\">duration</th><th>date</th><th class=\"num\">evictions</th>"
            + "<th class=\"num\">memory kills</th><th class=\"num\">warnings</th><th class=\"num\">cold relaunches</th>"
            + "<th class=\"num\">peak RAM</th><th>files</th></tr></thead>\n<tbody>\n"
        for entry in entries {
            let folder = entry.folder.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entry.folder
            let main = entry.hasHTML ? "\(folder)/report.html" : "\(folder)/report.json"
            var files = "<a href=\"\(folder.html)/report.json\">json</a>"
            if entry.hasHTML { files = "<a href=\"\(folder.html)/report.html\">html</a> · " + files }
            if entry.hasTrace { files += " · <a href=\"\(folder.html)/trace.json\">trace</a>" }
            out += "<tr><td><a href=\"\(main.html)\">\(entry.folder.html)</a></td><td>\(entry.workload.html)</td>"
                + "<td>\(entry.device.html)</td><td>\(entry.policy.html)</td><td class=\"num\">\(entry.seed)</td>"
                + "<td class=\"num\">\(Format.duration(entry.durationUs))</td><td>\(entry.generatedAt.html)</td>"
                + "<td class=\"num\">\(entry.evictions)</td><td class=\"num\">\(entry.memoryKills)</td>"
                + "<td class=\"num\">\(entry.memoryWarnings)</td><td class=\"num\">\(entry.coldRelaunchesAfterKill)</td>"
                + "<td class=\"num\">\(Format.bytes(entry.peakUsedBytes))</td><td>\(files)</td></tr>\n"
        }
        return out + "</tbody></table></div>\n<footer>Written by memprof \(MemprofVersion.current).</footer>\n</body>\n</html>\n"
    }

    /// Rewrites `directory/index.html` from what the folder holds now.
    public static func write(into directory: URL) throws {
        let page = render(scan(directory))
        try AtomicFiles.write([OutputFile(name: "index.html", data: Data(page.utf8))], into: directory)
    }
}
