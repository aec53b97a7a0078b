import MemprofCore
import MemprofReport

extension HTMLReport {
    /// Every compression, eviction, warning, kill and reclaim with the numbers behind it,
    /// filterable by app and kind; a long list keeps its first and last rows.
    func decisionsTable() -> String {
        let rows = Decisions.rows(report.events)
        let shown = HeadTail(rows, limit: options.tableLimit)
        var counts: [String: Int] = [:]
        for row in rows { counts[row.kind, default: 0] += 1 }
        let names = Dictionary(uniqueKeysWithValues: apps.map { ($0, report.apps[$0]?.name ?? $0) })

        var out = "<section id=\"decisions\"><h2>Decisions</h2>\n<div class=\"filters\">"
        out += "<label>app <select id=\"f-app\"><option value=\"\">all apps</option>"
        for app in apps { out += "<option value=\"\(app.html)\">\((names[app] ?? app).html)</option>" }
        out += "</select></label> <label>kind <select id=\"f-kind\"><option value=\"\">all kinds</option>"
        for kind in Decisions.kinds {
            out += "<option value=\"\(kind)\">\(kind) (\(HTMLText.count(counts[kind] ?? 0)))</option>"
        }
        out += "</select></label> <span id=\"f-count\">\(HTMLText.count(rows.count)) \(rows.count == 1 ? "decision" : "decisions")</span></div>\n"
        guard !rows.isEmpty else {
            return out + "<p class=\"empty\">No compressions, evictions, warnings or kills in this run.</p></section>\n"
        }
        out += "<div class=\"scroll\"><table id=\"dtable\"><thead><tr><th>time</th><th>kind</th><th>app</th><th>detail</th>"
            + "<th class=\"num\">bytes</th><th class=\"num\">needed</th><th class=\"num\">freed</th>"
            + "<th>candidates, in the order considered (✔ taken)</th></tr></thead>\n<tbody>\n"
        func row(_ r: DecisionRow) -> String {
            var candidates = ""
            for (index, candidate) in r.candidates.enumerated() {
                if index > 0 { candidates += ", " }
                let name = (names[candidate.app] ?? candidate.app).html
                candidates += "<span class=\"\(candidate.taken ? "taken" : "")\">\(candidate.taken ? "✔ " : "")\(name) "
                    + "\(Format.bytes(candidate.footprintBytes)) \(candidate.state.rawValue)</span>"
            }
            let involved = ([r.app] + r.candidates.filter(\.taken).map(\.app)).joined(separator: "|")
            return "<tr data-app=\"|\(involved.html)|\" data-kind=\"\(r.kind)\" data-t=\"\(r.atUs)\">"
                + "<td>\(Format.duration(r.atUs))</td><td><b class=\"kind k-\(r.kind)\">\(r.kind)</b></td>"
                + "<td>\((names[r.app] ?? r.app).html)</td><td>\(r.detail.html)</td>"
                + "<td class=\"num\">\(r.bytes.map(Format.bytes) ?? "")</td>"
                + "<td class=\"num\">\(r.neededBytes.map(Format.bytes) ?? "")</td>"
                + "<td class=\"num\">\(r.freedBytes.map(Format.bytes) ?? "")</td><td>\(candidates)</td></tr>\n"
        }
        for r in shown.head { out += row(r) }
        if shown.omitted > 0 {
            out += "<tr class=\"omitted\"><td colspan=\"8\">… \(HTMLText.count(shown.omitted)) \(shown.omitted == 1 ? "decision" : "decisions") left out here; "
                + "report.json has every one …</td></tr>\n"
        }
        for r in shown.tail { out += row(r) }
        return out + "</tbody></table></div></section>\n"
    }

    /// The per-app figures of report.json.
    func appTable() -> String {
        let duration = max(report.run.durationUs, 1)
        let states = AppState.allCases
        var out = "<section id=\"apps\"><h2>Apps</h2>\n<div class=\"scroll\"><table id=\"atable\"><thead><tr><th>app</th>"
        for state in states { out += "<th class=\"num\" title=\"share of the run in \(state.rawValue)\">\(state.rawValue)</th>" }
        out += "<th class=\"num\">launches cold / bg</th><th class=\"num\">resumes warm / flash</th>"
            + "<th class=\"num\">resume p50 / max</th><th class=\"num\">compr.</th><th class=\"num\">evict.</th>"
            + "<th class=\"num\">warnings</th><th class=\"num\">cold relaunch after kill</th><th>exits</th>"
            + "<th class=\"num\">peak</th><th class=\"num\">bg tasks ok / exp / killed</th>"
            + "<th class=\"num\">fetches ok / timed out</th><th class=\"num\">pushes ok / timed out</th></tr></thead>\n<tbody>\n"
        let shown = HeadTail(apps, limit: options.tableLimit)
        func row(_ app: String) -> String {
            guard let a = report.apps[app] else { return "" }
            var cells = "<tr><td>\(a.name.html)</td>"
            for state in states {
                let time = a.timeInStateUs[state.rawValue] ?? 0
                cells += "<td class=\"num\" title=\"\(Format.duration(time))\">\(HTMLText.percent(time, of: duration))</td>"
            }
            let exits = a.exits.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            cells += "<td class=\"num\">\(a.launches.cold) / \(a.launches.background)</td>"
                + "<td class=\"num\">\(a.launches.warm) / \(a.launches.fromCompressed)</td>"
                + "<td class=\"num\">\(a.resumeLatencyUs.count > 0 ? "\(Format.duration(a.resumeLatencyUs.p50)) / \(Format.duration(a.resumeLatencyUs.max))" : "–")</td>"
                + "<td class=\"num\">\(a.compressions)</td><td class=\"num\">\(a.evictions)</td>"
                + "<td class=\"num\">\(a.memoryWarnings)</td><td class=\"num\">\(a.coldRelaunchesAfterKill)</td>"
                + "<td>\(exits.isEmpty ? "–" : exits.html)</td><td class=\"num\">\(Format.bytes(a.peakFootprintBytes))</td>"
                + "<td class=\"num\">\(a.backgroundTasks.completed) / \(a.backgroundTasks.expiredEnded) / \(a.backgroundTasks.expiredKilled)</td>"
                + "<td class=\"num\">\(a.fetches.completed) / \(a.fetches.timedOut)</td>"
                + "<td class=\"num\">\(a.pushes.completed) / \(a.pushes.timedOut)</td></tr>\n"
            return cells
        }
        for app in shown.head { out += row(app) }
        if shown.omitted > 0 {
            out += "<tr class=\"omitted\"><td colspan=\"\(states.count + 13)\">… \(HTMLText.count(shown.omitted)) apps left out here; report.json has every one …</td></tr>\n"
        }
        for app in shown.tail { out += row(app) }
        return out + "</tbody></table></div></section>\n"
    }
}
