import MemprofOutput
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MemprofCompare
import MemprofCore
import MemprofReport
import Testing

/// A pair with one of each verdict: mail's evictions rise (worse), the summary's fall (better),
/// maps is gone, game is new, and a name with characters XML and Markdown must escape.
func verdictPair() throws -> (Report, Report, Comparison) {
    let base = makeReport(apps: ["mail", "maps"]) {
        $0.apps["mail"]!.evictions = 2
        $0.summary.evictions = 5
        $0.summary.peakUsedBytes = 600 << 20
        $0.timeline.usedBytes = [[0, 0], [1_000_000_000, 300 << 20], [5_000_000_000, 600 << 20], [9_000_000_000, 200 << 20]]
    }
    let new = makeReport(apps: ["mail", "game"]) {
        $0.apps["mail"]!.evictions = 5
        $0.summary.evictions = 2
        $0.summary.peakUsedBytes = 600 << 20
        $0.timeline.usedBytes = [[0, 0], [2_000_000_000, 500 << 20], [6_000_000_000, 700 << 20]]
    }
    return (base, new, try Comparer.compare(base: base, new: new))
}

/// The cells of a Markdown table row, splitting on unescaped pipes.
func markdownCells(_ line: String) -> [String] {
    var cells: [String] = [], current = "", escaped = false
    for ch in line {
        if escaped { current.append(ch); escaped = false; continue }
        if ch == "\\" { escaped = true; current.append(ch); continue }
        if ch == "|" { cells.append(current); current = ""; continue }
        current.append(ch)
    }
    cells.append(current)
    return Array(cells.dropFirst().dropLast()).map { $0.trimmingCharacters(in: .whitespaces) }
}

@Suite struct OutputTests {
    @Test func junitParsesWithOneTestCasePerMetric() throws {
        let (_, _, c) = try verdictPair()
        let xml = CompareOutput.junit(c)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let cases = try doc.nodes(forXPath: "//testcase")
        #expect(cases.count == c.metrics.count)
        let failures = try doc.nodes(forXPath: "//testcase/failure")
        #expect(failures.count == c.count(.worse))
        let failure = try #require(failures.first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == "mail: evictions rose from 2 to 5 (+150%), threshold 0")
        let suite = try #require(try doc.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == String(c.metrics.count))
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(try doc.nodes(forXPath: "//testcase/skipped").count == c.count(.new) + c.count(.gone))
    }

    @Test func junitEscapesText() throws {
        let xml = JUnit.document(suite: "a<b & \"c\"", cases: [.init(classname: "x", name: "<&>", failure: "1 < 2 & 'q'\u{1}")])
        let doc = try XMLDocument(data: Data(xml.utf8))
        let tc = try #require(try doc.nodes(forXPath: "//testcase").first as? XMLElement)
        #expect(tc.attribute(forName: "name")?.stringValue == "<&>")
        #expect(try doc.nodes(forXPath: "//failure").first?.stringValue == "1 < 2 & 'q'")
    }

    @Test func markdownIsAWellFormedTable() throws {
        let (_, _, c) = try verdictPair()
        let md = CompareOutput.markdown(c)
        #expect(md.hasPrefix("### ❌ memprof compare: `fixture`"))
        #expect(md.contains("- **worse**: mail: evictions rose from 2 to 5 (+150%), threshold 0"))
        let table = md.split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") }
        #expect(table.count >= 3)
        let width = markdownCells(table[0]).count
        #expect(width == 6)
        #expect(table.allSatisfy { markdownCells($0).count == width && $0.hasSuffix("|") })
        #expect(markdownCells(table[1]).allSatisfy { $0 == "---" || $0 == "---:" })
        #expect(markdownCells(table[2])[0] == "`apps.mail.evictions`", "worse rows first")
        let shown = CompareOutput.shownRows(c, all: false)
        #expect(table.count == shown.count + 2)
        #expect(CompareOutput.markdown(c, all: true).split(separator: "\n").filter { $0.hasPrefix("|") }.count == c.metrics.count + 2)
    }

    @Test func markdownWithoutChanges() throws {
        let r = makeReport()
        let md = CompareOutput.markdown(try Comparer.compare(base: r, new: r))
        #expect(md.hasPrefix("### ✅"))
        #expect(md.contains("No metric changed."))
    }

    @Test func jsonRoundTrips() throws {
        let (_, _, c) = try verdictPair()
        let data = try CompareOutput.json(c)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schema"] as? String == "memprof.compare/1")
        let metrics = try #require(object["metrics"] as? [[String: Any]])
        #expect(metrics.count == c.metrics.count)
        let mail = try #require(metrics.first { $0["metric"] as? String == "apps.mail.evictions" })
        #expect(mail["verdict"] as? String == "worse")
        #expect(mail["base"] as? Double == 2)
        #expect(mail["new"] as? Double == 5)
        #expect(mail["direction"] as? String == "higherIsWorse")
        let decoded = try JSONDecoder().decode(Comparison.self, from: data)
        #expect(decoded.metrics == c.metrics)
    }

    @Test func terminalTableColoursOnlyWhenAsked() throws {
        let (_, _, c) = try verdictPair()
        let plain = CompareOutput.terminal(c, color: false)
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.contains("apps.mail.evictions"))
        #expect(plain.contains("worse  mail: evictions rose from 2 to 5 (+150%), threshold 0"))
        #expect(CompareOutput.terminal(c, color: true).contains("\u{1B}[31m"))
        let r = makeReport()
        #expect(CompareOutput.terminal(try Comparer.compare(base: r, new: r)).contains("no metric changed"))
    }

    @Test func htmlIsSelfContainedWithBothRunsOnOneChart() throws {
        let (base, new, c) = try verdictPair()
        let html = CompareHTML.comparison(c, base: base, new: new)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // One memory chart, with the base run's used line over the new run's stack.
        #expect(html.components(separatedBy: "<svg id=\"mem\"").count - 1 == 1)
        #expect(html.contains("class=\"used base\""))
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
        #expect(urls.allSatisfy { $0.hasPrefix("-equiv") }, "\(urls)")
        // Regressions grouped by cause: mail's extra evictions explain its metrics.
        #expect(html.contains("<ol class=\"causes\">"))
        #expect(html.contains("mail: evictions rose from 2 to 5 (+150%), threshold 0"))
        // The chart parses as XML.
        let piece = html.components(separatedBy: "<svg id=\"mem\"")[1]
        let svg = "<svg id=\"mem\"" + piece.components(separatedBy: "</svg></div>")[0] + "</svg>"
        _ = try XMLDocument(data: Data(svg.utf8))
    }

    @Test func stepSummaryIsAppendedWhenSet() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).md").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "existing\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Terminal.appendToStepSummary("## one", environment: ["GITHUB_STEP_SUMMARY": path]))
        #expect(try Terminal.appendToStepSummary("## two", environment: ["GITHUB_STEP_SUMMARY": path]))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "existing\n## one\n## two\n")
        #expect(try !Terminal.appendToStepSummary("x", environment: [:]))
    }
}
