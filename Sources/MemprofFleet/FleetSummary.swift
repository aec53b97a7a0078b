import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport

/// What `memprof sweep` prints: one line per cell with its headline figures, and per cell the
/// apps evicted on the largest share of days; for at most the cells fleet.html draws
/// (``FleetHTML/maxCellsShown``, those with the most evictions), so what is printed stays bounded.
public enum FleetSummary {
    /// The summary followed by the paths of the files written into `folder`.
    public static func render(_ result: FleetResult, folder: String) -> String {
        var lines = [render(result), ""]
        lines.append("fleet      \(folder)/fleet.json")
        lines.append("runs       \(folder)/runs.csv")
        if result.isComplete { lines.append("html       \(folder)/fleet.html") }
        return lines.joined(separator: "\n")
    }

    public static func render(_ result: FleetResult) -> String {
        let s = result.sweep
        var lines = ["\(s.name): \(s.workload), seeds \(s.seeds), \(result.cells.count) cell\(result.cells.count == 1 ? "" : "s"), "
            + "\(result.runsFile.rows) of \(s.runs) runs" + (result.shard.map { " (shard \($0.parts.map(String.init).joined(separator: ",")) of \($0.of))" } ?? ""), ""]
        let shown = FleetHTML.shownCells(result.cells)
        if shown.count < result.cells.count {
            lines.insert("the \(shown.count) of \(result.cells.count) cells with the most evictions per run; every cell is in fleet.json", at: 1)
        }
        var rows = [["cell", "runs", "days evicting", "evictions mean", "cold p50", "cold p95", "peak p95", "days with kills"]]
        for cell in shown {
            let m = cell.metrics
            func share(_ name: String) -> String { m[name]?.shareAboveZero.map(percent) ?? "-" }
            rows.append([cell.label, String(cell.runs), share("summary.evictions"),
                         m["summary.evictions"].map { Format.oneDecimal($0.mean) } ?? "-",
                         m["summary.coldLaunches"].map { String($0.p50) } ?? "-",
                         m["summary.coldLaunches"].map { String($0.p95) } ?? "-",
                         m["summary.peakUsedBytes"].map { MetricKind.bytes.format(Double($0.p95)) } ?? "-",
                         share("summary.terminations.memoryLimit")])
        }
        lines += TextTable.render(rows, rightAligned: Set(1...7))
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
        return lines.joined(separator: "\n")
    }

    static func percent(_ share: Double) -> String {
        let p = share * 100
        return (p == p.rounded() ? String(Int(p)) : Format.oneDecimal(p)) + "%"
    }
}
