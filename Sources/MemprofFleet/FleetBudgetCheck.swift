import MemprofReportReader
import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofInput
import MemprofOutput

/// `memprof check FLEET --budget FILE`: budgets on statistics of each cell's runs (one run is one
/// day of the workload), such as an app's memory-pressure kills a day (`mean`) and the share of
/// days with one (`shareAboveZero`). The statistics are those of fleet.json, made again from
/// runs.csv (whose every value is range-checked as it is read); a broken budget lists its cell's
/// worst runs with the line that replays each.
public enum FleetBudgetChecker {
    /// Worst runs listed per broken budget.
    public static let maxCauses = 5

    public static func check(_ folder: String, against budget: Budget) throws -> BudgetCheck {
        let path = URL(fileURLWithPath: folder).lastPathComponent == "fleet.json"
            ? URL(fileURLWithPath: folder).deletingLastPathComponent().path : folder
        let part = try FleetMerge.readPart(path)
        guard part.result.isComplete else {
            throw MergeError("\(part.folder) is a partial result; merge its shards first")
        }
        let columns = MetricColumns(Array(part.header.dropFirst(RunsCSV.fixedColumns.count)))
        let index = Dictionary(columns.names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var tally = FleetTally(cells: part.result.cells.count, columns: columns.names.count)
        for row in part.rows {
            tally.add(cell: row.cell, values: row.values, run: row.run, seed: row.seed, columns: columns, keep: maxCauses)
        }
        let apps = Set(columns.names.compactMap { MetricPath($0).app }).sorted()
        var results: [BudgetResult] = []
        for limit in budget.limits {
            guard let statistic = limit.statistic else {
                throw (limit.place ?? InputPlace(file: "budget", line: 0, column: 0, keyPath: "")).error(
                    "\(limit.metric) is limited per run ({max, min}); a fleet result needs a statistic of each cell's runs: "
                        + "{\(Budget.statistics.joined(separator: "|")): {max, min}}")
            }
            let cells = try selectedCells(limit, part.result.cells.map(\.label))
            let parsed = MetricPath(limit.metric)
            if let app = parsed.app, app != "*", !apps.contains(app) {
                let message = withSuggestion("no app '\(app)' in the fleet result", for: app, among: apps)
                    + "; it has \(apps.joined(separator: ", "))"
                throw (limit.appPlace ?? limit.place!).error(message)
            }
            let paths = parsed.app == "*" ? apps.map { "apps.\($0).\(parsed.relative)" } : [limit.metric]
            for full in paths {
                guard let c = index[full] else {
                    let scope = full.hasPrefix("summary.") ? "summary" : "apps.<key>"
                    let known = Set(columns.names.filter { $0.hasPrefix("summary.") == full.hasPrefix("summary.") }
                        .map { MetricPath($0).relative }).sorted()
                    let name = MetricPath(full).relative
                    throw limit.place!.error(withSuggestion("'\(name)' is not a metric of \(scope)", for: name, among: known))
                }
                for cell in cells {
                    let a = tally.accumulator(cell: cell.offset, column: c)
                    guard a.count > 0 else { continue }
                    results.append(result(full, statistic: statistic, limit: limit, cell: cell.element, a: a,
                                          replay: { seed in
                                              FleetResult.replay(workload: part.result.sweep.workload, seed: seed,
                                                                 overrides: part.result.cells[cell.offset].overrides)
                                          }))
                }
            }
        }
        return BudgetCheck(workload: "\(part.result.sweep.name) (fleet, \(part.result.sweep.workload))", results: results)
    }

    /// The cells a limit holds for: all, or those whose label is its selector or has every one
    /// of its `key=value` pairs. A selector that names no cell is an error.
    static func selectedCells(_ limit: Budget.Limit, _ labels: [String]) throws -> [(offset: Int, element: String)] {
        let all = labels.enumerated().map { (offset: $0.offset, element: $0.element) }
        guard let selector = limit.cells else { return all }
        let pairs = selector.split(separator: " ").map(String.init)
        let chosen = all.filter { cell in
            cell.element == selector || pairs.allSatisfy(cell.element.split(separator: " ").map(String.init).contains)
        }
        guard !chosen.isEmpty else {
            throw (limit.cellsPlace ?? limit.place!).error(withSuggestion("'\(selector)' names no cell", for: selector, among: labels)
                + "; the cells are: \(labels.joined(separator: "; "))")
        }
        return chosen
    }

    static func result(_ full: String, statistic: String, limit: Budget.Limit, cell: String, a: MetricAccumulator,
                       replay: (UInt64) -> String) -> BudgetResult {
        let p = MetricPath(full)
        let kind = MetricKind.of(full)
        let actual: Double = switch statistic {
        case "mean": a.mean
        case "shareAboveZero": Double(a.aboveZero) / Double(a.count)
        case "max": Double(a.max)
        default: Double(a.percentile(Double(statistic.dropFirst())!))
        }
        let what = "\(cell): \(p.scopeName): \(p.relative) \(CheckOutput.statisticName(statistic)) over \(a.count) runs"
        let (met, message) = BudgetChecker.judge(actual, limit: limit, subject: what) {
            CheckOutput.text($0, kind: kind, statistic: statistic)
        }
        let causes = met ? [] : a.worstRuns.prefix(maxCauses).map { run in
            "seed \(run.seed): \(kind.format(Double(run.value))) — \(replay(run.seed))"
        }
        return BudgetResult(metric: full, scope: p.scopeName, name: p.relative, kind: kind, max: limit.max, min: limit.min,
                            actual: actual, met: met, message: message, causes: causes, cell: cell, statistic: statistic)
    }
}
