import MemprofCore
import MemprofReport

extension HTMLReport {
    /// Each app's declared handler times and its peak footprint against their limits: how close
    /// it runs to being killed, before it is.
    func headroomTable() -> String {
        // A Mac has no background time limits (spec §3): only the footprint column.
        let subjects: [(String, (Headroom) -> Headroom.Time?)] = report.device.platform == .macos ? [] : [
            ("enter-background handler", \.enterBackground), ("background task", \.backgroundTask),
            ("fetch", \.fetch), ("push", \.push),
        ]
        // BGTaskScheduler's columns, where a drawn app declares its tasks (xnu from iOS 13).
        let drawn = drawnApps.compactMap { report.apps[$0] }
        let refresh = drawn.contains { $0.headroom?.refresh != nil || $0.refreshTasks != nil }
        let processing = drawn.contains { $0.processingTasks != nil }
        var out = "<section id=\"headroom\"><h2>Limits</h2>\n<p class=\"hint\">"
            + (subjects.isEmpty ? "Each app's peak footprint" : "Declared handler times against the policy's limits, and each app's peak footprint")
            + " against the device's per-app limit "
            + "(\(Format.bytes(report.device.appLimit)))"
            + (refresh || processing ? "; BGTaskScheduler's tasks, how many ran and how many the system expired" : "")
            + ".</p>\n<div class=\"scroll\"><table id=\"htable\"><thead><tr><th>app</th>"
        for (label, _) in subjects { out += "<th>\(label)</th>" }
        if refresh { out += "<th>app refresh task</th>" }
        if processing { out += "<th>processing task</th>" }
        out += "<th>peak footprint</th></tr></thead>\n<tbody>\n"
        for app in drawnApps {
            guard let stats = report.apps[app], let headroom = stats.headroom else { continue }
            out += "<tr><td>\(stats.name.html)</td>"
            for (_, time) in subjects {
                guard let t = time(headroom) else {
                    out += "<td class=\"empty\">–</td>"
                    continue
                }
                out += cell("\(Format.duration(t.declaredUs)) of \(Format.duration(t.limitUs))",
                            spare: t.spareUs >= 0 ? "\(Format.duration(t.spareUs)) to spare" : "\(Format.duration(-t.spareUs)) over",
                            over: t.spareUs < 0)
            }
            if refresh { out += scheduledCell(headroom.refresh, stats.refreshTasks) }
            if processing { out += scheduledCell(nil, stats.processingTasks) }
            let f = headroom.footprint
            out += cell("\(Format.bytes(f.peakBytes)) of \(Format.bytes(f.limitBytes))",
                        spare: f.spareBytes >= 0 ? "\(Format.bytes(f.spareBytes)) to spare" : "\(Format.bytes(-f.spareBytes)) over",
                        over: f.spareBytes < 0)
            out += "</tr>\n"
        }
        return out + "</tbody></table></div>\n" + foldedNote("limits") + "</section>\n"
    }

    /// A BGTaskScheduler task's cell: its handler's time against its window where it has one
    /// (an app refresh task's 30 s), and the tasks that ran and expired; a dash without either.
    private func scheduledCell(_ time: Headroom.Time?, _ counts: ScheduledTaskCounts?) -> String {
        let ran = counts.map { "\($0.started) ran, \($0.expired) expired" }
        guard let time else {
            guard let counts, let ran else { return "<td class=\"empty\">–</td>" }
            return "<td class=\"\(counts.expired > 0 ? "over" : "fits")\">\(ran.html)</td>"
        }
        let spare = time.spareUs >= 0 ? "\(Format.duration(time.spareUs)) to spare" : "\(Format.duration(-time.spareUs)) over"
        return cell("\(Format.duration(time.declaredUs)) of \(Format.duration(time.limitUs))",
                    spare: ran.map { "\(spare); \($0)" } ?? spare, over: time.spareUs < 0 || (counts?.expired ?? 0) > 0)
    }

    private func cell(_ value: String, spare: String, over: Bool) -> String {
        "<td class=\"\(over ? "over" : "fits")\">\(value.html)<br><small>\(spare.html)</small></td>"
    }
}
