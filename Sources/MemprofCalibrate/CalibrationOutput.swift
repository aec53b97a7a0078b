import Foundation
import MemprofCore
import MemprofField
import MemprofInput
import MemprofOutput

/// What `memprof calibrate` prints, and the folder it writes.
extension Calibration {
    /// The terminal summary: fit or no fit first, the parameters, then per cell each rate with
    /// the field's interval and the residual.
    public var text: String {
        var out = ""
        switch outcome {
        case .fit: out += "FIT. "
        case .noFit: out += "NO FIT. "
        case .budgetSpent: out += "NO FIT (budget spent). "
        }
        out += stop + "\n"
        out += "Field: \(field.matchedDays) device-days of \(app.bundleIdentifier) in \(cells.filter { $0.days > 0 }.count) "
            + "cell\(cells.filter { $0.days > 0 }.count == 1 ? "" : "s")"
        if field.days > field.matchedDays { out += " (\(field.days - field.matchedDays) days on devices the sweep does not run)" }
        out += "; \(seeds.count) seeds an evaluation (\(seeds.text))"
        if let ratio = seeds.ratio, ratio.isFinite {
            out += ", simulated intervals at most \(String(format: "%.0f", (ratio * 100).rounded()))% of the field's"
        }
        if seeds.capped { out += " (capped by maxSeeds)" }
        out += "\n"
        out += "Objective \(FieldSummary.number(objective.value)) over \(objective.statistics) statistics "
            + "(95% bound \(FieldSummary.number(objective.bound))); \(budget.used) of \(budget.evaluations) search evaluations, "
            + "\(budget.profile) for the profiles\n"
        out += measuredTable
        out += "\nFitted:\n"
        for p in parameters { out += "  \(p.key) = \(CalibratedSweep.describe(p))\n" }
        for cell in cells {
            let role = cell.role == .fit ? "fitted" : cell.role == .heldOut ? "held out: a prediction" : "no field: a prediction"
            out += "\n\(cell.label) (\(cell.deviceType), \(cell.days) days, \(role))"
            if let inside = cell.inside { out += inside ? ": inside" : ": OUTSIDE" }
            out += "\n"
            var rows: [[String]] = [["exits per 1,000 days", "side", "field", "95% interval", "simulated", "95% interval", "residual", ""]]
            for s in cell.statistics {
                rows.append([FieldSummary.reason(s.counter), s.side, s.field.map { Self.perThousand($0.perDay) } ?? "-",
                             s.field.map { "\(Self.perThousand($0.low)) – \(Self.perThousand($0.high))" } ?? "",
                             Self.perThousand(s.simulated.perDay),
                             "\(Self.perThousand(s.simulated.low)) – \(Self.perThousand(s.simulated.high))",
                             s.residual.map { (($0 >= 0) ? "+" : "") + Self.perThousand($0) } ?? "",
                             s.inside.map { $0 ? "inside" : "OUTSIDE" } ?? ""])
            }
            out += TextTable.render(rows, rightAligned: [2, 4, 6]).map { "  " + $0 + "\n" }.joined()
        }
        return out
    }

    /// What the field sets in each cell, a row a cell and a column a key (its `apps.<app>.`
    /// left off): "Set from the field, each cell from its own days", with the cells that take
    /// the pooled values named. The sources are in calibration.json and the calibrated sweep.
    var measuredTable: String {
        let perCell = cells.map { $0.measured ?? measured }
        var keys: [String] = []
        for m in perCell.joined() where !keys.contains(m.key) { keys.append(m.key) }
        guard !keys.isEmpty else { return "" }
        let prefix = "apps.\(app.key)."
        var rows = [["cell", "days"] + keys.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }]
        for (cell, measured) in zip(cells, perCell) {
            rows.append([cell.label + (cell.role == .noField ? " (no field: pooled)" : ""), String(cell.days)]
                + keys.map { key in measured.first { $0.key == key }.map { Self.words($0.value) } ?? "-" })
        }
        return "\nSet from the field, each cell from its own days (sources: calibration.json, sweep.yaml):\n"
            + TextTable.render(rows, rightAligned: Set(1..<(keys.count + 2))).map { "  " + $0 + "\n" }.joined()
    }

    /// A measured value as words: a size (`180 MB`), a duration (`2m30s`), or the number.
    static func words(_ value: String) -> String {
        value.hasSuffix("B") ? (try? Quantity.size(value).get()).map(Format.bytes) ?? value
            : value.hasSuffix("us") ? (try? Quantity.duration(value).get()).map(Format.duration) ?? value : value
    }

    static func perThousand(_ perDay: Double) -> String { FieldSummary.number(perDay * 1000) }

    /// Writes the calibrated sweep, calibration.json and calibration.html (``CalibrationHTML``)
    /// into `folder`, whole or not at all.
    public func write(sweepText: String, into folder: URL) throws {
        try AtomicFiles.replaceFolder(folder, with: [
            OutputFile(name: CalibratedSweep.fileName, data: Data(sweepText.utf8)),
            OutputFile(name: "calibration.json", data: try encoded()),
            OutputFile(name: "calibration.html", data: Data(CalibrationHTML.page(self).utf8)),
        ], isOwnFile: { $0 == CalibratedSweep.fileName || $0 == "calibration.json" || $0 == "calibration.html" })
    }
}
