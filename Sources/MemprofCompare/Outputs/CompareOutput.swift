import MemprofOutput
import Foundation
import MemprofCore
import MemprofReport

/// The text forms of a comparison: terminal table, Markdown, JUnit XML and JSON.
public enum CompareOutput {
    /// The rows shown: everything when `all`, otherwise every metric that did not stay the same,
    /// plus neutral metrics that changed (so the reader sees what moved). The apps' metrics lead,
    /// worse first, then the summary's, then the internal counters shown for context.
    public static func shownRows(_ c: Comparison, all: Bool) -> [MetricComparison] {
        let rows = all ? c.metrics
            : c.metrics.indices.filter { c.metrics[$0].verdict != .same || (c.metrics[$0].change ?? 0) != 0 }.map { c.metrics[$0] }
        let rank: [Verdict: Int] = [.worse: 0, .better: 1, .gone: 2, .new: 3, .same: 4]
        func key(_ r: MetricComparison, _ offset: Int) -> (Int, Int, Int, Int) {
            (r.context ? 1 : 0, r.scope == "summary" && !r.metric.hasPrefix("apps.") ? 1 : 0, rank[r.verdict]!, offset)
        }
        return rows.enumerated().sorted { key($0.element, $0.offset) < key($1.element, $1.offset) }.map(\.element)
    }

    /// The rows of counts of resumes (`….resumeLatencyUs.count`) by path, which `absence` looks
    /// up for each latency row: found once per output, not once per row.
    static func latencyCounts(_ c: Comparison) -> [String: MetricComparison] {
        Dictionary(c.metrics.lazy.filter { $0.metric.hasSuffix(".resumeLatencyUs.count") }.map { ($0.metric, $0) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// - Parameter counts: `latencyCounts(c)`.
    static func cells(_ row: MetricComparison, counts: [String: MetricComparison]) -> [String] {
        let absence = absence(row, counts: counts)
        return [row.metric,
                row.base.map(row.kind.format) ?? (absence != nil ? "0 (absent)" : "–"),
                row.new.map(row.kind.format) ?? (absence != nil ? "0 (absent)" : "–"),
                row.change.map { ($0 > 0 ? "+" : $0 < 0 ? "-" : "") + row.kind.format(abs($0)) } ?? "–",
                row.changePercent.map(Comparer.signedPercent) ?? (row.change.map { $0 == 0 ? "0%" : "new" } ?? "–"),
                absence ?? verdictText(row)]
    }

    /// Why a metric is 0 or missing in one run because there is nothing to measure there ("0 by
    /// absence"), or nil: the app is not in that run, or a latency has no resumes behind it.
    static func absence(_ row: MetricComparison, counts: [String: MetricComparison]) -> String? {
        if row.base == nil, row.new != nil { return "new: 0 by absence (not in base)" }
        if row.new == nil, row.base != nil { return "gone: 0 by absence (not in new)" }
        if let countPath = Comparer.latencyCountPath(row.metric),
           let count = counts[countPath] {
            let sides = [("base", count.base ?? 0), ("new", count.new ?? 0)].filter { $0.1 == 0 }.map(\.0)
            if !sides.isEmpty {
                return "same: 0 by absence (no resumes in \(sides.joined(separator: " and ")))"
            }
        }
        return nil
    }

    /// The verdict, and for a change that is not one, why: an internal counter shown for
    /// context, a neutral or ignored metric, or the threshold it stayed within and whose it is.
    static func verdictText(_ row: MetricComparison) -> String {
        if row.verdict == .same && (row.change ?? 0) != 0 {
            if row.context { return "context (internal counter, not judged)" }
            if row.ignored { return "same (ignored by the thresholds file)" }
            if row.direction == .neutral { return "same (neutral)" }
            let whose = row.userThreshold ? "your threshold" : "the default threshold"
            return "same (within \(whose) \(Comparer.thresholdText(row)))"
        }
        return row.verdict.rawValue
    }

    static let header = ["metric", "base", "new", "change", "%", "verdict"]

    // MARK: terminal

    /// A plain-text table; ANSI colour on the verdict only when `color`.
    public static func terminal(_ c: Comparison, all: Bool = false, color: Bool = false) -> String {
        var out = "memprof compare: \(c.base.workload)"
        if c.base.workload != c.new.workload { out += " vs \(c.new.workload)" }
        out += " — \(c.metrics.count) metrics: \(c.countsLine)\n"
        for note in c.notes { out += "note: \(note)\n" }
        let rows = shownRows(c, all: all)
        if rows.isEmpty {
            out += "no metric changed\n"
            return out
        }
        let counts = latencyCounts(c)
        let table = [header] + rows.map { cells($0, counts: counts) }
        var widths = Array(repeating: 0, count: header.count)
        for line in table { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        out += "\n"
        for (index, line) in table.enumerated() {
            var text = ""
            for (i, cell) in line.enumerated() {
                let padded = i == 0 || i == line.count - 1
                    ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - cell.count) + cell
                if color && index > 0 && i == line.count - 1 {
                    text += colored(padded, rows[index - 1].verdict)
                } else {
                    text += padded
                }
                if i < line.count - 1 { text += "  " }
            }
            // Trailing spaces trimmed by hand: the regular expression `\s+$` took quadratic time on
            // long padded lines (a fuzzed 216 KB report kept compare busy past the fuzzer's 10 s limit).
            while let last = text.last, last.isWhitespace { text.removeLast() }
            out += text + "\n"
        }
        let worse = c.regressions
        if !worse.isEmpty {
            out += "\n"
            for row in worse { out += (color ? "\u{1B}[31mworse\u{1B}[0m  " : "worse  ") + (row.message ?? row.metric) + "\n" }
        }
        return out
    }

    static func colored(_ text: String, _ verdict: Verdict) -> String {
        let code = switch verdict {
        case .worse: "31"
        case .better: "32"
        case .new, .gone: "33"
        case .same: "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    // MARK: Markdown

    /// A GitHub-flavoured Markdown summary: a headline, the regressions as a list, and a table.
    public static func markdown(_ c: Comparison, all: Bool = false) -> String {
        let icon = c.hasRegression ? "❌" : "✅"
        var out = "### \(icon) memprof compare: `\(Markdown.cell(c.base.workload))`"
        if c.base.workload != c.new.workload { out += " vs `\(Markdown.cell(c.new.workload))`" }
        out += "\n\n\(c.metrics.count) metrics: \(c.countsLine).\n\n"
        for note in c.notes { out += "> \(Markdown.cell(note))\n\n" }
        if c.hasRegression {
            for row in c.regressions { out += "- **worse**: \(Markdown.cell(row.message ?? row.metric))\n" }
            out += "\n"
        }
        let rows = shownRows(c, all: all)
        if rows.isEmpty {
            out += "No metric changed.\n"
            return out
        }
        let counts = latencyCounts(c)
        out += Markdown.table(header: header, rows: rows.map { row in
            var cells = cells(row, counts: counts)
            cells[0] = "`\(cells[0])`"
            cells[5] = row.verdict == .worse ? "**worse**" : cells[5]
            return cells
        }, rightAligned: [1, 2, 3, 4])
        return out
    }


    // MARK: JUnit

    /// One test case per metric, in a suite named after the workload; a worse metric is a failure
    /// whose message is the sentence; new and gone metrics are skipped.
    public static func junit(_ c: Comparison) -> String {
        let cases = c.metrics.map { row -> JUnit.TestCase in
            var tc = JUnit.TestCase(classname: "memprof.compare.\(row.scope)", name: row.metric)
            switch row.verdict {
            case .worse: tc.failure = row.message
            case .new: tc.skipped = "only in the new report"
            case .gone: tc.skipped = "only in the base report"
            case .better, .same: break
            }
            tc.output = "base \(row.base.map(row.kind.format) ?? "–"), new \(row.new.map(row.kind.format) ?? "–"), "
                + "verdict \(verdictText(row))"
            return tc
        }
        return JUnit.document(suite: "memprof compare \(c.base.workload)", cases: cases)
    }

    // MARK: JSON

    public static func json(_ c: Comparison) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(c)
        data.append(0x0A)
        return data
    }
}
