import Foundation
import MemprofTestSupport
import Testing

/// An app team's questions through the built binary, on the news reader of
/// scripts/examples/news-reader.yaml (about 180 MB suspended, 420 MB at its peak, on an iPhone 11
/// with iOS 18.5): its suspended footprint is one key a matrix sweeps, a fleet what-if leads with
/// the app's memory-pressure kills and their relative change, and `check` holds rate budgets.
@Suite(.serialized) struct AppWhatIfEndToEndTests {
    static let workload = Repository.root.appendingPathComponent("scripts/examples/news-reader.yaml").path

    static func sweep(_ name: String, seeds: String, matrix: String = "") -> String {
        """
        memprof: 1
        sweep: \(name)
        workload: \(workload)
        seeds: \(seeds)
        \(matrix)
        """
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    @Test func theSuspendedFootprintIsTheStatedOneAndOneKeyAMatrixSweeps() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ProcessRunner.memprof(["run", Self.workload, "--out", "news", "--no-sampling"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let news = (try Self.json(dir.appendingPathComponent("news/report.json"))["apps"] as! [String: Any])["news"] as! [String: Any]
        let suspended = news["suspendedMemory"] as! [String: Any]
        let average = suspended["averageBytes"] as! Int
        // Suspended at 180 MB, or lower after a memory warning's release.
        #expect(average <= 180 << 20 && average > 160 << 20, "\(suspended)")
        #expect(news["peakFootprintBytes"] as! Int >= 420 << 20)

        try Self.sweep("news-suspended", seeds: "1..8", matrix: "matrix:\n  apps.news.averageSuspendedMemory: [180MB, 150MB, 120MB]")
            .write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let sweep = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--out", "fleet"], in: dir)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let cells = try Self.json(dir.appendingPathComponent("fleet/fleet.json"))["cells"] as! [[String: Any]]
        let means = cells.map { cell in
            (((cell["metrics"] as! [String: Any])["apps.news.suspendedMemory.averageBytes"] as! [String: Any])["mean"] as! Double)
        }
        #expect(means.count == 3 && means[0] > means[1] && means[1] > means[2], "\(means)")
        #expect(means[2] <= Double(120 << 20) && means[2] > Double(100 << 20), "\(means)")
    }

    @Test func aFleetWhatIfLeadsWithTheAppsKillsAndTheirInterval() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sweep("news-fleet", seeds: "1..30").write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let base = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--out", "base"], in: dir)
        #expect(base.status == 0, "\(base.stderr)")
        let small = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--out", "small", "--set", "apps.news.averageSuspendedMemory=120MB"],
                                              in: dir)
        #expect(small.status == 0, "\(small.stderr)")

        // Another app's judged metrics may move with the day's new shape (exit 1); what decides
        // the exit is never an internal counter.
        let compare = try ProcessRunner.memprof(["compare", "base", "small"], in: dir)
        #expect(compare.status == 0 || compare.status == 1, "\(compare.stdout)\(compare.stderr)")
        let lines = compare.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("cell") })
        #expect(lines[header].contains("relative (95% CI)"))
        // The first row is the app's memory kills, every reason together (on iOS 18.5 mostly
        // xnu-11417's idle-exit and long-idle-exit of a suspended app), with the relative change
        // and its interval.
        let first = lines[header + 1]
        #expect(first.hasPrefix("all   apps.news.memoryKills "), "\(compare.stdout)")
        #expect(first.range(of: #"[-+]\d+(\.\d)?% \([-+]\d+(\.\d)?% to [-+]\d+(\.\d)?%\)"#, options: .regularExpression) != nil, "\(first)")
        // No verdict comes from an internal counter.
        for line in lines where line.contains("summary.compressor.") || line.contains("summary.freezer.") {
            #expect(!line.hasSuffix("better") && !line.hasSuffix("worse"), "\(line)")
        }
        #expect(!compare.stdout.contains("same (within threshold)"))
        for line in lines where line.hasPrefix("worse") || line.hasSuffix(" worse") {
            #expect(!line.contains("compressor.") && !line.contains("freezer."), "\(line)")
        }

        let app = try ProcessRunner.memprof(["compare", "base", "small", "--app", "news", "--metric", "exits", "--all"], in: dir)
        #expect(app.status == 0 || app.status == 1, "\(app.stderr)")
        let rows = app.stdout.split(separator: "\n").filter { $0.hasPrefix("all ") }
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("apps.news.exits.") }, "\(app.stdout)")
        let typo = try ProcessRunner.memprof(["compare", "base", "small", "--app", "nws"], in: dir)
        #expect(typo.status == 2 && typo.stderr.contains("no app 'nws'") && typo.stderr.contains("did you mean 'news'?"), "\(typo.stderr)")

        // Budgets on rates: the app's memory kills a run (a day) and the share of days with one.
        try """
            apps:
              news:
                memoryKills: {mean: {max: 60}, shareAboveZero: {max: 100%}}
            """.write(to: dir.appendingPathComponent("rates.yaml"), atomically: true, encoding: .utf8)
        let held = try ProcessRunner.memprof(["check", "base", "--budget", "rates.yaml"], in: dir)
        #expect(held.status == 0, "\(held.stdout)\(held.stderr)")
        #expect(held.stdout.contains("ok      all: news: memoryKills per run (mean) over 30 runs is "), "\(held.stdout)")
        try """
            cells:
              all:
                apps:
                  news: {memoryKills: {mean: {max: 0}}}
            """.write(to: dir.appendingPathComponent("strict.yaml"), atomically: true, encoding: .utf8)
        let broken = try ProcessRunner.memprof(["check", "small/fleet.json", "--budget", "strict.yaml", "--junit", "check.xml"], in: dir)
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("BROKEN  all: news: memoryKills per run (mean) over 30 runs allowed at most 0.00, was "), "\(broken.stdout)")
        #expect(broken.stdout.contains("— memprof run \(Self.workload) --seed "), "\(broken.stdout)")
        try "cells:\n  device=iphone-12:\n    apps: {news: {exits.memoryPressure: {mean: {max: 1}}}}\n"
            .write(to: dir.appendingPathComponent("nocell.yaml"), atomically: true, encoding: .utf8)
        let nocell = try ProcessRunner.memprof(["check", "base", "--budget", "nocell.yaml"], in: dir)
        #expect(nocell.status == 2 && nocell.stderr.hasPrefix("memprof: nocell.yaml:3:5: cells.device=iphone-12: "), "\(nocell.stderr)")
        // A budget per run ({max}) is not a rate: a fleet refuses it, naming where it is written.
        try "apps:\n  news: {exits.memoryPressure: {max: 1}}\n".write(to: dir.appendingPathComponent("run.yaml"), atomically: true, encoding: .utf8)
        let perRun = try ProcessRunner.memprof(["check", "base", "--budget", "run.yaml"], in: dir)
        #expect(perRun.status == 2 && perRun.stderr.hasPrefix("memprof: run.yaml:2:"), "\(perRun.stderr)")
    }
}
