import Foundation
import MemprofTestSupport
import Testing
@testable import MemprofFleet

/// What a sweep holds grows with its work, not with what was asked: threads stop at the cores,
/// a thread's setup and tally hold only the cells it ran, and fleet.html draws a bounded number
/// of cells.
@Suite(.serialized) struct SweepBoundsTests {
    /// `--threads 1024` runs on the cores: more threads only share them, each with a tally.
    @Test func threadsStopAtTheCores() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..4", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 1024, into: dir.appendingPathComponent("out"))
        #expect(result.host.threads == min(ProcessInfo.processInfo.activeProcessorCount, 4))
    }

    @Test func aShardCountsItsRuns() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..5", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        for (k, n) in [(1, 1), (1, 2), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8)] {
            let plan = try FleetFixtures.plan(dir, shard: n == 1 ? nil : .init(index: k, count: n))
            #expect(plan.includedRunCount == (0..<plan.runCount).filter(plan.includes).count, "\(k)/\(n)")
        }
    }

    @Test func aTallyHoldsOnlyTheCellsItCounted() {
        var tally = FleetTally(cells: 1000, columns: 50)
        let columns = MetricColumns((0..<50).map { "summary.m\($0)" })
        tally.add(cell: 7, values: Array(repeating: 1, count: 50), run: 7, seed: 1, columns: columns, keep: 5)
        #expect(tally.cells.filter { !$0.isEmpty }.count == 1)
        var other = FleetTally(cells: 1000, columns: 50)
        other.add(cell: 9, values: Array(repeating: 2, count: 50), run: 9, seed: 1, columns: columns, keep: 5)
        tally.merge(other, columns: columns, keep: 5)
        #expect(tally.cells.filter { !$0.isEmpty }.count == 2 && tally.runs[9] == 1)
    }

    /// 81 cells of one seed: the page draws 64 of them and says so; fleet.json has all 81.
    @Test func thePageDrawsABoundedNumberOfCells() throws {
        let values = (1...9).map { "\(100 + 10 * $0)MB" }.joined(separator: ", ")
        let matrix = "matrix:\n  apps.game.launch.footprint: [\(values)]\n  apps.maps.launch.footprint: [\(values)]"
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1", matrix: matrix))
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let result = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 2, into: out)
        #expect(result.cells.count == 81)
        let html = try String(contentsOf: out.appendingPathComponent("fleet.html"), encoding: .utf8)
        #expect(html.contains("This page shows the 64 of 81 cells with the most evictions per run"))
        let heatmap = try #require(html.components(separatedBy: "<section id=\"heatmap\">").last?.components(separatedBy: "</thead>").first)
        #expect(heatmap.components(separatedBy: "<th title=").count - 1 == 64)
        let printed = FleetSummary.render(result)
        #expect(printed.contains("the 64 of 81 cells with the most evictions per run; every cell is in fleet.json"))
        #expect(printed.split(separator: "\n").filter { $0.hasPrefix("apps.game.launch.footprint=") && $0.contains(" 1 ") }.count == 64)
    }
}
