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
        return out + "</ul>\n<p class=\"hint\">Every observer, its deliveries and the observers over time are in "
            + "report.json under notifications.</p></section>\n"
    }

    /// The swap card of a Mac run (spec §3).
    func swapCard() -> (String, String, String, String)? {
        guard let swap = report.summary.swap else { return nil }
        return ("swap", Format.bytes(swap.peakBytes),
                "peak paged out; \(Format.duration(swap.timeOverRamUs)) over RAM", swap.peakBytes > 0 ? "warn" : "")
    }
}
