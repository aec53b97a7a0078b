import Foundation
import MemprofCompare
import MemprofReportReader
import MemprofCore
import MemprofField
import MemprofOutput

/// The what-if as people read it: the team's app's background memory-pressure exits first, as a
/// sentence ("news: background memory-pressure exits per 1,000 days, weighted by the device
/// mix: 312 → 204 (-35%, 95% interval -41% to -29%)"), then a table of every row of the team's
/// app and of the other apps' counters that changed, in the terminal and in Markdown.
public enum WhatIfOutput {
    /// Other apps' rows are shown when their change is significant at this level (the fleet
    /// compare's default).
    public static let alpha = 0.01

    /// The rows shown: every row with `all`; otherwise the team's app's, and the other apps'
    /// rows whose change is significant.
    public static func shownRows(_ r: WhatIfResult, all: Bool) -> [WhatIfComparison.Row] {
        all ? r.rows : r.rows.filter { $0.app == r.app || ($0.pValue < alpha && $0.change != 0) }
    }

    /// The headline rows: the team's app's background memory-pressure exits over each
    /// population of the mix or, without a mix, in each cell.
    static func headlines(_ r: WhatIfResult) -> [WhatIfComparison.Row] {
        let rows = r.rows.filter { $0.app == r.app && $0.measure == .memoryPressure }
        let weighted = rows.filter(\.weighted)
        return weighted.isEmpty ? rows : weighted
    }

    static func title(_ r: WhatIfResult) -> String {
        let changes = r.changes + (r.mix ?? []).map { axis in
            "mix \(axis.keyPath)={" + axis.shares.sorted { $0.key < $1.key }.map { "\($0.key): \(FleetSummary.percent($0.value))" }
                .joined(separator: ", ") + "}"
        }
        return "memprof whatif \(r.sweep): \(changes.joined(separator: " ")), on the base's \(Format.count(r.seedCount, "seed")) "
            + "(\(r.seeds), paired)"
    }

    static func lead(_ r: WhatIfResult) -> String {
        let day = r.dayUs == 24 * 3_600_000_000 ? "a run is a device-day"
            : "a run (\(Format.duration(r.dayUs))) counts as a device-day, as a payload does"
        return "\(r.app), the team's app: MetricKit's exits per 1,000 device-days (\(day))"
    }

    /// "news: background memory-pressure exits per 1,000 days, weighted by the device mix (all):
    /// 312 → 204 (-35%, 95% interval -41% to -29%)", and with a calibration the span over the
    /// fit's intervals.
    static func sentence(_ row: WhatIfComparison.Row, app: String) -> [String] {
        let place = row.weighted ? "weighted by the device mix" + (row.cell == "all" ? "" : " (\(row.cell))")
            : row.cell == "all" ? "" : "on \(row.cell)"
        var lines = ["\(app): \(row.measure.words) per 1,000 days\(place.isEmpty ? "" : ", " + place): "
            + "\(value(row.base, row.measure)) → \(value(row.new, row.measure)) (\(changeSentence(row)), p = \(FleetCompare.pText(row.pValue)))"]
        if let span = row.acrossFit {
            if let low = span.relativeLow, let high = span.relativeHigh, let ciLow = span.relativeCiLow, let ciHigh = span.relativeCiHigh {
                lines.append("  at the ends of the fitted parameters' 95% intervals: \(percent(low)) to \(percent(high)); "
                    + "with the seeds' 95% intervals: \(percent(ciLow)) to \(percent(ciHigh))")
            } else {
                lines.append("  at the ends of the fitted parameters' 95% intervals: \(value(span.newLow, row.measure)) to "
                    + "\(value(span.newHigh, row.measure)) per 1,000 days changed")
            }
        }
        return lines
    }

    /// `-35%, 95% interval -41% to -29%`, or for a base of zero the change itself.
    static func changeSentence(_ row: WhatIfComparison.Row) -> String {
        if let c = row.relativeChange, let low = row.relativeCiLow, let high = row.relativeCiHigh {
            return "\(percent(c)), 95% interval \(percent(low)) to \(percent(high))"
        }
        return "\(signed(row.change, row.measure)), 95% interval \(signed(row.ciLow, row.measure)) to \(signed(row.ciHigh, row.measure))"
    }

    static func percent(_ x: Double) -> String { Comparer.signedPercent(x * 100) }

    static func value(_ x: Double, _ m: WhatIfComparison.Measure) -> String {
        m.isExit ? FieldSummary.number(x) : MetricKind.bytes.format(x)
    }

    static func signed(_ x: Double, _ m: WhatIfComparison.Measure) -> String {
        (x < 0 ? "-" : "+") + value(abs(x), m)
    }

    static func header(_ r: WhatIfResult) -> [String] {
        ["app", "MetricKit", "cell", "base", "what-if", "change (95% interval)", "p"]
            + (r.parameters.isEmpty ? [] : ["at the fit's ends"])
    }

    static func cells(_ row: WhatIfComparison.Row, _ r: WhatIfResult) -> [String] {
        let change: String
        if let c = row.relativeChange, let low = row.relativeCiLow, let high = row.relativeCiHigh {
            change = "\(percent(c)) (\(percent(low)) to \(percent(high)))"
        } else {
            change = "\(signed(row.change, row.measure)) (\(signed(row.ciLow, row.measure)) to \(signed(row.ciHigh, row.measure)))"
        }
        var out = [row.app, row.measure.words + (row.measure.isExit ? " per 1,000 days" : ""),
                   (row.weighted ? "weighted: " : "") + row.cell, value(row.base, row.measure), value(row.new, row.measure),
                   change, FleetCompare.pText(row.pValue)]
        if !r.parameters.isEmpty {
            if let span = row.acrossFit, let low = span.relativeLow, let high = span.relativeHigh {
                out.append("\(percent(low)) to \(percent(high))")
            } else if let span = row.acrossFit {
                out.append("\(value(span.newLow, row.measure)) to \(value(span.newHigh, row.measure))")
            } else {
                out.append("–")
            }
        }
        return out
    }

    /// The fitted parameters and their ends, one line each.
    static func fitLines(_ r: WhatIfResult) -> [String] {
        r.parameters.map { p in
            "\(p.keyPath): fitted \(words(p.fitted)), 95% interval \(words(p.low)) to \(words(p.high))"
                + (p.constrained ? "" : " (not constrained by the field: its whole declared range)")
        }
    }

    /// A parameter's value as the sweep writes it (`1468006400B`) in words (`1400 MB`).
    static func words(_ text: String) -> String { SweepFile.Calibrate.Kind.words(text: text) }

    static func hidden(_ r: WhatIfResult, all: Bool) -> Int { r.rows.count - shownRows(r, all: all).count }

    public static func terminal(_ r: WhatIfResult, folder: String, all: Bool = false) -> String {
        var out = title(r) + "\n" + lead(r) + ":\n\n"
        for row in headlines(r) { out += sentence(row, app: r.app).map { "  " + $0 + "\n" }.joined() }
        if !r.parameters.isEmpty {
            out += "\nfitted parameters (the what-if re-run at each end of their intervals):\n"
            out += fitLines(r).map { "  " + $0 + "\n" }.joined()
        }
        let rows = shownRows(r, all: all)
        let right = Set(3...6)
        out += "\n" + TextTable.render([header(r)] + rows.map { cells($0, r) }, rightAligned: right).joined(separator: "\n") + "\n"
        let more = hidden(r, all: all)
        if more > 0 { out += "(\(more) rows of other apps not significant at \(alpha); --all shows them)\n" }
        out += "\n\(folder)/whatif.json and whatif.md; the worlds' fleet results in \(folder)/base and \(folder)/"
            + "\(r.changes.isEmpty ? "base (only the mix changed)" : "changed")"
            + "; their MetricKit payloads (a file per cell, a payload per device-day and app) in \(folder)/metrickit/\n"
        return out
    }

    public static func markdown(_ r: WhatIfResult, all: Bool = false) -> String {
        var out = "### \(Markdown.cell(title(r)))\n\n\(Markdown.cell(lead(r))):\n\n"
        for row in headlines(r) {
            let lines = sentence(row, app: r.app)
            out += "- **\(Markdown.cell(lines[0]))**\n" + lines.dropFirst().map { "  - \(Markdown.cell($0.trimmingCharacters(in: .whitespaces)))\n" }.joined()
        }
        if !r.parameters.isEmpty {
            out += "\nFitted parameters (the what-if re-run at each end of their intervals):\n\n"
            out += fitLines(r).map { "- \(Markdown.cell($0))\n" }.joined()
        }
        out += "\n" + Markdown.table(header: header(r), rows: shownRows(r, all: all).map { cells($0, r) }, rightAligned: Set(3...6))
        let more = hidden(r, all: all)
        if more > 0 { out += "\n\(more) rows of other apps are not significant at \(alpha) (whatif.json has them).\n" }
        out += "\n\(Markdown.cell(r.method)).\n"
        return out
    }
}
