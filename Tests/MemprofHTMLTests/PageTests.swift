import MemprofOutput
import Foundation
import MemprofCore
import MemprofReport
import MemprofTestSupport
import Testing
@testable import MemprofHTML

@Suite struct PageTests {
    @Test(arguments: ["phone-day", "background-heavy", "ipad-afternoon"])
    func pageIsSelfContained(workload: String) throws {
        let (report, order) = try ReportFixture.builtinWithApps(workload)
        let page = HTMLReport.render(report, orderedApps: order)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        // Nothing that would make a request: no external scripts, styles, images or fonts.
        for needle in ["http://", "https://", "<link", "src=", "@import", "url(", "fetch(", "XMLHttpRequest"] {
            #expect(!page.contains(needle), "page contains \(needle)")
        }
        #expect(page.contains("prefers-color-scheme:dark"))
        #expect(page.contains("<path class=\"area\""))
        #expect(page.contains("id=\"lanesvg\""))
        #expect(page.contains("class=\"s-active"))
        // Every app has a lane label and a row in the per-app table.
        for app in report.apps.values { #expect(page.contains(app.name.html)) }
        // The embedded data parses as JSON.
        let start = try #require(page.range(of: "id=\"memprof-data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let json = String(page[start.upperBound..<end.lowerBound])
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
    }

    @Test func todaysPhoneShowsTheCompressorAndTheFreezersBudget() throws {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day-2026")
        let page = HTMLReport.render(report, orderedApps: order)
        let c = try #require(report.summary.compressor), f = try #require(report.summary.freezer)
        let spent = try #require(f.firstExhaustedAtUs)
        #expect(page.contains("pool peak \(Format.bytes(c.peakBytes).html) holding \(Format.bytes(c.peakUncompressedBytes).html)"))
        #expect(page.contains("freezer: \(f.freezes) freezes wrote \(Format.bytes(f.bytesWritten).html) of its "
            + "\(Format.bytes(f.dailyBudgetBytes).html) daily budget; spent at \(Format.duration(spent).html)"))
        // A day under seed-2015 has neither.
        let (old, oldOrder) = try ReportFixture.builtinWithApps("phone-day")
        let oldPage = HTMLReport.render(old, orderedApps: oldOrder)
        #expect(!oldPage.contains("pool peak") && !oldPage.contains("freezer:"))
    }

    /// The Limits table gives BGTaskScheduler's tasks where an app declares them: news's 45 s
    /// refresh handler against the 30 s window, its 4 refresh tasks (all expired) and 2 processing
    /// tasks (both expired; ScheduledTaskTests works them out); game, which declares none, a dash.
    @Test func theLimitsTableShowsScheduledTasks() throws {
        let report = try ReportFixture.report(text: WorkloadFixtures.scheduledTasks)
        let page = HTMLReport.render(report, orderedApps: ["news", "game"])
        #expect(page.contains("<th>app refresh task</th><th>processing task</th><th>peak footprint</th>"))
        #expect(page.contains("<td class=\"over\">45s of 30s<br><small>15s over; 4 ran, 4 expired</small></td>"
            + "<td class=\"over\">2 ran, 2 expired</td>"))
        #expect(page.contains("<tr><td>game</td><td class=\"empty\">–</td><td class=\"empty\">–</td>"
            + "<td class=\"empty\">–</td><td class=\"empty\">–</td><td class=\"empty\">–</td><td class=\"empty\">–</td>"))
        // A day that declares none has neither column.
        let (old, oldOrder) = try ReportFixture.builtinWithApps("phone-day")
        #expect(!HTMLReport.render(old, orderedApps: oldOrder).contains("app refresh task"))
    }

    /// Each kill's jetsam view gives the pool and its counts at that kill, as the snapshot has
    /// them, worked out here from its pages: phone-day-xnu's first kill (phone-day-2026's kills,
    /// on iOS 18.5, are in the idle band, which takes no snapshot).
    @Test func theJetsamViewShowsThePoolAtTheKill() throws {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day-xnu")
        let page = HTMLReport.render(report, orderedApps: order)
        let kill = try #require(report.jetsamEvents.first)
        let pool = try #require(kill.compressor)
        let size = kill.pageSize
        let ratio = (Double(pool.uncompressedPages) / Double(pool.pages) * 100).rounded() / 100
        let line = "compressor: \(HTMLText.count(Int(pool.pages))) pages (\(Format.bytes(pool.pages * size))) holding "
            + "\(HTMLText.count(Int(pool.uncompressedPages))) (\(Format.bytes(pool.uncompressedPages * size))), \(ratio)×; "
            + "\(HTMLText.count(Int(pool.compressions))) pages compressed and \(HTMLText.count(Int(pool.decompressions))) decompressed since the run began"
        #expect(page.contains("<p class=\"hint jetsam-pool\">\(line.html)</p>"))
        // Within the published reports' span (2.66 to 3.87, the field format reference).
        #expect(ratio >= 2.66 && ratio <= 3.87)
        // Kills under seed-2015 have no in-RAM pool to show.
        let (old, oldOrder) = try ReportFixture.builtinWithApps("phone-day")
        #expect(!old.jetsamEvents.isEmpty)
        #expect(!HTMLReport.render(old, orderedApps: oldOrder).contains("jetsam-pool"))
    }

    /// The in-RAM compressor's pool is a series of the memory chart: a line of its own, with its
    /// legend entry, reduced as the other series are (every peak kept), and in the page's data.
    @Test func thePoolIsDrawnOnTheMemoryChart() throws {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day-2026")
        let c = try #require(report.summary.compressor)
        let series = try #require(report.timeline.compressorBytes)
        var options = HTMLReport.Options()
        options.seriesBuckets = 50
        let chart = MemoryChart(report: report, apps: order, options: options)
        // phone-day-2026's pool changes more often than 2 × 50 buckets hold: reduced, peak kept.
        #expect(series.count > 2 * options.seriesBuckets + 2)
        #expect(chart.pool.count <= 2 * options.seriesBuckets + 2)
        #expect(chart.pool.map(\.value).max() == c.peakBytes)
        #expect(chart.pool == Downsample.minMax(StepPoint.make(series), start: 0, end: report.run.durationUs,
                                                buckets: options.seriesBuckets))
        let svg = chart.svg()
        let start = try #require(svg.range(of: #"<path id="pool" class="pool" d=""#))
        let d = svg[start.upperBound...].prefix { $0 != "\"" }
        // A step line: one horizontal move per point, and the peak's height among its vertical ones.
        #expect(d.hasPrefix("M") && d.count { $0 == "H" } >= chart.pool.count)
        #expect(d.contains("V\(HTMLText.coordinate(chart.y(Double(c.peakBytes))))"))
        #expect(chart.legend().contains(#"<li><i class="k-pool"></i>suspended apps compressed in RAM: pool peak"#))
        let page = HTMLReport.render(report, orderedApps: order)
        #expect(page.contains(#"<path id="pool" class="pool""#) && page.contains(#""pool":[["#))
        // A day without the compressor draws none.
        let (old, oldOrder) = try ReportFixture.builtinWithApps("phone-day")
        let oldPage = HTMLReport.render(old, orderedApps: oldOrder)
        #expect(!oldPage.contains(#"id="pool""#) && !oldPage.contains(#""pool":"#))
    }

    @Test func appOrderFollowsTheWorkload() throws {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day")
        let page = HTMLReport(report, orderedApps: order)
        #expect(page.apps == order)
        #expect(HTMLReport(report).apps == report.apps.keys.sorted())
    }

    @Test func namesAreEscaped() throws {
        var (report, order) = try ReportFixture.builtinWithApps("background-heavy")
        report.apps[order[0]]?.name = "<script>alert(1)</script>"
        let page = HTMLReport.render(report, orderedApps: order)
        #expect(!page.contains("<script>alert(1)"))
        #expect(page.contains("&lt;script&gt;alert(1)"))
    }

    @Test func longTablesShowBothEnds() throws {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day")
        var options = HTMLReport.Options()
        options.tableLimit = 4
        let page = HTMLReport(report, orderedApps: order, options: options).render()
        let rows = Decisions.rows(report.events)
        if rows.count > 4 {
            #expect(page.contains("\(HTMLText.count(rows.count - 4)) decisions left out"))
        }
    }

    /// A run of `copies` × phone-day's 8 apps (each copy's apps a key of their own, with the
    /// figures and memory of the original), and the apps in the workload's order. The copy `hot`
    /// is evicted the most.
    static func manyApps(_ copies: Int, hot: Int) throws -> (Report, [String]) {
        let (report, order) = try ReportFixture.builtinWithApps("phone-day")
        var many = report
        many.apps = [:]
        many.timeline.appBytes = [:]
        var keys: [String] = []
        for copy in 0..<copies {
            for app in order {
                let key = "\(app)-\(copy)"
                many.apps[key] = report.apps[app]
                many.apps[key]?.name = key
                many.timeline.appBytes[key] = report.timeline.appBytes[app]
                keys.append(key)
            }
        }
        many.apps["\(order[0])-\(hot)"]?.evictions = 1_000
        return (many, keys)
    }

    /// Past `Options.drawnApps` apps, the memory layers, lanes, Limits rows and the decisions'
    /// app filter are those of the most affected apps, the others one layer and a line: the page
    /// stops growing with the number of apps (the apps table keeps its first and last rows).
    @Test func manyAppsDrawTheMostAffectedAndThePageStopsGrowing() throws {
        let limit = HTMLReport.Options().drawnApps
        let (report, order) = try Self.manyApps(250, hot: 200)
        let page = HTMLReport(report, orderedApps: order)
        #expect(page.drawnApps.count == limit)
        #expect(page.drawnApps.contains("\(order[0].split(separator: "-")[0])-200"), "the most evicted app is drawn")
        #expect(page.drawnApps == order.filter(Set(page.drawnApps).contains), "in the workload's order")
        let html = page.render()
        #expect(html.components(separatedBy: "<path class=\"area\"").count - 1 <= limit + 1)
        #expect(html.contains("\(HTMLText.count(order.count - limit)) other apps"), "one layer adds up the rest")
        #expect(html.contains("The lanes of \(HTMLText.count(order.count - limit)) more apps are left out"))
        #expect(html.contains("<div class=\"lanes\" style=\"--rows:\(limit)\">"), "a lane per app drawn")
        // Ten times the apps past the bound: the same page but for the apps table's numbers.
        let (larger, largerOrder) = try Self.manyApps(2_500, hot: 200)
        let largerHTML = HTMLReport(larger, orderedApps: largerOrder).render()
        let (smaller, smallerOrder) = try Self.manyApps(100, hot: 50)
        let smallerHTML = HTMLReport(smaller, orderedApps: smallerOrder).render()
        #expect(largerHTML.utf8.count < html.utf8.count * 11 / 10, "\(largerHTML.utf8.count) bytes for 20,000 apps, \(html.utf8.count) for 2,000")
        #expect(smallerHTML.utf8.count < html.utf8.count * 11 / 10)
        // At or below the bound, every app is drawn.
        let (few, fewOrder) = try Self.manyApps(limit / 8, hot: 0)
        #expect(HTMLReport(few, orderedApps: fewOrder).drawnApps == fewOrder)
        #expect(!HTMLReport(few, orderedApps: fewOrder).render().contains("more apps are left out"))
    }

    @Test func runIndexListsRuns() throws {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("memprof-index-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: dir) }
        let (report, _) = try ReportFixture.builtinWithApps("phone-day")
        try AtomicFiles.write([OutputFile(name: "report.json", data: try ReportJSON.encode(report)), OutputFile(name: "report.html", data: Data("x".utf8))],
                              into: dir.appendingPathComponent("phone-day"))
        try fm.createDirectory(at: dir.appendingPathComponent("junk"), withIntermediateDirectories: true)
        try RunIndex.write(into: dir)
        let page = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("href=\"phone-day/report.html\""))
        #expect(page.contains("href=\"phone-day/report.json\""))
        #expect(!page.contains("junk"))
        #expect(page.contains("iphone-6-plus"))
    }
}
