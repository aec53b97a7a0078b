import MemprofOutput
import Foundation
import MemprofCore
import MemprofHTML
import MemprofProfile
import MemprofReport

/// The compare page: the verdict, regressions grouped by the change that caused them, base and
/// new on one memory chart (report.html's chart, with both runs' markers), a differential flame
/// graph, and the metrics. Self-contained: the shared stylesheet and script inline, no request.
public enum CompareHTML {
    /// Where each run's report.html is, relative to the compare page, when it sits beside its report.json.
    public struct Links: Sendable, Equatable {
        public var base: String?
        public var new: String?

        public init(base: String? = nil, new: String? = nil) {
            self.base = base
            self.new = new
        }

        /// Links for reports given as `base` and `new` (report.json files or their folders) and a
        /// page written to `page`: a link for each run whose folder holds a report.html.
        public static func beside(base: String, new: String, page: String) -> Links {
            Links(base: link(base, from: page), new: link(new, from: page))
        }

        static func link(_ report: String, from page: String) -> String? {
            let fm = FileManager.default
            var isFolder: ObjCBool = false
            let url = URL(fileURLWithPath: report).standardizedFileURL
            let folder = fm.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue ? url : url.deletingLastPathComponent()
            let html = folder.appendingPathComponent("report.html")
            guard fm.fileExists(atPath: html.path) else { return nil }
            let from = URL(fileURLWithPath: page).standardizedFileURL.deletingLastPathComponent().pathComponents
            let to = html.pathComponents
            var common = 0
            while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
            let ups = Array(repeating: "..", count: from.count - common)
            return (ups + to[common...]).joined(separator: "/")
        }
    }

    /// - Parameter digests: what was gathered of the runs' decisions while reading them
    ///   (`DecisionDigest`, the new run's read against the base's); nil: drawn from their events.
    public static func comparison(_ c: Comparison, base: Report, new: Report, all: Bool = false,
                                  links: Links = Links(), digests: (base: DecisionDigest, new: DecisionDigest)? = nil) -> String {
        var body = "<header><h1>memprof compare <span>\(esc(c.base.workload))"
        if c.base.workload != c.new.workload { body += " vs \(esc(c.new.workload))" }
        body += "</span></h1>\n<dl class=\"run\">"
        for (label, side, link) in [("base", c.base, links.base), ("new", c.new, links.new)] {
            body += "<div><dt>\(label)</dt><dd>seed \(side.seed), memprof \(esc(side.memprofVersion)), \(Format.duration(side.durationUs))"
            if let link { body += " · <a href=\"\(esc(link))\" id=\"link-\(label)\">report.html</a>" }
            body += "</dd></div>"
        }
        body += "</dl></header>\n"
        body += "<p class=\"verdict \(c.hasRegression ? "bad" : "good")\" id=\"verdict\">\(c.hasRegression ? "Regression" : "No regression"): "
            + "\(c.metrics.count) metrics, \(esc(c.countsLine)).</p>\n"
        for note in c.notes { body += "<p class=\"hint\">\(esc(note))</p>\n" }
        if c.hasRegression {
            body += "<section id=\"causes\"><h2>What changed</h2>\n<ol class=\"causes\">\n"
            let causes = RegressionCauses.group(c, base: base, new: new, happenings: digests?.new.finish().happenings)
            for cause in causes.prefix(bounds.causes) {
                body += "<li class=\"cause\"><b>\(esc(cause.title))</b><ul>"
                for row in cause.metrics.prefix(bounds.metricsPerCause) { body += "<li>\(esc(row.message ?? row.metric))</li>" }
                if cause.metrics.count > bounds.metricsPerCause {
                    body += "<li class=\"more\">and \(count(cause.metrics.count - bounds.metricsPerCause)) more</li>"
                }
                body += "</ul></li>\n"
            }
            body += "</ol>"
            if causes.count > bounds.causes {
                body += "<p class=\"hint folded\">\(count(causes.count - bounds.causes)) more changes are left out; "
                    + "memprof compare prints every metric that changed.</p>"
            }
            body += "</section>\n"
        }

        var apps: [String] = []
        var seen: Set<String> = []
        for app in new.apps.keys.sorted() + base.apps.keys.sorted() where seen.insert(app).inserted { apps.append(app) }
        var chart = MemoryChart(report: new, apps: apps, base: base)
        // Past `drawnApps` apps, the new run's most affected are drawn one by one, as in report.html.
        let drawn = HTMLReport.mostAffected(apps, in: new.head, limit: bounds.drawnApps)
        let folded = apps.count - drawn.count
        if folded > 0 { chart.fold(keeping: drawn, label: "\(count(folded)) other apps") }
        if let digests { chart.marks = (digests.new.finish().marks, digests.base.finish().marks) }
        chart.jetsamLink = { isBase, index in
            (isBase ? links.base : links.new).map { "\($0)#jetsam-\(index)" }
        }
        body += "<section id=\"memory\"><h2>Memory over time</h2>\n<p class=\"hint\">The new run's apps stacked, its used line solid "
            + "and the base's dashed; marks along the top: the new run's first, then the base's. Drag to zoom. "
            + "<label>show one app in both runs <select id=\"mem-app\"><option value=\"\">all apps (stacked, new run)</option>"
        for (index, app) in drawn.map({ apps[$0] }).enumerated() {
            body += "<option value=\"\(index)\">\(esc(new.apps[app]?.name ?? base.apps[app]?.name ?? app))</option>"
        }
        if folded > 0 {
            body += "<option value=\"\" disabled>(the \(count(drawn.count)) most affected of \(count(apps.count)) apps)</option>"
        }
        body += "</select></label> <button type=\"button\" id=\"reset\" disabled>Show the whole run</button> <span id=\"range\"></span></p>\n"
        body += chart.svg() + chart.legend() + foldedNote(folded: folded, drawn: drawn.count, of: apps.count) + "</section>\n"

        body += "<section id=\"profile\"><h2>Stack samples</h2>\n"
        let flames = diffFlames(base: base, new: new)
        if let flames {
            body += "<p class=\"hint\">Differential flame graphs, one per app and handler: boxes are laid out by the new run's samples; "
                + "red boxes took a larger share of the samples than in the base run, blue ones a smaller share, grey ones about "
                + "the same. Samples are measured, so small differences are noise.</p>\n" + FlameGraphs.controls
            for (index, graph) in flames.graphs.enumerated() {
                body += "<div class=\"flame-box\" id=\"box-\(graph.id)\"><h3 class=\"flame-title\">\(esc(flameTitles(new)[index]))"
                    + " <small><span class=\"flame-note\"></span></small></h3>"
                    + "<svg class=\"flame\" id=\"\(graph.id)\" viewBox=\"0 0 1400 17\" role=\"img\" aria-label=\"Differential flame graph\"></svg></div>\n"
            }
        } else {
            body += "<p class=\"hint\">\(esc(samplesNote(base, new)))</p>\n"
        }
        body += "</section>\n"

        body += "<section id=\"metrics\"><h2>\(all ? "All metrics" : "Metrics that changed")</h2>\n"
        let rows = CompareOutput.shownRows(c, all: all)
        if rows.isEmpty {
            body += "<p>No metric changed.</p>\n"
        } else {
            body += "<div class=\"scroll\"><table id=\"mtable\">\n<thead><tr>" + CompareOutput.header.enumerated().map {
                "<th\($0.offset >= 1 && $0.offset <= 4 ? " class=\"num\"" : "")>\(esc($0.element))</th>"
            }.joined() + "</tr></thead>\n<tbody>\n"
            let counts = CompareOutput.latencyCounts(c)
            for row in rows.prefix(bounds.tableRows) {
                let cells = CompareOutput.cells(row, counts: counts)
                body += "<tr class=\"v-\(row.verdict.rawValue)\"><td><code>\(esc(cells[0]))</code></td>"
                    + cells[1...4].map { "<td class=\"num\">\(esc($0))</td>" }.joined()
                    + "<td class=\"verdict-text v-\(row.verdict.rawValue)\">\(esc(cells[5]))</td></tr>\n"
            }
            body += "</tbody>\n</table></div>\n"
            if rows.count > bounds.tableRows {
                body += "<p class=\"hint folded\">The first \(count(bounds.tableRows)) of \(count(rows.count)) rows, the worst first; "
                    + "memprof compare prints every one.</p>\n"
            }
        }
        body += "</section>\n"

        var json = JSONWriter(capacity: 64 * 1024)
        json.raw("{"); json.key("durationUs"); json.int(max(base.run.durationUs, new.run.durationUs))
        json.raw(","); json.key("memory"); chart.writeData(into: &json)
        if let flames { json.raw(","); json.key("flame"); flames.writeData(into: &json) }
        json.raw("}")
        return page(title: "memprof compare: \(c.base.workload)", body: body,
                    data: String(decoding: json.bytes, as: UTF8.self))
    }

    /// What the page draws at most, whatever the number of apps: apps one by one in the memory
    /// chart (report.html's `drawnApps`; the others are one layer), changes of "What changed"
    /// and metrics under each, rows of the metrics table.
    public struct Bounds: Sendable {
        public var drawnApps = HTMLReport.Options().drawnApps
        public var causes = 100
        public var metricsPerCause = 20
        public var tableRows = HTMLReport.Options().tableLimit

        public init() {}
    }

    static let bounds = Bounds()

    /// The sentence under the memory chart when it leaves apps out of the drawn ones; empty when
    /// it draws every app.
    static func foldedNote(folded: Int, drawn: Int, of total: Int, run: String = "the new run") -> String {
        guard folded > 0 else { return "" }
        return "<p class=\"hint folded\">The memory of \(count(folded)) more apps is one layer: this page draws the "
            + "\(count(drawn)) apps with the most exits and evictions in \(run) (then the largest) of \(count(total)); "
            + "report.json has every one.</p>\n"
    }

    static func count(_ n: Int) -> String { HTMLText.count(n) }

    /// A page with the shared stylesheet and script around `body`; `data` is the script's JSON
    /// (a chart's data), or nil for a page without one.
    public static func page(title: String, body: String, data: String? = nil, kind: String = "compare") -> String {
        var out = HTMLPage.start(title: title, kind: kind) + body
        out += HTMLPage.end(data: data ?? "{}")
        return out
    }

    /// A page with the memory chart of one run (memprof check).
    /// - Parameter marks: the run's decision marks when gathered while reading it; nil: drawn from its events.
    public static func memorySection(_ report: Report, marks: DecisionMarks? = nil) -> (html: String, data: String) {
        let apps = report.apps.keys.sorted()
        var chart = MemoryChart(report: report, apps: apps)
        let drawn = HTMLReport.mostAffected(apps, in: report.head, limit: bounds.drawnApps)
        let folded = apps.count - drawn.count
        if folded > 0 { chart.fold(keeping: drawn, label: "\(count(folded)) other apps") }
        chart.marks = (marks, nil)
        var json = JSONWriter(capacity: 16 * 1024)
        json.raw("{"); json.key("durationUs"); json.int(report.run.durationUs)
        json.raw(","); json.key("memory"); chart.writeData(into: &json); json.raw("}")
        let html = "<section id=\"memory\"><h2>Memory over time</h2>\n<p class=\"hint\">Drag to zoom. "
            + "<button type=\"button\" id=\"reset\" disabled>Show the whole run</button> <span id=\"range\"></span></p>\n"
            + chart.svg() + chart.legend() + foldedNote(folded: folded, drawn: drawn.count, of: apps.count, run: "the run") + "</section>\n"
        return (html, String(decoding: json.bytes, as: UTF8.self))
    }

    /// Handlers sampled in the new run, in its order, as `app · handler`.
    static func flameTitles(_ new: Report) -> [String] {
        guard let profile = new.profile else { return [] }
        return profile.handlers.filter { !$0.stacks.isEmpty }.map { "\(new.apps[$0.app]?.name ?? $0.app) · \($0.handler)" }
    }

    /// One differential flame graph per app and handler sampled in the new run, against the same
    /// handler's samples in the base run; nil unless both runs carry samples.
    static func diffFlames(base: Report, new: Report) -> FlameGraphs? {
        guard let baseProfile = base.profile, baseProfile.hasSamples,
              let newProfile = new.profile, newProfile.hasSamples else { return nil }
        var graphs = FlameGraphs()
        for (index, handler) in newProfile.handlers.enumerated() where !handler.stacks.isEmpty {
            let baseStacks = baseProfile.handlers.first { $0.app == handler.app && $0.handler == handler.handler }
                .map { FlameGraphs.stacks($0, in: baseProfile) } ?? []
            graphs.add(id: "flame-\(index)", stacks: FlameGraphs.stacks(handler, in: newProfile), base: baseStacks)
        }
        return graphs.isEmpty ? nil : graphs
    }

    /// What the page can say when it has no differential flame graph.
    static func samplesNote(_ base: Report, _ new: Report) -> String {
        let sampled = [base, new].map { $0.profile?.hasSamples == true }
        switch (sampled[0], sampled[1]) {
        case (true, true): return "Both reports carry stack samples, but of no common handler."
        case (true, false): return "Only the base report carries stack samples, so there is nothing to compare them with."
        case (false, true): return "Only the new report carries stack samples, so there is nothing to compare them with."
        case (false, false): return "Neither report carries stack samples, so there is no flame graph to compare."
        }
    }

    static func esc(_ s: String) -> String {
        HTMLEscape.text(s)
    }
}
