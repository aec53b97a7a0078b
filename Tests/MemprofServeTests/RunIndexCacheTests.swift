import Foundation
import MemprofReport
import MemprofTestSupport
import Testing
@testable import MemprofServe

/// The run index of `memprof serve` reads a report.json once, and again only when it changes.
@Suite struct RunIndexCacheTests {
    /// A whole report.json (the index reads it through the report reader, which takes nothing less).
    static let base = try! ReportFixture.builtin("phone-day")

    static func report(workload: String, at time: String) -> String {
        var report = base
        report.run.workload = workload
        report.host.generatedAt = time
        return String(decoding: try! ReportJSON.encode(report), as: UTF8.self)
    }

    @Test func aRequestReadsOnlyTheReportsThatChanged() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for k in 1...3 {
            let run = root.appendingPathComponent("run-\(k)")
            try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
            try Data(Self.report(workload: "day-\(k)", at: "2026-01-0\(k)T00:00:00Z").utf8)
                .write(to: run.appendingPathComponent("report.json"))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("not-a-run"), withIntermediateDirectories: true)
        let cache = RunIndexCache(root: root, title: "runs")
        let first = cache.page()
        #expect(cache.reads == 3)
        #expect(first.contains("day-1") && first.contains("day-3") && first.contains("3 runs"))
        #expect(cache.page() == first && cache.reads == 3)

        // One report rewritten (another size), one run added, one removed: two reads.
        try Data(Self.report(workload: "day-two-again", at: "2026-01-02T00:00:00Z").utf8)
            .write(to: root.appendingPathComponent("run-2/report.json"))
        let added = root.appendingPathComponent("run-4")
        try FileManager.default.createDirectory(at: added, withIntermediateDirectories: true)
        try Data(Self.report(workload: "day-4", at: "2026-01-04T00:00:00Z").utf8).write(to: added.appendingPathComponent("report.json"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("run-1"))
        let second = cache.page()
        #expect(cache.reads == 5)
        #expect(second.contains("day-two-again") && second.contains("day-4") && !second.contains("day-1<"))
        #expect(second.range(of: "day-4")!.lowerBound < second.range(of: "day-3")!.lowerBound)  // newest first
        // A page or trace written after the report shows at once, without reading it again.
        try Data("<html>".utf8).write(to: root.appendingPathComponent("run-3/report.html"))
        let third = cache.page()
        #expect(cache.reads == 5 && third != second && third.contains("run-3/report.html"))
    }
}
