import MemprofCore
import MemprofReport

extension HTMLReport {
    /// Observer problems (spec §7), shown before everything else: crashes and leaks are bugs in
    /// the app, not the system's choices. Empty when the report has none.
    func findingsSection() -> String {
        guard let findings = report.notifications.findings, !findings.isEmpty else { return "" }
        var out = "<section id=\"findings\"><h2>Findings</h2>\n<ul class=\"findings\">"
        for finding in findings {
            let tone = finding.kind == "crash" ? "bad" : "warn"
            out += "<li class=\"card \(tone)\"><b>\(finding.app.html)</b> \(finding.text.html)</li>"
        }
        return out + "</ul>\n</section>\n"
    }

    /// Every observer registration (object, instance, notification, style, status, deliveries,
    /// crash) and the observers registered over time per app, next to the findings they explain.
    /// Empty when no app declares objects.
    func observersSection() -> String {
        let centers = apps.compactMap { app in report.notifications.apps[app].map { (app, $0) } }
            .filter { $0.1.observers != nil }
        guard !centers.isEmpty else { return "" }
        let names = self.names
        var out = "<section id=\"observers\"><h2>Observers</h2>\n"
        let drawn = Set(drawnApps)
        out += observersChart(centers.filter { drawn.contains($0.0) }.map { ($0.0, $0.1.observersOverTime ?? []) })
        var records: [(app: String, record: ObserverRecord)] = []
        for (app, center) in centers { for record in center.observers ?? [] { records.append((app, record)) } }
        let shown = HeadTail(records, limit: options.tableLimit)
        out += "<div class=\"scroll\"><table id=\"otable\"><thead><tr><th>app</th><th>object</th><th class=\"num\">instance</th>"
            + "<th>notification</th><th>style</th><th>status</th><th class=\"num\">registered</th><th class=\"num\">removed</th>"
            + "<th class=\"num\">dismissed</th><th class=\"num\">deliveries</th><th>crash</th></tr></thead>\n<tbody>\n"
        func row(_ item: (app: String, record: ObserverRecord)) -> String {
            let r = item.record
            let tone = r.crashedAtUs != nil || r.status == .dangling ? "bad" : r.status == .leaked ? "warn" : ""
            return "<tr class=\"\(tone)\"><td>\((names[item.app] ?? item.app).html)</td><td>\(r.object.html)</td>"
                + "<td class=\"num\">#\(r.instance)</td><td>\(r.notification.html)</td><td>\(r.style.rawValue)</td>"
                + "<td><b class=\"st-\(r.status.rawValue)\">\(r.status.rawValue)</b></td>"
                + "<td class=\"num\">\(Format.duration(r.registeredAtUs))</td>"
                + "<td class=\"num\">\(r.removedAtUs.map(Format.duration) ?? "–")</td>"
                + "<td class=\"num\">\(r.dismissedAtUs.map(Format.duration) ?? "–")</td>"
                + "<td class=\"num\">\(HTMLText.count(r.deliveries))</td>"
                + "<td>\(r.crashedAtUs.map { "\(ExitReason.badAccess.rawValue) at \(Format.duration($0))" } ?? "")</td></tr>\n"
        }
        for item in shown.head { out += row(item) }
        if shown.omitted > 0 {
            out += "<tr class=\"omitted\"><td colspan=\"11\">… \(HTMLText.count(shown.omitted)) registrations left out here; report.json has every one …</td></tr>\n"
        }
        for item in shown.tail { out += row(item) }
        return out + "</tbody></table></div></section>\n"
    }

    /// Observers registered over time, a step line per app, on the memory chart's time axis.
    func observersChart(_ series: [(app: String, points: [[Int64]])]) -> String {
        let width = MemoryChart.width, height = 150.0, top = 10.0, bottom = 126.0
        let duration = max(report.run.durationUs, 1)
        let x = LinearScale(domain: 0...Double(duration), from: MemoryChart.left, to: MemoryChart.right)
        let peak = series.flatMap { $0.points.compactMap { $0.count > 1 ? $0[1] : nil } }.max() ?? 0
        let ticks = Ticks.nice(maximum: Double(max(peak, 1)), count: 4).map { $0.rounded() == $0 ? $0 : $0.rounded(.up) }
        let maxTick = max(ticks.last ?? 1, Double(peak), 1)
        let y = LinearScale(domain: 0...maxTick, from: bottom, to: top)
        func c(_ v: Double) -> String { HTMLText.coordinate(v) }
        var out = "<svg id=\"obschart\" class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"Observers registered over time\" preserveAspectRatio=\"none\"><g class=\"grid\">"
        for tick in Set(ticks).sorted() {
            out += "<line x1=\"\(c(MemoryChart.left))\" x2=\"\(c(MemoryChart.right))\" y1=\"\(c(y(tick)))\" y2=\"\(c(y(tick)))\"/>"
                + "<text class=\"ylab\" x=\"\(c(MemoryChart.left - 6))\" y=\"\(c(y(tick) + 3.5))\">\(Int(tick))</text>"
        }
        for tick in Ticks.time(start: 0, end: duration, count: 10) {
            out += "<text class=\"xlab\" x=\"\(c(x(tick)))\" y=\"\(c(bottom + 16))\">\(Format.duration(tick))</text>"
        }
        out += "</g>"
        var legend = "<ul class=\"legend\">"
        let indices = Dictionary(drawnApps.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for (app, points) in series {
            let index = indices[app] ?? 0
            let steps = points.compactMap { $0.count > 1 ? ($0[0], $0[1]) : nil }
            out += "<path class=\"obs\" style=\"stroke:\(HTMLText.appColor(index))\" "
                + "d=\"\(MemoryChart.stepPath(steps, x: x, y: y, baseline: nil, end: duration))\"/>"
            legend += "<li><i style=\"background:\(HTMLText.appColor(index))\"></i>\((report.apps[app]?.name ?? app).html)</li>"
        }
        return out + "</svg>\n" + legend + "</ul>\n"
    }

    /// The cards a Mac run shows instead of the iOS ones: swap, time over RAM, app memory.
    func macCards() -> [(String, String, String, String)] {
        let swap = report.summary.swap
        let duration = report.run.durationUs
        return [
            ("swap", Format.bytes(swap?.peakBytes ?? 0), "peak paged out past app memory", (swap?.peakBytes ?? 0) > 0 ? "warn" : ""),
            ("time over RAM", Format.duration(swap?.timeOverRamUs ?? 0),
             "\(HTMLText.percent(swap?.timeOverRamUs ?? 0, of: duration)) of the run paging", (swap?.timeOverRamUs ?? 0) > 0 ? "warn" : ""),
            ("app memory", Format.bytes(report.device.appMemory),
             "\(Format.bytes(report.device.ram)) RAM less \(Format.bytes(report.device.systemReserved)) for the system", ""),
        ]
    }
}
