import MemprofOutput
import Foundation
import MemprofCore
import MemprofReport

/// The report as one self-contained HTML page (`report.html`, spec §11): inline CSS, SVG
/// and a little plain JavaScript written here; no network request of any kind, works from
/// `file://`, light and dark themes. Its size is bounded whatever the run's length and however
/// many apps it has: series are reduced per bucket keeping minima and maxima, lanes merge states
/// too short to see, long tables keep their first and last rows, and past `Options.drawnApps`
/// apps only the most affected are drawn one by one (``drawnApps``), the others added up.
public struct HTMLReport {
    public struct Options: Sendable {
        /// Buckets per memory series; each keeps its min and max, so at most twice this many points.
        public var seriesBuckets = 400
        /// Budget of stacked values (apps × instants); fewer buckets are used for many apps.
        public var stackBudget = 40_000
        /// Budget of lane columns over all apps (each lane gets 200 to 2,000 columns).
        public var laneBudget = 20_000
        /// Rows of a long table that are shown (half from the start, half from the end).
        public var tableLimit = 600
        /// Apps drawn one by one: a layer of the memory chart, a lifecycle lane, a row of the
        /// Limits table, an entry of the decisions' app filter and of the observers chart. Past
        /// it, the most affected apps are drawn (``HTMLReport/mostAffected(_:in:limit:)``) and
        /// the others are one layer of the memory chart and a line saying how many are left out.
        public var drawnApps = 100

        public init() {}
    }

    /// The run's report but its events, timeline and jetsam snapshots.
    public let report: ReportHead
    /// What the page draws of the run's events, series and snapshots.
    let drawing: Drawing
    public let options: Options
    /// App keys in the order to show them (the workload's order when known).
    public let apps: [String]
    /// The apps drawn one by one (`Options.drawnApps`), in the order of `apps`: all of them, or
    /// the most affected.
    public let drawnApps: [String]
    /// The indices of `drawnApps` in `apps`.
    let drawnIndices: [Int]
    /// Extra sections appended after the built-in ones (the flame-graph hook, see `HTMLReport+Profile`).
    public var extraSections: [HTMLSection] = []

    /// Where the page's charts and tables of events come from.
    enum Drawing {
        /// The report held whole (made in memory, or read back).
        case whole(Report)
        /// What was kept as the run streamed.
        case streamed(Streamed)
    }

    /// What a page keeps of a run as it streams (``PageSink``): the memory chart's series
    /// (``MemoryDigest``), the swimlanes (``LaneDigest``), and the decisions, jetsam reports,
    /// pressure strip and handler runs (``HistoryDigest``).
    public struct Streamed {
        public var memory: MemoryDigest.Drawn
        public var lanes: LaneDigest.Drawn
        public var history: HistoryDigest.Drawn

        public init(memory: MemoryDigest.Drawn, lanes: LaneDigest.Drawn, history: HistoryDigest.Drawn) {
            self.memory = memory
            self.lanes = lanes
            self.history = history
        }
    }

    /// The page of a report held whole.
    public init(_ report: Report, orderedApps: [String]? = nil, options: Options = Options()) {
        self.init(report.head, drawing: .whole(report), orderedApps: orderedApps, options: options)
    }

    /// The page of a run written as it went: its head, and what was kept of it as it streamed.
    public init(_ head: ReportHead, streamed: Streamed, orderedApps: [String]? = nil, options: Options = Options()) {
        self.init(head, drawing: .streamed(streamed), orderedApps: orderedApps, options: options)
    }

    private init(_ report: ReportHead, drawing: Drawing, orderedApps: [String]?, options: Options) {
        self.report = report
        self.drawing = drawing
        self.options = options
        let known = Set(report.apps.keys)
        var order = (orderedApps ?? []).filter { known.contains($0) }
        let listed = Set(order)
        order += report.apps.keys.filter { !listed.contains($0) }.sorted()
        apps = order
        drawnIndices = Self.mostAffected(order, in: report, limit: options.drawnApps)
        drawnApps = drawnIndices.map { order[$0] }
    }

    /// The indices (ascending) of the `limit` apps of `apps` that the run troubled most: the most
    /// exits other than the user's quits plus evictions, then the largest peak footprint, then
    /// the first in `apps`. All of them when there are at most `limit`.
    public static func mostAffected(_ apps: [String], in report: ReportHead, limit: Int) -> [Int] {
        guard apps.count > limit else { return Array(apps.indices) }
        let keys = apps.map { app -> (trouble: Int, peak: Int64) in
            guard let a = report.apps[app] else { return (0, 0) }
            let exits = a.exits.filter { $0.key != ExitReason.userQuit.rawValue }.values.reduce(0, +)
            return (exits + a.evictions, a.peakFootprintBytes)
        }
        let ranked = apps.indices.sorted { i, j in
            (keys[i].trouble, keys[i].peak, j) > (keys[j].trouble, keys[j].peak, i)
        }
        return ranked.prefix(max(0, limit)).sorted()
    }

    /// How many apps are not drawn one by one.
    var foldedApps: Int { apps.count - drawnApps.count }

    /// Renders `report` with default options.
    public static func render(_ report: Report, orderedApps: [String]? = nil) -> String {
        HTMLReport(report, orderedApps: orderedApps).render()
    }

    /// The page of a report held whole as UTF-8 bytes.
    public static func data(_ report: Report, orderedApps: [String]? = nil) -> Data {
        Data(HTMLReport(report, orderedApps: orderedApps).render().utf8)
    }

    /// The page of a run written as it went as UTF-8 bytes.
    public static func data(_ head: ReportHead, streamed: Streamed, orderedApps: [String]? = nil) -> Data {
        Data(HTMLReport(head, streamed: streamed, orderedApps: orderedApps).render().utf8)
    }

    public func render() -> String {
        let history: HistoryDigest.Drawn
        var memory: MemoryChart
        let lanesDrawn: LaneDigest.Drawn
        switch drawing {
        case .whole(let whole):
            history = HistoryDigest.whole(whole, options: options)
            memory = MemoryChart(report: whole, apps: apps, options: options)
            lanesDrawn = LaneDigest.whole(whole, apps: drawnApps, options: options)
        case .streamed(let streamed):
            history = streamed.history
            memory = MemoryChart(report, apps: apps, options: options, drawn: streamed.memory)
            lanesDrawn = foldedApps > 0 ? streamed.lanes.rows(drawnIndices) : streamed.lanes
        }
        let jetsamSet = Set(history.jetsam.map(\.index))
        if foldedApps > 0 {
            memory.fold(keeping: drawnIndices, label: "\(HTMLText.count(foldedApps)) other apps")
        }
        memory.jetsamLink = { isBase, index in !isBase && jetsamSet.contains(index) ? "#jetsam-\(index)" : nil }
        memory.marks = (history.marks, nil)
        memory.drawnHistory = (history.pressure, history.jetsamCount, history.jetsam)
        let lanes = LaneChart(report: report, apps: drawnApps, drawn: lanesDrawn)
        var sections = extraSections
        if let profile = Self.profileSection(for: report) { sections.insert(profile, at: 0) }

        var page = ""
        page.reserveCapacity(256 * 1024)
        page += HTMLAssets.head(title: "memprof · \(report.run.workload)",
                                contentSecurityPolicy: HTMLAssets.contentSecurityPolicy,
                                body: "data-page=\"report\" data-platform=\"\(report.device.platform.rawValue)\"")
        page += header()
        page += findingsSection()
        page += observersSection()
        page += cards()
        page += "<section id=\"memory\"><h2>Memory over time</h2>\n"
        page += "<p class=\"hint\">Hover for the values at a time; drag across the chart to zoom into a range "
            + "that the lanes, the decisions and the flame graphs follow. <button type=\"button\" id=\"reset\" disabled>Show the whole run</button> "
            + "<span id=\"range\"></span></p>\n"
        page += memory.svg()
        page += memory.legend()
        page += "</section>\n"
        page += "<section id=\"lanes\"><h2>Lifecycle</h2>\n"
        page += lanes.html()
        page += foldedNote("lanes")
        page += "</section>\n"
        page += decisionsTable(history, jetsamShown: jetsamSet)
        page += jetsamSection(history)
        page += appTable()
        page += headroomTable()
        for section in sections {
            page += "<section id=\"\(section.id.html)\"><h2>\(section.title.html)</h2>\n\(section.html)\n</section>\n"
        }
        page += footer()
        page += HTMLPage.end(data: dataJSON(memory: memory, lanes: lanes, handlerRuns: history.handlerRuns))
        return page
    }

    // MARK: - The run and its headline figures

    func header() -> String {
        let run = report.run
        let rows: [(String, String)] = [
            ("workload", run.workload),
            ("device", "\(report.device.name) (\(Format.bytes(report.device.ram)) RAM, \(Format.bytes(report.device.appMemory)) for apps"
             + (report.device.platform == .macos ? ", swap)" : ", \(Format.bytes(report.device.flash)) flash)")),
            ("policy", report.policy.name),
            ("seed", String(run.seed)),
            ("duration", Format.duration(run.durationUs)),
            ("source", run.source),
            ("memprof", report.tool.version),
            ("generated", report.host.generatedAt),
        ]
        var out = "<header><h1>memprof <span>\(run.workload.html)</span></h1>\n<dl class=\"run\">"
        for (key, value) in rows {
            out += "<div><dt>\(key)</dt><dd>\(value.html)</dd></div>"
        }
        return out + "</dl></header>\n"
    }

    func cards() -> String {
        let s = report.summary
        let device = report.device
        let tasks = s.backgroundTasks
        let memoryKills = ExitReason.memoryKills(in: s.terminations)
        let pressureShares = HTMLText.percent(s.timeAtPressureUs.warning, of: report.run.durationUs) + " / "
            + HTMLText.percent(s.timeAtPressureUs.critical, of: report.run.durationUs)
        let pressure = ("time at pressure", pressureShares, "warning / critical", "")
        let peak = ("peak RAM", Format.bytes(s.peakUsedBytes), "\(HTMLText.percent(s.peakUsedBytes, of: device.appMemory)) of \(Format.bytes(device.appMemory)) app memory", "")
        let warnings = ("memory warnings", HTMLText.count(s.memoryWarnings), "rises of the pressure level", s.memoryWarnings > 0 ? "warn" : "")
        let cards: [(String, String, String, String)]
        if device.platform == .macos {
            // A Mac pages out instead of evicting: no flash store, no jetsam, no background-task limits.
            cards = [peak] + macCards() + [pressure, warnings]
        } else {
            cards = [
                ("evictions", HTMLText.count(s.evictions), "suspended apps evicted", s.evictions > 0 ? "warn" : ""),
                ("compressions", HTMLText.count(s.compressions), "suspended apps compressed to flash", ""),
                ("cold relaunches", HTMLText.count(s.coldRelaunchesAfterKill), "after the system killed the app",
                 s.coldRelaunchesAfterKill > 0 ? "bad" : ""),
                warnings,
                ("memory kills", HTMLText.count(memoryKills), "jetsam's kills for memory, of any process", memoryKills > 0 ? "bad" : ""),
                ("background tasks", "\(tasks.completed) / \(tasks.expiredEnded) / \(tasks.expiredKilled)",
                 "completed / expired, ended / expired, killed (of \(tasks.started))", tasks.expiredKilled > 0 ? "bad" : ""),
                peak,
                ("peak flash", Format.bytes(s.peakCompressedBytes),
                 "\(HTMLText.percent(s.peakCompressedBytes, of: device.flash)) of \(Format.bytes(device.flash)) compressed store", ""),
                pressure,
            ]
        }
        var out = "<section id=\"summary\" class=\"cards\">"
        for (title, value, note, tone) in cards {
            out += "<div class=\"card \(tone)\"><h3>\(title)</h3><b>\(value.html)</b><small>\(note.html)</small></div>"
        }
        return out + "</section>\n"
    }

    /// A sentence under a view that draws only ``drawnApps``: how many apps it leaves out and
    /// which it shows. Empty when every app is drawn.
    func foldedNote(_ what: String) -> String {
        guard foldedApps > 0 else { return "" }
        return "<p class=\"hint folded\">The \(what) of \(HTMLText.count(foldedApps)) more apps are left out: "
            + "this page draws the \(HTMLText.count(drawnApps.count)) apps with the most exits and evictions (then the "
            + "largest) of \(HTMLText.count(apps.count)); report.json and trace.json have every one.</p>\n"
    }

    func footer() -> String {
        "<footer>report.json holds every event and number; this page draws a reduced view of it. "
            + "trace.json opens in ui.perfetto.dev or chrome://tracing.</footer>\n"
    }

    // MARK: - Data for the script

    func dataJSON(memory: MemoryChart, lanes: LaneChart, handlerRuns: [String: [Microseconds]]) -> String {
        var json = JSONWriter(capacity: 64 * 1024)
        json.raw("{")
        json.key("durationUs"); json.int(report.run.durationUs)
        json.raw(","); json.key("memory"); memory.writeData(into: &json)
        json.raw(","); json.key("lanes"); lanes.writeData(into: &json)
        if let flames = Self.flameGraphs(for: report, handlerRuns: handlerRuns) {
            json.raw(","); json.key("flame"); flames.writeData(into: &json)
        }
        json.raw("}")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

/// A section of the page supplied from outside the built-in ones.
public struct HTMLSection: Sendable {
    public var id: String
    public var title: String
    /// Trusted HTML, inserted as it is.
    public var html: String

    public init(id: String, title: String, html: String) {
        self.id = id
        self.title = title
        self.html = html
    }
}
