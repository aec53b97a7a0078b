import Foundation
import MemprofCore
import MemprofWorkload
import MemprofTestSupport
import Testing
@testable import MemprofFleet

/// What ``FleetDask`` hands the Dask runner and reads back, without a cluster (the cluster itself:
/// scripts/check-fleet-dask.sh): the sweep cut to the cells asked for, and each run's values
/// taken from a merged runs.csv as ``FleetDays`` gives them, every run once.
struct FleetDaskTests {
    static let sweep = """
        memprof: 1
        sweep: team
        workload: phone-day
        seeds: 5..7
        set: {device.systemReserved: 1500MB}
        matrix:
          device.preset: [iphone-xr, iphone-11, iphone-15]
        """

    @Test func theWorkersSweepHasTheCellsAskedForInTheirOrderAndNoSet() throws {
        let sweep = try SweepFile.parse(Self.sweep, file: "team.yaml")
        let text = try FleetDask.sweepText(sweep, cells: [2, 0])
        #expect(text == "memprof: 1\nsweep: team\nworkload: phone-day\nseeds: 5..7\nmatrix:\n  device.preset: [iphone-15, iphone-xr]\n")
        let back = try SweepFile.parse(text, file: "w.yaml")
        #expect(back.seeds == [5, 6, 7] && back.axes[0].values.map(\.value) == ["iphone-15", "iphone-xr"] && back.set.isEmpty)
        var scattered = sweep
        scattered.seeds = [3, 9]
        #expect(try FleetDask.sweepText(scattered, cells: [1]).contains("seeds: [3, 9]\n"))
    }

    /// The workers' sweep carries the cells' `per:` keys; a `set:` key a `per:` key overlaps goes
    /// into each cell's `per:` before its own (the workers' `--set` would come after them).
    @Test func theWorkersSweepHasTheCellsPerKeys() throws {
        let sweep = try SweepFile.parse(Self.sweep + "\nper:\n  device.preset:\n    iphone-15: {device.systemReserved: 1200MB, apps.news.peakMemoryUsage: 400MB}\n"
            + "    iphone-11: {apps.news.peakMemoryUsage: 380MB}\n", file: "team.yaml")
        let text = try FleetDask.sweepText(sweep, cells: [2, 1, 0])
        #expect(text.hasSuffix("matrix:\n  device.preset: [iphone-15, iphone-11, iphone-xr]\nper:\n  device.preset:\n"
            + "    iphone-15: {device.systemReserved: 1200MB, apps.news.peakMemoryUsage: 400MB}\n"
            + "    iphone-11: {device.systemReserved: 1500MB, apps.news.peakMemoryUsage: 380MB}\n"
            + "    iphone-xr: {device.systemReserved: 1500MB}\n"), "\(text)")
        #expect(FleetDask.underPer(sweep.set[0], sweep))
        let back = try SweepFile.parse(text, file: "w.yaml")
        #expect(back.perCell([back.axes[0].values[1]]).map(\.value) == ["1500MB", "380MB"])
    }

    @Test func valuesAreReadByCellAndSeedWithAbsentMetricsZero() throws {
        // Rows in any order (shards merge by run); `b` is not a column: 0, as FleetDays gives it.
        let csv = Array("run,cell,seed,device.preset,a,c\n3,1,5,iphone-xr,7,\n0,0,5,iphone-15,1,2\n1,0,6,iphone-15,3,4\n4,1,6,iphone-xr,8,9\n".utf8)
        let values = try FleetDask.values(csv: csv, labels: 1, cells: 2, seeds: [5, 6], names: ["c", "b", "a"])
        #expect(values == [[[2, 0, 1], [4, 0, 3]], [[0, 0, 7], [9, 0, 8]]])
        #expect(throws: FleetDask.Failure.self) {
            try FleetDask.values(csv: csv, labels: 1, cells: 2, seeds: [5, 6, 7], names: ["a"])  // seed 7 missing
        }
        let twice = csv + Array("5,1,6,iphone-xr,8,9\n".utf8)
        #expect(throws: FleetDask.Failure.self) { try FleetDask.values(csv: twice, labels: 1, cells: 2, seeds: [5, 6], names: ["a"]) }
    }

    @Test func aMissingRunnerIsNamedWithExit127() throws {
        let sweep = try SweepFile.parse(Self.sweep, file: "team.yaml")
        let dask = FleetDask(scheduler: "sched.json", shards: 2, python: "/nonexistent/python", runner: "/nonexistent/fleet_dask.py",
                             memprof: "memprof")
        do {
            _ = try dask.values(sweep, overrides: [], cells: [0], names: ["a"])
            Issue.record("ran without a runner")
        } catch let failure as FleetDask.Failure {
            #expect(failure.exitStatus == 127 && failure.description.hasPrefix("/nonexistent/python: no such file"), "\(failure)")
        }
    }

    /// A runner that exits 0 without writing runs.csv is a failure of the part memprof runs (exit
    /// 126), in a sentence (before: Foundation's file error, and exit 1, which calibrate means as no fit).
    @Test func aRunnerThatWritesNothingFailsWith126() throws {
        let sweep = try SweepFile.parse(Self.sweep, file: "team.yaml")
        let dir = try Scratch.makeDirectory("fleet-dask")
        defer { try? FileManager.default.removeItem(at: dir) }
        let runner = dir.appendingPathComponent("runner.sh")
        try "exit 0\n".write(to: runner, atomically: true, encoding: .utf8)
        let dask = FleetDask(scheduler: "sched.json", shards: 2, python: "/bin/sh", runner: runner.path, memprof: "memprof")
        do {
            _ = try dask.values(sweep, overrides: [], cells: [0], names: ["a"])
            Issue.record("read a result the runner did not write")
        } catch let failure as FleetDask.Failure {
            #expect(failure.exitStatus == 126 && failure.description == "\(runner.path) (on sched.json) exited 0 but wrote no runs.csv", "\(failure)")
        }
    }
}
