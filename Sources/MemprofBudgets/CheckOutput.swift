import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofReport

/// Text forms of a budget check.
public enum CheckOutput {
    public static func terminal(_ c: BudgetCheck, color: Bool = false) -> String {
        let broken = c.broken
        var out = "memprof check: \(c.workload) — \(c.results.count) budgets, \(broken.count) broken\n"
        for r in c.results {
            let mark = r.met ? "ok    " : "BROKEN"
            let shown = color ? "\u{1B}[\(r.met ? "32" : "31")m\(mark)\u{1B}[0m" : mark
            out += "\(shown)  \(r.message)\n"
            for cause in r.causes { out += "          \(cause)\n" }
        }
        return out
    }

    public static func markdown(_ c: BudgetCheck) -> String {
        let broken = c.broken
        var out = "### \(broken.isEmpty ? "✅" : "❌") memprof check: `\(Markdown.cell(c.workload))`\n\n"
        out += "\(c.results.count) budgets, \(broken.count) broken.\n\n"
        out += Markdown.table(header: ["metric", "allowed", "actual", "verdict"], rows: c.results.map { r in
            ["`\(label(r))`", allowed(r), actual(r), r.met ? "met" : "**broken**"]
        }, rightAligned: [2])
        for r in broken where !r.causes.isEmpty {
            out += "\n**\(Markdown.cell(r.message))**\n\n"
            for cause in r.causes { out += "- \(Markdown.cell(cause))\n" }
        }
        return out
    }

    public static func allowed(_ r: BudgetResult) -> String {
        let format = { (x: Double) in text(x, kind: r.kind, statistic: r.statistic) }
        return [r.min.map { "≥ \(format($0))" }, r.max.map { "≤ \(format($0))" }].compactMap { $0 }.joined(separator: ", ")
    }

    /// The value a budget was checked against, in its unit.
    public static func actual(_ r: BudgetResult) -> String { text(r.actual, kind: r.kind, statistic: r.statistic) }

    /// The metric a result is about: its path, and for a fleet its cell and statistic.
    public static func label(_ r: BudgetResult) -> String {
        guard let statistic = r.statistic else { return r.metric }
        return "\(r.cell.map { "\($0): " } ?? "")\(r.metric) \(statistic)"
    }

    /// A value of a metric, or of a statistic of it over a fleet's runs: a share in percent, a
    /// mean of counts with two decimals (0.26 a day), otherwise in the metric's unit.
    public static func text(_ x: Double, kind: MetricKind, statistic: String?) -> String {
        switch statistic {
        case "shareAboveZero": return Format.oneDecimal(x * 100) + "%"
        case "mean" where kind == .count: return String(format: "%.2f", x)
        default: return kind.format(x)
        }
    }

    /// How a statistic reads in a sentence.
    public static func statisticName(_ statistic: String) -> String {
        switch statistic {
        case "mean": "per run (mean)"
        case "shareAboveZero": "share of runs above zero"
        default: statistic
        }
    }

    public static func junit(_ c: BudgetCheck) -> String {
        JUnit.document(suite: "memprof check \(c.workload)", cases: c.results.map { r in
            JUnit.TestCase(classname: "memprof.check.\(r.scope)", name: label(r),
                           failure: r.met ? nil : r.message + (r.causes.isEmpty ? "" : "\n" + r.causes.joined(separator: "\n")),
                           output: "allowed \(allowed(r)), actual \(actual(r))")
        })
    }

    public static func json(_ c: BudgetCheck) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(c)
        data.append(0x0A)
        return data
    }

    /// The check as a page: with the report, its memory chart with the decisions; for a fleet
    /// (no report) the budgets per cell, each broken one with its cell's worst runs.
    /// - Parameter marks: the report's decision marks when gathered while reading it; nil: drawn from its events.
    public static func html(_ c: BudgetCheck, report: Report?, marks: DecisionMarks? = nil) -> String {
        let esc = HTMLEscape.text
        let broken = c.broken
        var body = "<h1>memprof check: \(esc(c.workload))</h1>\n"
        body += "<p class=\"verdict \(broken.isEmpty ? "good" : "bad")\">\(c.results.count) budgets, \(broken.count) broken.</p>\n"
        let memory = report.map { CompareHTML.memorySection($0, marks: marks) }
        body += memory?.html ?? ""
        body += "<h2>Budgets</h2>\n<table>\n<thead><tr><th>metric</th><th>allowed</th><th>actual</th><th>verdict</th></tr></thead>\n<tbody>\n"
        for r in c.results {
            body += "<tr class=\"\(r.met ? "same" : "worse")\"><td><code>\(esc(label(r)))</code></td><td>\(esc(allowed(r)))</td>"
                + "<td class=\"num\">\(esc(actual(r)))</td><td>\(r.met ? "met" : "broken")</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        for r in broken where !r.causes.isEmpty {
            body += "<h3>\(esc(r.message))</h3>\n<ol class=\"events\">\n"
            for cause in r.causes { body += "<li>\(esc(cause))</li>\n" }
            body += "</ol>\n"
        }
        return CompareHTML.page(title: "memprof check: \(c.workload)", body: body, data: memory?.data, kind: "check")
    }
}
