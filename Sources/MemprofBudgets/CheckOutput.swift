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
            ["`\(r.metric)`", allowed(r), r.kind.format(r.actual), r.met ? "met" : "**broken**"]
        }, rightAligned: [2])
        for r in broken where !r.causes.isEmpty {
            out += "\n**\(Markdown.cell(r.message))**\n\n"
            for cause in r.causes { out += "- \(Markdown.cell(cause))\n" }
        }
        return out
    }

    public static func allowed(_ r: BudgetResult) -> String {
        [r.min.map { "≥ \(r.kind.format($0))" }, r.max.map { "≤ \(r.kind.format($0))" }].compactMap { $0 }.joined(separator: ", ")
    }

    public static func junit(_ c: BudgetCheck) -> String {
        JUnit.document(suite: "memprof check \(c.workload)", cases: c.results.map { r in
            JUnit.TestCase(classname: "memprof.check.\(r.scope)", name: r.metric,
                           failure: r.met ? nil : r.message + (r.causes.isEmpty ? "" : "\n" + r.causes.joined(separator: "\n")),
                           output: "allowed \(allowed(r)), actual \(r.kind.format(r.actual))")
        })
    }

    public static func json(_ c: BudgetCheck) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(c)
        data.append(0x0A)
        return data
    }

    /// - Parameter marks: the report's decision marks when gathered while reading it; nil: drawn from its events.
    public static func html(_ c: BudgetCheck, report: Report, marks: DecisionMarks? = nil) -> String {
        let esc = HTMLEscape.text
        let broken = c.broken
        var body = "<h1>memprof check: \(esc(c.workload))</h1>\n"
        body += "<p class=\"verdict \(broken.isEmpty ? "good" : "bad")\">\(c.results.count) budgets, \(broken.count) broken.</p>\n"
        let memory = CompareHTML.memorySection(report, marks: marks)
        body += memory.html
        body += "<h2>Budgets</h2>\n<table>\n<thead><tr><th>metric</th><th>allowed</th><th>actual</th><th>verdict</th></tr></thead>\n<tbody>\n"
        for r in c.results {
            body += "<tr class=\"\(r.met ? "same" : "worse")\"><td><code>\(esc(r.metric))</code></td><td>\(esc(allowed(r)))</td>"
                + "<td class=\"num\">\(esc(r.kind.format(r.actual)))</td><td>\(r.met ? "met" : "broken")</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        for r in broken where !r.causes.isEmpty {
            body += "<h3>\(esc(r.message))</h3>\n<ol class=\"events\">\n"
            for cause in r.causes { body += "<li>\(esc(cause))</li>\n" }
            body += "</ol>\n"
        }
        return CompareHTML.page(title: "memprof check: \(c.workload)", body: body, data: memory.data, kind: "check")
    }
}
