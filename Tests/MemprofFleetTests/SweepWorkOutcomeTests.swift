import Foundation
import MemprofCore
import MemprofSampler
import MemprofTestSupport
import MemprofWorkload
import Testing
@testable import MemprofFleet

/// A sweep counts a handler whose program fails as `run` counts it: the replay line of a run in
/// fleet.json reproduces that run.
@Suite(.serialized) struct SweepWorkOutcomeTests {
    static func workload(_ arguments: String) -> String {
        """
        memprof: 1
        name: failing
        duration: 1h
        device: iphone-6-plus
        apps:
          mail:
            launch: {footprint: 45MB}
            modes: [fetch]
            fetch: {interval: 15m, time: 4s, work: {command: [\(Repository.builtProduct("memprof-example-c")), \(arguments)]}}
        script:
          - {at: 0s, open: mail}
          - {at: 1m, home: true}
        """
    }

    /// The metrics `run` gives for `seed`: the simulation with the program run for real.
    static func runMetrics(_ workload: Workload, seed: UInt64) -> [String: Int64] {
        var w = workload
        w.seed = seed
        var options = Simulator.Options(keepsHistory: false)
        options.performer = SampledWorkPerformer(rateHz: 0)
        var simulator = Simulator(workload: w, options: options)
        let result = simulator.run()
        let sink = RunMetrics.Sink(MetricPaths())
        let apps = zip(result.workload.apps, result.apps).map { ($0.id, $1.withHeadroom(of: $0, in: result.workload)) }
        RunMetrics.flatten(summary: result.summary, apps: apps, into: sink)
        var out: [String: Int64] = [:]
        for (node, value) in sink.values { out[sink.paths.names[Int(node)]] = value }
        return out
    }

    @Test(arguments: ["exit, \"3\"", "crash"])
    func aFailingProgramIsAFailedFetchInTheSweepAsInTheRun(arguments: String) throws {
        let dir = try Scratch.makeDirectory("sweep-outcome")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.workload(arguments).write(to: dir.appendingPathComponent("failing.yaml"), atomically: true, encoding: .utf8)
        try "memprof: 1\nsweep: failing\nworkload: failing.yaml\nseeds: 1..2\n"
            .write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let plan = try SweepPlan(sweep: try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path))
        let measured = MeasuredWork.measure(plan)
        let run = Self.runMetrics(plan.cells[0].workload.workload, seed: 1)
        let swept = FleetRun.metrics(plan.cells[0].workload.workload, seed: 1, measured: measured)
        #expect(run["apps.mail.fetches.started"] ?? 0 > 0)
        #expect(run["apps.mail.fetches.completed"] == 0)
        for name in ["apps.mail.fetches.started", "apps.mail.fetches.completed", "apps.mail.fetches.timedOut",
                     "summary.fetches.completed"] {
            #expect(swept[name].map(Int64.init) == run[name], "\(name): sweep \(swept[name] ?? -1), run \(run[name] ?? -1)")
        }
    }
}
