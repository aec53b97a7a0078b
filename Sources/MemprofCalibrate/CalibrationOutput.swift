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
        out += "Objective \(CalibratedSweep.decimal(objective.value)) over \(objective.statistics) statistics "
            + "(95% bound \(CalibratedSweep.decimal(objective.bound))); \(budget.used) of \(budget.evaluations) search evaluations, "
            + "\(budget.profile) for the profiles\n"
        if !measured.isEmpty {
            out += "\nSet from the field:\n"
            for m in measured {
                let human = m.value.hasSuffix("B") ? (try? Quantity.size(m.value).get()).map(Format.bytes) ?? m.value
                    : m.value.hasSuffix("us") ? (try? Quantity.duration(m.value).get()).map(Format.duration) ?? m.value : m.value
                out += "  \(m.key) = \(human): \(m.source)\n"
            }
        }
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

    static func perThousand(_ perDay: Double) -> String { CalibratedSweep.decimal(perDay * 1000) }

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
