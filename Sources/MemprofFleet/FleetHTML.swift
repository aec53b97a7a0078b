import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofHTML
import MemprofOutput

/// fleet.html: one self-contained page (no script, no request: a Content-Security-Policy allows
/// only inline styles), light and dark. The cells, named by their matrix values, with the
/// figures `CellFigures` defines (and the weighted totals of the sweep's `mix`); heatmaps of
/// the share of days each app is evicted, and killed for memory, at least once, app × cell; the
/// same figures per app; one section per metric family with each summary metric's
/// distribution per cell (a histogram drawn from the sweep's tally, on an axis shared by the
/// cells); the worst seeds with the `memprof run` lines that replay them.
public enum FleetHTML {
    /// Metric families and the summary metrics drawn in each.
    static let families: [(title: String, metrics: [String])] = [
        ("Launches", ["summary.coldLaunches", "summary.coldRelaunchesAfterKill", "summary.warmResumes",
                      "summary.compressedResumes", "summary.backgroundLaunches"]),
        ("Memory", ["summary.evictions", "summary.compressions", "summary.memoryWarnings", "summary.peakUsedBytes",
                    "summary.peakCompressedBytes", "summary.compressor.peakBytes", "summary.compressor.decompressions"]),
        ("Kills", ["summary.terminations.memoryLimit", "summary.terminations.memoryPressure",
                   "summary.terminations.backgroundTaskTimeout", "summary.terminations.fetchTimeout",
                   "summary.terminations.pushTimeout", "summary.terminations.watchdog", "summary.terminations.badAccess"]),
        ("Background work", ["summary.backgroundTasks.completed", "summary.backgroundTasks.expiredEnded",
                             "summary.backgroundTasks.expiredKilled", "summary.fetches.timedOut", "summary.pushes.timedOut",
                             "summary.refreshTasks.completed", "summary.refreshTasks.expired",
                             "summary.processingTasks.completed", "summary.processingTasks.expired"]),
        ("Pressure", ["summary.timeAtPressureUs.warning", "summary.timeAtPressureUs.critical"]),
    ]
    /// The metrics whose worst seeds the page lists.
    static let worstMetrics = ["summary.evictions", "summary.coldRelaunchesAfterKill", "summary.terminations.memoryLimit",
                               "summary.peakUsedBytes", "summary.timeAtPressureUs.critical"]
    static let bins = 24
    /// The most cells the page draws (its cell table, heatmap, histograms and worst seeds):
    /// the page's size and the memory to make it stay bounded whatever the matrix. A sweep with
    /// more cells shows those with the most evictions per run; fleet.json and runs.csv hold all.
    public static let maxCellsShown = 64

    public static func data(_ result: FleetResult, tally: FleetTally, columns: MetricColumns) -> Data {
        Data(page(result, tally: tally, columns: columns).utf8)
    }

    /// The cells the page draws, in index order: all of them, or the ``maxCellsShown`` with the
    /// highest mean evictions (ties by index).
    static func shownCells(_ cells: [FleetResult.Cell]) -> [FleetResult.Cell] {
        guard cells.count > maxCellsShown else { return cells }
        let ranked = cells.sorted { a, b in
            let x = a.metrics["summary.evictions"]?.mean ?? 0, y = b.metrics["summary.evictions"]?.mean ?? 0
            return x != y ? x > y : a.index < b.index
        }
        return ranked.prefix(maxCellsShown).sorted { $0.index < $1.index }
    }

    static func page(_ result: FleetResult, tally: FleetTally, columns: MetricColumns) -> String {
        var r = result
        r.cells = shownCells(result.cells)
        var body = "<main id=\"fleet\">\n<h1>\(esc(r.sweep.name))</h1>\n"
        body += "<p class=\"note\">workload <code>\(esc(r.sweep.workload))</code>, seeds \(esc(r.sweep.seeds)) "
            + "(\(r.sweep.seedCount)), \(result.cells.count) cell\(result.cells.count == 1 ? "" : "s"), \(r.runsFile.rows) runs; "
            + "memprof \(esc(r.tool.version)). Per-run values: <code>runs.csv</code>.</p>\n"
        if r.cells.count < result.cells.count {
            body += "<p class=\"note\" id=\"cells-shown\">This page shows the \(r.cells.count) of \(result.cells.count) cells with "
                + "the most evictions per run; every cell's statistics are in <code>fleet.json</code>, every run in "
                + "<code>runs.csv</code>.</p>\n"
        }
        body += cellTable(r)
        body += heatmap(r, id: "heatmap", title: "Share of days with at least one eviction",
                        what: "evicted at least once") { cell, app in cell.metrics["apps.\(app).evictions"]?.shareAboveZero }
        body += heatmap(r, id: "kill-heatmap", title: "Share of days with a memory kill of the app",
                        what: "killed for memory (\(memoryKillReasons)) at least once") { cell, app in
            cell.memoryKillDays?.apps[app]
        }
        body += appTables(r)
        for family in families {
            let present = family.metrics.filter { name in r.cells.contains { $0.metrics[name] != nil } }
            guard !present.isEmpty else { continue }
            // A metric with one value in every run of every cell has no distribution to draw.
            let constant = present.filter { name in
                let s = r.cells.compactMap { $0.metrics[name] }
                return s.allSatisfy { $0.min == $0.max && $0.min == s[0].min }
            }
            body += "<section class=\"family\">\n<h2>\(esc(family.title))</h2>\n<div class=\"grid\">\n"
            for name in present where !constant.contains(name) { body += distribution(name, r, tally: tally, columns: columns) }
            body += "</div>\n"
            if !constant.isEmpty {
                body += "<p class=\"note\">The same in every run of every cell: " + constant.map { name in
                    let v = r.cells.compactMap { $0.metrics[name] }[0].min
                    return "\(esc(String(name.dropFirst(8)))) \(esc(MetricKind.of(name).format(Double(v))))"
                }.joined(separator: ", ") + ".</p>\n"
            }
            body += "</section>\n"
        }
        body += worst(r)
        body += "</main>\n"
        return HTMLPage.document(title: "memprof sweep: \(r.sweep.name)", kind: "fleet", body: body, style: style)
    }

    /// Every reason a memory kill counts (``ExitReason/isMemoryKill``), as the kill heatmap's cells say.
    static let memoryKillReasons = ExitReason.memoryKills.map(\.rawValue).joined(separator: ", ")

    /// fleet.html's own rules, over the shared stylesheet (its colours follow the theme).
    static let style = """
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(360px,100%),1fr));gap:1em}
        .scroll{max-height:none}
        .note{color:var(--muted)}ul.worse li{color:var(--bad)}
        figure{margin:0}figcaption{color:var(--muted);margin-bottom:4px}
        figure.dist svg{height:auto}
        .bar{fill:var(--comp)}.axis{stroke:var(--muted);stroke-width:1}
        svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
        table.heat td.h{text-align:center;font-variant-numeric:tabular-nums;min-width:5em}
        code{font-size:12px;word-break:break-all}
        .cellname{font-weight:600}
        tr.total td{border-top:2px solid var(--muted)}
        """

    static func esc(_ s: String) -> String { HTMLEscape.text(s) }

    /// A cell's name: its matrix values (`iphone-11 · xnu`), or `all` without a matrix.
    static func name(_ cell: FleetResult.Cell, _ r: FleetResult) -> String {
        let values = cell.values(matrixKeys: r.sweep.matrix.count)
        return values.isEmpty ? "all" : values.joined(separator: " · ")
    }

    /// A table with a column per matrix key naming the cells, the population share with a mix,
    /// runs, and `columns`; then the mix's weighted totals.
    static func figuresTable(_ r: FleetResult, headings: [String], columns: (CellFigures) -> [String]) -> String {
        let mixed = r.sweep.mix != nil
        let keys = r.sweep.matrix.map(\.keyPath)
        var out = "<div class=\"scroll\"><table>\n<thead><tr>"
            + (keys.isEmpty ? ["cell"] : keys).map { "<th>\(esc($0))</th>" }.joined()
            + (mixed ? "<th>population share</th>" : "") + "<th>runs</th>"
            + headings.map { "<th>\(esc($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        func numbers(_ list: [String]) -> String { list.map { "<td class=\"num\">\(esc($0))</td>" }.joined() }
        for cell in r.cells {
            let values = cell.values(matrixKeys: keys.count)
            out += "<tr>" + (values.isEmpty ? ["all"] : values).map { "<td class=\"cellname\">\(esc($0))</td>" }.joined()
                + (mixed ? numbers([FleetSummary.percent(cell.populationShare ?? 0)]) : "")
                + numbers([String(cell.runs)] + columns(CellFigures(cell))) + "</tr>\n"
        }
        for total in r.weighted ?? [] {
            let runs = total.cells.reduce(0) { sum, index in sum + (r.cells.first { $0.index == index }?.runs ?? 0) }
            out += "<tr class=\"total\"><td class=\"cellname\" colspan=\"\(max(1, keys.count))\">weighted: \(esc(total.label))</td>"
                + numbers(["100%", String(runs)] + columns(CellFigures(total))) + "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }

    static func cellTable(_ r: FleetResult) -> String {
        var out = "<h2>Cells</h2>\n" + figuresTable(r, headings: CellFigures.headings) { $0.columns }
        if r.sweep.mix != nil {
            out += "<p class=\"note\">A cell's population share is the product of its mixed values' shares (the sweep's "
                + "<code>mix</code>); a weighted row gives the population's means and shares of days, each cell weighted "
                + "by its share (percentiles do not add up over cells, so they have none).</p>\n"
        }
        return out
    }

    /// Per app, its figures per cell: what `memprof sweep --app` prints.
    static func appTables(_ r: FleetResult) -> String {
        let apps = FleetSummary.apps(of: r)
        guard !apps.isEmpty else { return "" }
        var out = "<section id=\"apps\">\n<h2>Apps</h2>\n"
        for app in apps {
            out += "<h3>\(esc(app))</h3>\n" + figuresTable(r, headings: CellFigures.appHeadings) { $0.appColumns(app) }
        }
        return out + "</section>\n"
    }

    /// App × cell: a share of days for the app, shaded by it.
    static func heatmap(_ r: FleetResult, id: String, title: String, what: String,
                        share: (FleetResult.Cell, String) -> Double?) -> String {
        let apps = FleetSummary.apps(of: r)
        var out = "<section id=\"\(id)\">\n<h2>\(esc(title))</h2>\n<div class=\"scroll\"><table class=\"heat\">\n<thead><tr><th>app</th>"
        for cell in r.cells { out += "<th title=\"\(esc(cell.label))\">\(esc(name(cell, r)))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for app in apps {
            out += "<tr><td>\(esc(app))</td>"
            for cell in r.cells {
                guard let share = share(cell, app) else {
                    out += "<td class=\"h\">-</td>"
                    continue
                }
                // At most 55% opaque, so the page's own text colour keeps a 4.5:1 contrast on it
                // in both themes (dark text over white, light text over the dark page).
                let alpha = String(format: "%.2f", 0.06 + share * 0.49)
                out += "<td class=\"h\" style=\"background:rgba(160,20,20,\(alpha))\" "
                    + "title=\"\(esc(app)) in \(esc(cell.label)): \(esc(what)) on \(FleetSummary.percent(share)) of days\">"
                    + "\(FleetSummary.percent(share))</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n</section>\n"
    }

    /// One metric: a histogram per cell on a shared axis, with its percentiles.
    static func distribution(_ name: String, _ r: FleetResult, tally: FleetTally, columns: MetricColumns) -> String {
        guard let c = columns.column(name) else { return "" }
        let kind = columns.kinds[c]
        let stats = r.cells.compactMap { $0.metrics[name] }
        guard let low = stats.map(\.min).min(), let high = stats.map(\.max).max() else { return "" }
        // Whole-number bins when the values are few; otherwise `bins` equal bins.
        let span = high - low + 1
        let binCount = Int(min(Int64(bins), max(1, span)))
        let width = Double(span) / Double(binCount)
        var out = "<figure class=\"dist\" data-metric=\"\(esc(name))\"><figcaption><b>\(esc(String(name.dropFirst(8))))</b> "
            + "(\(kind.rawValue), \(columns.directions[c].rawValue)) from \(esc(kind.format(Double(low)))) to \(esc(kind.format(Double(high))))</figcaption>\n"
        let rowHeight = 46.0, w = 360.0
        out += "<svg viewBox=\"0 0 \(Int(w)) \(Int(rowHeight * Double(r.cells.count) + 4))\" role=\"img\" aria-label=\"\(esc(name)) per cell\">\n"
        for (row, cell) in r.cells.enumerated() {
            var counts = Array(repeating: 0, count: binCount)
            let acc = tally.accumulator(cell: cell.index, column: c)
            for (bucket, n) in acc.buckets {
                let v = MetricAccumulator.lowerBound(bucket)
                let b = min(binCount - 1, max(0, Int(Double(v - low) / width)))
                counts[b] += Int(n)
            }
            let top = max(1, counts.max() ?? 1)
            let y0 = Double(row) * rowHeight + 2
            let plot = w - 120
            let cellName = Self.name(cell, r)
            let short = cellName.count > 20 ? String(cellName.prefix(19)) + "…" : cellName
            out += "<text x=\"0\" y=\"\(fmt(y0 + 12))\"><title>\(esc(cellName))</title>\(esc(short))</text>"
            if let s = cell.metrics[name] {
                out += "<text x=\"0\" y=\"\(fmt(y0 + 26))\">p50 \(esc(kind.format(Double(s.p50))))</text>"
                out += "<text x=\"0\" y=\"\(fmt(y0 + 40))\">p95 \(esc(kind.format(Double(s.p95))))</text>"
            }
            out += "<line class=\"axis\" x1=\"120\" x2=\"\(fmt(w))\" y1=\"\(fmt(y0 + 40))\" y2=\"\(fmt(y0 + 40))\"/>"
            for (b, n) in counts.enumerated() where n > 0 {
                let h = 36.0 * Double(n) / Double(top)
                let from = Double(low) + Double(b) * width
                let to = Double(low) + Double(b + 1) * width - (kind == .count ? 1 : 0)
                let range = kind == .count && width == 1 ? kind.format(from) : "\(kind.format(from))–\(kind.format(to))"
                out += "<rect class=\"bar\" x=\"\(fmt(120 + plot * Double(b) / Double(binCount)))\" y=\"\(fmt(y0 + 40 - h))\" "
                    + "width=\"\(fmt(max(1, plot / Double(binCount) - 1)))\" height=\"\(fmt(h))\">"
                    + "<title>\(esc(cellName)): \(n) of \(acc.count) runs at \(esc(range))</title></rect>"
            }
            out += "\n"
        }
        return out + "</svg></figure>\n"
    }

    static func fmt(_ x: Double) -> String { String(format: "%.1f", x) }

    static func worst(_ r: FleetResult) -> String {
        var out = "<section id=\"worst\">\n<h2>Worst seeds</h2>\n<p class=\"note\">Each line replays the run in full "
            + "(report.html, trace, stacks).</p>\n<div class=\"scroll\"><table>\n<thead><tr><th>cell</th><th>metric</th><th>value</th><th>replay</th></tr></thead>\n<tbody>\n"
        for cell in r.cells {
            for name in worstMetrics {
                guard let s = cell.metrics[name] else { continue }
                for run in s.worst.prefix(3) {
                    out += "<tr><td class=\"cellname\">\(esc(Self.name(cell, r)))</td><td>\(esc(String(name.dropFirst(8))))</td>"
                        + "<td class=\"num\">\(esc(s.kind.format(Double(run.value))))</td><td><code>\(esc(run.replay))</code></td></tr>\n"
                }
            }
        }
        return out + "</tbody>\n</table></div>\n</section>\n"
    }
}
