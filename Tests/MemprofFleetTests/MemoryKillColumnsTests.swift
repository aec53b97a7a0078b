import Foundation
import MemprofCompare
import MemprofCore
import MemprofTestSupport
import Testing
@testable import MemprofFleet

/// The summary's "memory kills a day" and "days with a memory kill" count the apps' kills for
/// memory, whatever xnu's reason, and no daemon's: on the news reader of
/// scripts/examples/news-reader.yaml (an iPhone 11 with iOS 18.5, xnu-11417, the phone's daemons
/// and extensions), where a suspended app's kills are idle-exit and long-idle-exit and daemons
/// are killed too.
@Suite(.serialized) struct MemoryKillColumnsTests {
    @Test func theMemoryKillColumnsCountEveryAppsKillsOfEveryReasonAndNoDaemons() throws {
        let dir = try Scratch.makeDirectory("fleet")
        defer { try? FileManager.default.removeItem(at: dir) }
        let workload = Repository.root.appendingPathComponent("scripts/examples/news-reader.yaml").path
        try "memprof: 1\nsweep: news-kills\nworkload: \(workload)\nseeds: 1..4\n"
            .write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let plan = try FleetFixtures.plan(dir)
        let result = try FleetSweep.run(plan, threads: 2, into: dir.appendingPathComponent("out"))
        let (header, _, rows) = try RunsCSV.read(Array(try Data(contentsOf: dir.appendingPathComponent("out/runs.csv"))), labels: 0)
        func value(_ row: RunsCSV.Row, _ name: String) -> Int64 { header.firstIndex(of: name).flatMap { row.values[$0 - 3] } ?? 0 }

        let apps = plan.cells[0].workload.workload.apps.map(\.id)
        // Per run: every app's kills, counted from its exits reason by reason.
        let appKills = rows.map { row in
            apps.map { app in ExitReason.memoryKills.map { value(row, "apps.\(app).exits.\($0.rawValue)") }.reduce(0, +) }
        }
        for (row, kills) in zip(rows, appKills) {
            for (app, n) in zip(apps, kills) { #expect(value(row, "apps.\(app).memoryKills") == n, "\(app) seed \(row.seed)") }
        }
        // The news reader is killed in the background by xnu-11417's idle split or reaper.
        let news = apps.firstIndex(of: "news")!
        let idle = rows.map { value($0, "apps.news.exits.idleExit") + value($0, "apps.news.exits.longIdleExit") }.reduce(0, +)
        #expect(idle > 0)
        // Daemons and extensions are killed too: the run's terminations hold more memory kills than the apps'.
        let all = rows.map { row in ExitReason.memoryKills.map { value(row, "summary.terminations.\($0.rawValue)") }.reduce(0, +) }
        #expect(all.reduce(0, +) > appKills.map { $0.reduce(0, +) }.reduce(0, +))

        let cell = try #require(result.cells.first)
        let runs = Double(rows.count)
        let figures = CellFigures(cell)
        let perDay = Double(appKills.map { $0.reduce(0, +) }.reduce(0, +)) / runs
        #expect(abs(try #require(figures.memoryKills()) - perDay) < 1e-9)
        #expect(abs(try #require(figures.memoryKills(app: "news")) - Double(appKills.map { $0[news] }.reduce(0, +)) / runs) < 1e-9)
        #expect(cell.memoryKillDays?.all == Double(appKills.filter { $0.contains { $0 > 0 } }.count) / runs)
        #expect(cell.memoryKillDays?.apps["news"] == Double(appKills.filter { $0[news] > 0 }.count) / runs)
        // The summary prints the apps' figure.
        let printed = FleetSummary.render(result, apps: ["news"])
        #expect(printed.contains(CellFigures.rate(perDay)), "\(printed)")
    }
}
