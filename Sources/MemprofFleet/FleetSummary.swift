import MemprofReportReader
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport

/// What `memprof sweep` prints: one line per cell with its headline figures (`CellFigures`, each
/// defined in README "Fleets"), the population totals of the sweep's `mix`, per cell the apps
/// evicted on the largest share of days, and a table per app asked for with `--app`; for at most
/// the cells fleet.html draws (``FleetHTML/maxCellsShown``, those with the most evictions), so
/// what is printed stays bounded.
public enum FleetSummary {
    /// The summary followed by the paths of the files written into `folder`.
    public static func render(_ result: FleetResult, folder: String, apps: [String] = []) -> String {
        var lines = [render(result, apps: apps), ""]
        lines.append("fleet      \(folder)/fleet.json")
        lines.append("runs       \(folder)/runs.csv")
        if result.isComplete { lines.append("html       \(folder)/fleet.html") }
        return lines.joined(separator: "\n")
    }

    /// The apps a result has metrics for, sorted.
    public static func apps(of result: FleetResult) -> [String] {
        var apps = Set<String>()
        for cell in result.cells {
            for key in cell.metrics.keys { if let app = MetricPath(key).app { apps.insert(app) } }
        }
        return apps.sorted()
    }

    public static func render(_ result: FleetResult, apps: [String] = []) -> String {
        let s = result.sweep
        var lines = ["\(s.name): \(s.workload), seeds \(s.seeds), \(result.cells.count) cell\(result.cells.count == 1 ? "" : "s"), "
            + "\(result.runsFile.rows) of \(s.runs) runs" + (result.shard.map { " (shard \($0.parts.map(String.init).joined(separator: ",")) of \($0.of))" } ?? ""), ""]
        let shown = FleetHTML.shownCells(result.cells)
        if shown.count < result.cells.count {
            lines.insert("the \(shown.count) of \(result.cells.count) cells with the most evictions per run; every cell is in fleet.json", at: 1)
        }
        lines += table(result, shown: shown, headings: CellFigures.headings) { $0.columns }
        for cell in shown {
            var evicted: [(app: String, share: Double)] = []
            for (key, stats) in cell.metrics {
                let path = MetricPath(key)
                if let app = path.app, path.relative == "evictions", let share = stats.shareAboveZero, share > 0 {
                    evicted.append((app, share))
                }
            }
            evicted.sort { $0.share != $1.share ? $0.share > $1.share : $0.app < $1.app }
            evicted = Array(evicted.prefix(3))
            guard !evicted.isEmpty else { continue }
            lines.append("\(cell.label): " + evicted.map { "\($0.app) evicted on \(percent($0.share)) of days" }.joined(separator: ", "))
        }
        for app in apps {
            lines += ["", "\(app), per cell:"]
            lines += table(result, shown: shown, headings: CellFigures.appHeadings) { $0.appColumns(app) }
        }
        return lines.joined(separator: "\n")
    }

    /// One row per shown cell, then one per population total of the sweep's mix.
    static func table(_ result: FleetResult, shown: [FleetResult.Cell], headings: [String],
                      columns: (CellFigures) -> [String]) -> [String] {
        let mixed = result.sweep.mix != nil
        var rows = [["cell"] + (mixed ? ["share"] : []) + ["runs"] + headings]
        for cell in shown {
            rows.append([cell.label] + (mixed ? [percent(cell.populationShare ?? 0)] : []) + [String(cell.runs)]
                + columns(CellFigures(cell)))
        }
        for total in result.weighted ?? [] {
            let runs = total.cells.reduce(0) { $0 + result.cells[$1].runs }
            rows.append(["weighted: \(total.label)", "100%", String(runs)] + columns(CellFigures(total)))
        }
        return TextTable.render(rows, rightAligned: Set(1..<rows[0].count))
    }

    /// A share as a percentage with at most one decimal: `37.5%`, `75%` (also for 0.7499999…).
    /// A share (0...1) as a percentage with at most one decimal: `62.5%`.
    public static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded()
        return (tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : Format.oneDecimal(tenths / 10)) + "%"
    }
}
