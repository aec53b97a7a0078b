import MemprofCore
import MemprofReport

extension HTMLReport {
    /// Jetsam reports shown on the page (the first and last of a long run's; report.json has all).
    static let jetsamLimit = 100
    /// How many of the first and of the last jetsam reports are shown when not all are.
    public static var jetsamShownHalf: Int { max(1, jetsamLimit / 2) }

    /// A view per memory kill, shaped like the jetsam event reports iOS writes: the processes at
    /// that moment in the order the policy considered them (its candidates first, with band and
    /// state, then the processes it did not consider), resident pages, which one was killed and
    /// why, and the largest. Each opens from its kill's marker on the chart and from the decisions table.
    func jetsamSection(_ history: HistoryDigest.Drawn) -> String {
        let count = history.jetsamCount
        guard count > 0 else { return "" }
        let names = self.names
        func name(_ app: String) -> String { (names[app] ?? app).html }

        var out = "<section id=\"jetsam\"><h2>Memory kills</h2>\n<p class=\"hint\">\(HTMLText.count(count)) "
            + "\(count == 1 ? "kill" : "kills"), each with the snapshot iOS would write as a jetsam event report. "
            + "Click a ▼ above the memory chart or a “jetsam report” link in the decisions to open one."
        if history.jetsam.count < count {
            out += " The first and last \(history.jetsam.count / 2) are here; report.json has every one."
        }
        out += "</p>\n"
        for (index, event) in history.jetsam {
            let decision = history.decisionFor[index]
            let candidates = decision?.candidates ?? []
            let order = Dictionary(candidates.enumerated().map { ($1.app, $0) }, uniquingKeysWith: { a, _ in a })
            let processes = event.processes.enumerated().sorted { a, b in
                (order[a.element.name] ?? Int.max, a.offset) < (order[b.element.name] ?? Int.max, b.offset)
            }.map(\.element)
            let pageSize = max(event.pageSize, 1)
            out += "<details class=\"jetsam\" id=\"jetsam-\(index)\"><summary><b>\(Format.duration(event.atUs))</b> · "
                + "<span class=\"taken\">\(name(event.killed))</span> killed (\(event.exitReason.rawValue))"
            if let decision, decision.kind == .eviction || decision.kind == .reclaim {
                out += " to make room for \(name(decision.app))"
                if let needed = decision.neededBytes { out += ", which needed \(Format.bytes(needed))" }
            }
            out += " · largest \(name(event.largestProcess)) · "
                + "\(HTMLText.count(event.processes.count + (event.unlisted?.processes ?? 0))) processes</summary>\n"
            out += "<div class=\"hscroll\"><table class=\"jt\"><thead><tr><th class=\"num\">considered</th><th>process</th><th class=\"num\">band</th>"
                + "<th>state</th><th class=\"num\">rpages</th><th class=\"num\">resident</th><th>reason</th></tr></thead><tbody>"
            for process in processes {
                let candidate = order[process.name].map { candidates[$0] }
                var notes: [String] = []
                if let reason = process.reason { notes.append("killed: \(reason)") }
                if process.name == event.largestProcess { notes.append("largest process") }
                out += "<tr class=\"\(process.name == event.killed ? "killed" : "")\">"
                    + "<td class=\"num\">\(order[process.name].map { String($0 + 1) } ?? "–")</td>"
                    + "<td>\(name(process.name))</td><td class=\"num\">\(candidate?.band.map(String.init) ?? "–")</td>"
                    + "<td>\(process.states.joined(separator: ", ").html)</td><td class=\"num\">\(HTMLText.count(Int(process.rpages)))</td>"
                    + "<td class=\"num\">\(Format.bytes(process.rpages * pageSize))</td><td>\(notes.joined(separator: ", ").html)</td></tr>"
            }
            out += "</tbody></table></div>"
            if let rest = event.unlisted {
                out += "<p class=\"hint jetsam-unlisted\">"
                    + "\(HTMLText.count(rest.processes)) smaller \(rest.processes == 1 ? "process" : "processes") not listed "
                    + "(a snapshot lists the largest \(HTMLText.count(JetsamEvent.listLimit))): "
                    + "\(HTMLText.count(Int(rest.rpages))) pages, \(Format.bytes(rest.rpages * pageSize)).</p>"
            }
            if let pool = event.compressor { out += Self.compressorLine(pool, pageSize: pageSize) }
            out += "<p class=\"hint\">page size \(Format.bytes(pageSize)); "
                + (candidates.isEmpty ? "the kill was not a reclaim, so processes are in the snapshot's order."
                   : "“considered” is the order in which the policy looked at the candidates; – marks processes it did not consider.")
                + "</p></details>\n"
        }
        return out + "</section>\n"
    }

    /// The in-RAM compressor at a kill, as a jetsam report's `memoryStatus` gives it: the pages the
    /// pool takes and those it holds (with their ratio), and the pages compressed and decompressed
    /// since the run began.
    static func compressorLine(_ pool: JetsamEvent.Compressor, pageSize: Bytes) -> String {
        var text = "compressor: \(HTMLText.count(Int(pool.pages))) pages (\(Format.bytes(pool.pages * pageSize))) holding "
            + "\(HTMLText.count(Int(pool.uncompressedPages))) (\(Format.bytes(pool.uncompressedPages * pageSize)))"
        if pool.pages > 0 {
            text += ", " + Format.ratio(Double(pool.uncompressedPages) / Double(pool.pages))
        }
        text += "; \(HTMLText.count(Int(pool.compressions))) pages compressed and "
            + "\(HTMLText.count(Int(pool.decompressions))) decompressed since the run began"
        return "<p class=\"hint jetsam-pool\">\(text.html)</p>"
    }
}
