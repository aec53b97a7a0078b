import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofOutput

/// The outputs of a fleet compare, as for reports: terminal, Markdown, HTML, JUnit XML, JSON.
/// Each row states the mean change with its 95% confidence interval and the p-value.
public enum FleetCompareOutput {
    /// In the order of the comparison (the apps' headline metrics first), every row with `all`;
    /// otherwise worse and better rows, the apps' headline metrics that are not zero on both
    /// sides (the answer to "what did this do to my app", whatever its verdict), and rows whose
    /// change had a direction and a p under 0.2, so the reader sees what luck could explain.
    public static func shownRows(_ c: FleetComparison, all: Bool) -> [FleetComparison.Row] {
        all ? c.rows : c.rows.filter { r in
            if r.verdict != .same { return true }
            if r.context { return false }
            return (MetricDirections.isHeadline(r.metric) && (r.baseMean != 0 || r.newMean != 0))
                || (r.direction != .neutral && r.pValue < 0.2 && r.meanChange != 0)
        }
    }

    static let header = ["cell", "metric", "base mean", "new mean", "relative (95% CI)", "change (95% CI)", "p", "verdict"]

    static func cells(_ r: FleetComparison.Row, alpha: Double) -> [String] {
        [r.cell, r.metric, value(r.baseMean, r.kind), value(r.newMean, r.kind), relativeText(r) ?? "–",
         "\(FleetCompare.signed(r.meanChange, r.kind)) (\(FleetCompare.signed(r.ciLow, r.kind)) to \(FleetCompare.signed(r.ciHigh, r.kind)))",
         FleetCompare.pText(r.pValue), verdictText(r, alpha: alpha)]
    }

    /// `-19% (-31% to -4%)`: the mean change and its 95% interval relative to the base mean.
    public static func relativeText(_ r: FleetComparison.Row) -> String? {
        guard let change = r.relativeChange, let low = r.relativeCiLow, let high = r.relativeCiHigh else { return nil }
        return "\(Comparer.signedPercent(change * 100)) (\(Comparer.signedPercent(low * 100)) to \(Comparer.signedPercent(high * 100)))"
    }

    /// The verdict; a change that is not one says why: context, neutral, not significant, or
    /// within a threshold the user set (a fleet applies no threshold of its own). A significant
    /// change of a neutral metric is not "same": it changed, and has no better or worse.
    static func verdictText(_ r: FleetComparison.Row, alpha: Double) -> String {
        guard r.verdict == .same, r.meanChange != 0 else { return r.verdict.rawValue }
        if r.context { return "context (internal counter, not judged)" }
        if r.ignored { return "same (ignored by the thresholds file)" }
        if r.direction == .neutral {
            return r.pValue < alpha ? "changed (neutral: significant at \(trimmedAlpha(alpha)), not judged)" : "same (neutral)"
        }
        if r.pValue >= alpha { return "same (not significant at \(trimmedAlpha(alpha)))" }
        let threshold = r.threshold == 0 ? "" : Comparer.signedPercent(r.threshold * 100).dropFirst() + (r.minDelta > 0 ? ", " : "")
        let floor = r.minDelta > 0 ? "min delta \(value(r.minDelta, r.kind))" : ""
        // Without a threshold of the user's, a significant change with a direction is a verdict.
        return "same (within your threshold \(threshold)\(floor))"
    }

    static func trimmedAlpha(_ alpha: Double) -> String { String(format: "%g", alpha) }

    static func value(_ x: Double, _ kind: MetricKind) -> String {
        kind == .count ? String(format: "%.2f", x) : kind.format(x)
    }

    static func title(_ c: FleetComparison) -> String {
        "memprof compare (fleet): \(c.rows.count) metrics over cells, \(c.test) at alpha \(c.alpha): "
            + "\(c.countsLine). Means are per run (one run is one day of the workload's duration); relative changes "
            + "are of the base mean"
    }

    public static func terminal(_ c: FleetComparison, all: Bool = false) -> String {
        var out = title(c) + "\n"
        for note in c.notes { out += "note: \(note)\n" }
        let rows = shownRows(c, all: all)
        guard !rows.isEmpty else { return out + "no metric changed\n" }
        out += "\n" + TextTable.render([header] + rows.map { cells($0, alpha: c.alpha) }, rightAligned: Set(2...6)).joined(separator: "\n") + "\n"
        let messages = rows.compactMap(\.message)
        if !messages.isEmpty { out += "\n" + messages.joined(separator: "\n") + "\n" }
        return out
    }

    public static func markdown(_ c: FleetComparison, all: Bool = false) -> String {
        var out = "### memprof fleet compare\n\n\(Markdown.cell(title(c)))\n\n"
        for note in c.notes { out += "- note: \(Markdown.cell(note))\n" }
        let rows = shownRows(c, all: all)
        if rows.isEmpty { return out + "\nNo metric changed.\n" }
        out += "\n" + Markdown.table(header: header, rows: rows.map { cells($0, alpha: c.alpha) }, rightAligned: Set(2...6))
        return out
    }

    public static func junit(_ c: FleetComparison) -> String {
        JUnit.document(suite: "memprof fleet compare", cases: c.rows.map { r in
            JUnit.TestCase(classname: r.cell, name: r.metric, failure: r.verdict == .worse ? r.message : nil,
                           output: "mean change \(FleetCompare.signed(r.meanChange, r.kind)) (95% CI "
                               + "\(FleetCompare.signed(r.ciLow, r.kind)) to \(FleetCompare.signed(r.ciHigh, r.kind))), "
                               + "p = \(FleetCompare.pText(r.pValue)), \(r.pairs) pairs")
        })
    }

    public static func json(_ c: FleetComparison) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return try encoder.encode(c)
    }

    public static func html(_ c: FleetComparison, all: Bool = false) -> String {
        func esc(_ s: String) -> String { HTMLEscape.text(s) }
        var body = "<h1>memprof fleet compare</h1>\n<p>\(esc(title(c)))</p>\n"
        for note in c.notes { body += "<p class=\"note\">\(esc(note))</p>\n" }
        let worse = c.rows.compactMap { $0.verdict == .worse ? $0.message : nil }
        if !worse.isEmpty { body += "<ul class=\"worse\">" + worse.map { "<li>\(esc($0))</li>" }.joined() + "</ul>\n" }
        body += "<table>\n<thead><tr>" + header.map { "<th>\(esc($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for r in shownRows(c, all: all) {
            body += "<tr class=\"\(r.verdict.rawValue)\">" + cells(r, alpha: c.alpha).enumerated().map { i, text in
                "<td\((2...6).contains(i) ? " class=\"num\"" : "")>\(esc(text))</td>"
            }.joined() + "</tr>\n"
        }
        body += "</tbody>\n</table>\n"
        return CompareHTML.page(title: "memprof fleet compare", body: body)
    }
}
