import MemprofCore
import MemprofReport

extension HTMLReport {
    /// App display names by key.
    var names: [String: String] {
        Dictionary(uniqueKeysWithValues: apps.map { ($0, report.apps[$0]?.name ?? $0) })
    }

    /// One row per decision of the system (a compression, a reclaim with what it took, the
    /// warnings of one rise, a kill), filterable by app and kind; a long list keeps its first and
    /// last rows. Kills link to their jetsam report.
    func decisionsTable(_ history: HistoryDigest.Drawn, jetsamShown: Set<Int>) -> String {
        let counts = history.counts
        let total = history.decisions
        let names = self.names
        let drawn = Set(drawnApps)
        func name(_ app: String) -> String { (names[app] ?? app).html }

        var out = "<section id=\"decisions\"><h2>Decisions</h2>\n<div class=\"filters\">"
        out += "<label>app <select id=\"f-app\"><option value=\"\">all apps</option>"
        for app in drawnApps { out += "<option value=\"\(app.html)\">\(name(app))</option>" }
        if foldedApps > 0 {
            out += "<option value=\"\" disabled>(the \(HTMLText.count(drawnApps.count)) most affected of \(HTMLText.count(apps.count)) apps)</option>"
        }
        out += "</select></label> <label>kind <select id=\"f-kind\"><option value=\"\">all kinds</option>"
        for kind in SimEvent.Kind.allCases where counts[kind, default: 0] > 0 {
            let word = kind.outputs.decisionRow ?? kind.rawValue
            out += "<option value=\"\(word)\">\(word) (\(HTMLText.count(counts[kind] ?? 0)))</option>"
        }
        out += "</select></label> <span id=\"f-count\">\(HTMLText.count(total)) \(total == 1 ? "decision" : "decisions")</span></div>\n"
        guard total > 0 else {
            return out + "<p class=\"empty\">No compressions, evictions, warnings or kills in this run.</p></section>\n"
        }
        // The rows come in chunks of their own tables (same fixed columns), each skipped by the
        // browser while scrolled out of view (`content-visibility: auto`): a long table costs
        // the page's first render no more than its first chunk.
        let columns = "<colgroup><col class=\"c-t\"><col class=\"c-k\"><col class=\"c-f\"><col class=\"c-n\"><col class=\"c-w\">"
            + "<col class=\"c-n\"><col class=\"c-c\"></colgroup>"
        out += "<div class=\"scroll\" id=\"dtable\"><table class=\"dt dhead\">\(columns)<thead><tr><th>time</th><th>decision</th><th>for</th>"
            + "<th class=\"num\">needed</th><th>taken, in order</th><th class=\"num\">freed</th>"
            + "<th>candidates, in the order considered (✔ taken)</th></tr></thead></table>\n"
        func row(_ r: DecisionRow) -> String {
            var what = ""
            switch r.kind {
            case .compression:
                what = "\(name(r.app)) compressed (\(Format.bytes(r.bytes ?? 0)))"
            case .eviction, .reclaim:
                what = r.taken.isEmpty ? "<span class=\"empty\">nothing to take</span>"
                    : Self.listed(r.taken.enumerated().map { "\($0.offset + 1). <span class=\"taken\">\(name($0.element.app))</span> \(Format.bytes($0.element.bytes))" })
            case .memoryWarning:
                var parts = [Self.listed(r.warned.map { "\(name($0.app)) freed \(Format.bytes($0.bytes))" })].filter { !$0.isEmpty }
                if !r.freedNothing.isEmpty {
                    parts.append("<span class=\"empty\">\(r.freedNothing.count == 1 ? "1 app" : "\(r.freedNothing.count) apps") freed nothing: "
                        + Self.listed(r.freedNothing.map(name)) + "</span>")
                }
                what = parts.joined(separator: "; ")
            case .exit:
                what = "<span class=\"taken\">\(name(r.app))</span> killed (\(r.detail.html))"
            default:
                // A kind declared later: the app, the kind's word, its `detail` and `bytes`.
                what = "\(name(r.app)) \(r.word)" + (r.detail.isEmpty ? "" : " (\(r.detail.html))")
                    + (r.bytes.map { " \(Format.bytes($0))" } ?? "")
            }
            for index in r.jetsam where jetsamShown.contains(index) {
                what += " <a class=\"jl\" href=\"#jetsam-\(index)\">jetsam report</a>"
            }
            var candidates = ""
            // The first candidates and those taken (up to `listLimit`); a long list's rest is in the
            // jetsam view and report.json.
            let limit = 8
            var shown = 0, takenShown = 0
            for (index, candidate) in r.candidates.enumerated() where index < limit || candidate.taken && takenShown < Self.listLimit {
                if candidate.taken { takenShown += 1 }
                if index > 0 { candidates += ", " }
                shown += 1
                candidates += "<span class=\"\(candidate.taken ? "taken" : "")\">\(candidate.taken ? "✔ " : "")\(name(candidate.app)) "
                    + "\(Format.bytes(candidate.footprintBytes)) \(candidate.state.rawValue)</span>"
            }
            let rest = r.candidates.count - shown
            if rest > 0 { candidates += " <span class=\"empty\">and \(HTMLText.count(rest)) more</span>" }
            let forWhom: String
            switch r.kind {
            case .eviction, .reclaim: forWhom = "\(name(r.app))\(r.detail.isEmpty ? "" : " (\(r.detail.html))")"
            case .memoryWarning:
                switch r.warning {
                case .pressure: forWhom = "pressure rise"
                case .script: forWhom = MemoryWarningCause.script.rawValue
                case .limit: forWhom = "\(name(r.app)) past 80% of its limit"
                case nil: forWhom = ""
                }
            default: forWhom = name(r.app)
            }
            let involved = foldedApps > 0 ? r.involved.filter(drawn.contains) : r.involved
            return "<tr data-app=\"|\(involved.joined(separator: "|").html)|\" data-kind=\"\(r.word)\" data-t=\"\(r.atUs)\">"
                + "<td>\(Format.duration(r.atUs))</td><td><b class=\"kind k-\(r.word)\">\(r.word)</b></td>"
                + "<td>\(forWhom)</td><td class=\"num\">\(r.neededBytes.map(Format.bytes) ?? "")</td><td>\(what)</td>"
                + "<td class=\"num\">\(r.freedBytes.map(Format.bytes) ?? "")</td><td>\(candidates)</td></tr>\n"
        }
        var rows = history.head.map(row)
        let omitted = total - history.head.count - history.tail.count
        if omitted > 0 {
            rows.append("<tr class=\"omitted\"><td colspan=\"7\">… \(HTMLText.count(omitted)) \(omitted == 1 ? "decision" : "decisions") left out here; "
                + "report.json has every one …</td></tr>\n")
        }
        rows += history.tail.map(row)
        for start in stride(from: 0, to: rows.count, by: Self.decisionChunk) {
            out += "<div class=\"dchunk\"><table class=\"dt\">\(columns)<tbody>\n"
            for text in rows[start..<min(rows.count, start + Self.decisionChunk)] { out += text }
            out += "</tbody></table></div>\n"
        }
        return out + "</div></section>\n"
    }

    /// Apps named in one list of a decision (those taken, warned, or that freed nothing); the
    /// rest are counted ("and 19,980 more"), as report.json names them all.
    static let listLimit = 20

    /// `items` joined, the first `listLimit` of them and a count of the others.
    static func listed(_ items: [String]) -> String {
        guard items.count > listLimit else { return items.joined(separator: ", ") }
        return items.prefix(listLimit).joined(separator: ", ")
            + " <span class=\"empty\">and \(HTMLText.count(items.count - listLimit)) more</span>"
    }

    /// Rows of the decisions table per chunk (see `decisionsTable`).
    static let decisionChunk = 40

    /// The per-app figures of report.json, what went wrong first; the time in each state as one
    /// bar (its percentages on hover). Columns that cannot apply to a Mac are left out there.
    func appTable() -> String {
        let duration = max(report.run.durationUs, 1)
        let mac = report.device.platform == .macos
        let states = AppState.allCases.filter { $0 != .notRunning && (!mac || $0 != .compressed) }
        var out = "<section id=\"apps\"><h2>Apps</h2>\n<div class=\"scroll\"><table id=\"atable\"><thead><tr><th>app</th>"
            + "<th class=\"num\">peak</th><th class=\"num\" title=\"cold relaunches after the system killed the app\">relaunched after kill</th>"
            + "<th>exits</th>"
        if !mac { out += "<th class=\"num\">evictions</th>" }
        out += "<th class=\"num\">warnings</th>"
        if !mac { out += "<th class=\"num\" title=\"completed / expired, ended / expired, killed\">bg tasks ok / exp / killed</th>" }
        out += "<th class=\"num\">launches cold / bg</th>"
            + "<th class=\"num\">resumes warm\(mac ? "" : " / flash")</th><th class=\"num\">resume p50 / max</th>"
        if !mac {
            out += "<th class=\"num\">compr.</th><th class=\"num\">fetches ok / late</th><th class=\"num\">pushes ok / late</th>"
        }
        out += "<th>time in state</th></tr></thead>\n<tbody>\n"
        let columns = mac ? 9 : 14
        let shown = HeadTail(apps, limit: options.tableLimit)
        func row(_ app: String) -> String {
            guard let a = report.apps[app] else { return "" }
            let exits = a.exits.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            var cells = "<tr><td>\(a.name.html)</td><td class=\"num\">\(Format.bytes(a.peakFootprintBytes))</td>"
                + "<td class=\"num\(a.coldRelaunchesAfterKill > 0 ? " hot" : "")\">\(a.coldRelaunchesAfterKill)</td>"
                + "<td class=\"wrap\">\(exits.isEmpty ? "–" : exits.html)</td>"
            if !mac { cells += "<td class=\"num\(a.evictions > 0 ? " hot" : "")\">\(a.evictions)</td>" }
            cells += "<td class=\"num\">\(a.memoryWarnings)</td>"
            if !mac {
                cells += "<td class=\"num\">\(a.backgroundTasks.completed) / \(a.backgroundTasks.expiredEnded) / \(a.backgroundTasks.expiredKilled)</td>"
            }
            cells += "<td class=\"num\">\(a.launches.cold) / \(a.launches.background)</td>"
                + "<td class=\"num\">\(a.launches.warm)\(mac ? "" : " / \(a.launches.fromCompressed)")</td>"
                + "<td class=\"num\">\(a.resumeLatencyUs.count > 0 ? "\(Format.duration(a.resumeLatencyUs.p50)) / \(Format.duration(a.resumeLatencyUs.max))" : "–")</td>"
            if !mac {
                cells += "<td class=\"num\">\(a.compressions)</td><td class=\"num\">\(a.fetches.completed) / \(a.fetches.timedOut)</td>"
                    + "<td class=\"num\">\(a.pushes.completed) / \(a.pushes.timedOut)</td>"
            }
            var bar = ""
            var title: [String] = []
            for state in states {
                let time = a.timeInStateUs[state.rawValue] ?? 0
                guard time > 0 else { continue }
                let share = Double(time) * 100 / Double(duration)
                bar += "<i class=\"s-\(state.rawValue)\" style=\"width:\(HTMLText.coordinate(share))%\"></i>"
                title.append("\(state.rawValue) \(HTMLText.percent(time, of: duration)) (\(Format.duration(time)))")
            }
            cells += "<td><span class=\"tbar\" title=\"\(title.joined(separator: ", ").html)\">\(bar)</span></td></tr>\n"
            return cells
        }
        for app in shown.head { out += row(app) }
        if shown.omitted > 0 {
            out += "<tr class=\"omitted\"><td colspan=\"\(columns)\">… \(HTMLText.count(shown.omitted)) apps left out here; report.json has every one …</td></tr>\n"
        }
        for app in shown.tail { out += row(app) }
        out += "</tbody></table></div>\n<ul class=\"legend\">"
        for state in states { out += "<li><i class=\"s-\(state.rawValue)\"></i>\(state.rawValue)</li>" }
        return out + "<li>blank: not running (hover a bar for its shares)</li></ul></section>\n"
    }
}
