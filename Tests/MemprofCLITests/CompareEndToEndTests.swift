import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MemprofTestSupport
import Testing

/// `memprof compare`, `check` and `export` as a user runs them: exit 0, 1 and 2.
/// The binary is `$MEMPROF_BIN` or `.build/debug/memprof` (see CLISupport.swift).
@Suite(.serialized) struct CompareEndToEndTests {
    /// Runs phone-day into `base/`, and returns the folder.
    func setUp() throws -> URL {
        let dir = try Scratch.makeDirectory("cli")
        let outcome = try ProcessRunner.memprof(["run", "phone-day", "--out", "base"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return dir
    }

    /// Copies `base/report.json` to `name/report.json`, changing it on the way.
    func variant(_ dir: URL, _ name: String, _ change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: dir.appendingPathComponent("base/report.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            .write(to: folder.appendingPathComponent("report.json"))
    }

    func addEviction(_ object: inout [String: Any]) {
        var summary = object["summary"] as! [String: Any]
        summary["evictions"] = (summary["evictions"] as! Int) + 1
        object["summary"] = summary
    }

    @Test func sameReportsExitZero() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try ProcessRunner.memprof(["compare", "base", "base/report.json"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("no metric changed"))
        #expect(!outcome.stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")
    }

    @Test func aRegressionExitsOneAndWritesEveryOutput() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        try variant(dir, "new", addEviction)
        let summaryFile = dir.appendingPathComponent("step-summary.md")
        let outcome = try ProcessRunner.memprof(["compare", "base", "new", "--markdown", "out/c.md", "--html", "out/c.html",
                                      "--junit", "out/c.xml", "--json", "out/c.json"], in: dir,
                                     environment: ["GITHUB_STEP_SUMMARY": summaryFile.path])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("summary: evictions rose from"))
        let xml = try XMLDocument(data: Data(contentsOf: dir.appendingPathComponent("out/c.xml")))
        #expect(try xml.nodes(forXPath: "//testcase/failure").count == 1)
        let md = try String(contentsOf: dir.appendingPathComponent("out/c.md"), encoding: .utf8)
        #expect(md.contains("| `summary.evictions` |"))
        #expect(try String(contentsOf: summaryFile, encoding: .utf8) == md + "\n")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/c.json"))) as? [String: Any]
        #expect(json?["schema"] as? String == "memprof.compare/1")
        let html = try String(contentsOf: dir.appendingPathComponent("out/c.html"), encoding: .utf8)
        // Self-contained and offline: the chart is drawn, its script is inline, and the page's
        // Content-Security-Policy lets nothing be fetched.
        #expect(html.contains("<svg") && !html.contains("<script src"))
        #expect(html.contains("default-src 'none'"))
        // A looser count threshold lets the one extra eviction through.
        let loose = try ProcessRunner.memprof(["compare", "base", "new", "--count-threshold", "100%"], in: dir)
        #expect(loose.status == 0, "\(loose.stdout)\(loose.stderr)")
    }

    @Test func badInputExitsTwo() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{\"hello\": 1}".utf8).write(to: dir.appendingPathComponent("other.json"))
        try Data("{\"schema\": \"memprof.report/2\"}".utf8).write(to: dir.appendingPathComponent("future.json"))
        try variant(dir, "elsewhere") { object in
            var run = object["run"] as! [String: Any]
            run["workload"] = "something-else"
            object["run"] = run
        }
        for (arguments, message) in [
            (["compare", "base", "missing.json"], "no such file"),
            (["compare", "base", "other.json"], "not a memprof report"),
            (["compare", "base", "future.json"], "memprof.report/2"),
            (["compare", "base", "elsewhere"], "--allow-different"),
            (["compare", "base", "base", "--threshold", "five"], "percentage"),
        ] {
            let outcome = try ProcessRunner.memprof(arguments, in: dir)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stdout)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        #expect(try ProcessRunner.memprof(["compare", "base", "elsewhere", "--allow-different"], in: dir).status == 0)
    }

    @Test func checkBudgets() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "summary: {backgroundTasks.expiredKilled: {max: 0}}\napps: {mail: {peakFootprintBytes: {max: 1GB}}}\n"
            .write(to: dir.appendingPathComponent("ok.yaml"), atomically: true, encoding: .utf8)
        try "apps: {mail: {peakFootprintBytes: {max: 1MB}}}\n"
            .write(to: dir.appendingPathComponent("tight.yaml"), atomically: true, encoding: .utf8)
        try "apps: {mail: {peakFootprintBytes: {max: huge}}}\n"
            .write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let ok = try ProcessRunner.memprof(["check", "base", "--budget", "ok.yaml"], in: dir)
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let tight = try ProcessRunner.memprof(["check", "base", "--budget", "tight.yaml", "--junit", "check.xml"], in: dir)
        #expect(tight.status == 1)
        #expect(tight.stdout.contains("mail: peakFootprintBytes allowed at most 1 MB, was"))
        #expect(tight.stdout.contains("peak of"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("check.xml").path))
        #expect(try ProcessRunner.memprof(["check", "base", "--budget", "bad.yaml"], in: dir).status == 2)
        #expect(try ProcessRunner.memprof(["check", "base", "--budget", "none.yaml"], in: dir).status == 2)
    }

    @Test func exportTraceAndSampleFormats() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = try ProcessRunner.memprof(["export", "base", "--format", "trace", "--out", "t.json"], in: dir)
        #expect(trace.status == 0, "\(trace.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("t.json"))) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.isEmpty == false)
        try variant(dir, "unsampled") { $0["profile"] = nil }
        for format in ["speedscope", "folded", "pprof"] {
            let outcome = try ProcessRunner.memprof(["export", "unsampled", "--format", format], in: dir)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("this report has no stack samples"))
        }
        // With samples (when the run recorded any), folded, speedscope and pprof are written.
        let base = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("base/report.json"))) as? [String: Any]
        if base?["profile"] != nil {
            let folded = try ProcessRunner.memprof(["export", "base", "--format", "folded"], in: dir)
            #expect(folded.status == 0 || folded.stderr.contains("no stack samples"), "\(folded.stderr)")
            let pprof = try ProcessRunner.memprof(["export", "base", "--format", "pprof", "--out", "p.pb.gz"], in: dir)
            #expect(pprof.status == folded.status)
            if pprof.status == 0 {
                let bytes = try Data(contentsOf: dir.appendingPathComponent("p.pb.gz"))
                #expect(Array(bytes.prefix(2)) == [0x1F, 0x8B], "gzip")
            }
        }
    }
}

