import Foundation
import MemprofCompare
import MemprofOutput

/// The outputs of a fleet compare, as for reports: terminal, Markdown, HTML, JUnit XML, JSON.
/// Each row states the mean change with its 95% confidence interval and the p-value.
public enum FleetCompareOutput {
    /// Worse and better rows, then (with `all`) every other; otherwise also rows whose change
    /// passed the threshold without being significant, so the reader sees what luck could explain.
    public static func shownRows(_ c: FleetComparison, all: Bool) -> [FleetComparison.Row] {
        let rank: [Verdict: Int] = [.worse: 0, .better: 1, .gone: 2, .new: 3, .same: 4]
        let rows = all ? c.rows : c.rows.filter { $0.verdict != .same || ($0.direction != .neutral && $0.pValue < 0.2 && $0.meanChange != 0) }
        return rows.enumerated().sorted { (rank[$0.element.verdict]!, $0.offset) < (rank[$1.element.verdict]!, $1.offset) }.map(\.element)
    }

    static let header = ["cell", "metric", "base mean", "new mean", "mean change", "95% CI", "p", "verdict"]

    static func cells(_ r: FleetComparison.Row, alpha: Double) -> [String] {
        [r.cell, r.metric, value(r.baseMean, r.kind), value(r.newMean, r.kind), FleetCompare.signed(r.meanChange, r.kind),
         "\(FleetCompare.signed(r.ciLow, r.kind)) to \(FleetCompare.signed(r.ciHigh, r.kind))", FleetCompare.pText(r.pValue),
         r.verdict == .same && r.direction != .neutral && r.meanChange != 0
            ? (r.pValue < alpha ? "same (within threshold)" : "same (not significant)") : r.verdict.rawValue]
    }

    static func value(_ x: Double, _ kind: MetricKind) -> String {
        kind == .count ? String(format: "%.2f", x) : kind.format(x)
    }

    static func title(_ c: FleetComparison) -> String {
        "memprof compare (fleet): \(c.rows.count) metrics over cells, paired by seed, \(c.test) at alpha \(c.alpha): \(c.countsLine)"
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
