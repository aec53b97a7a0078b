import Foundation
import MemprofReport
import Synchronization

/// `memprof sweep FILE [--shard K/N]` as a library: runs a validated plan and writes its folder.
///
///     let plan = try SweepPlan(sweep: try SweepFile.load("sweep.yaml"))
///     let result = try FleetSweep.run(plan, threads: 2, into: URL(fileURLWithPath: "Reports/my-sweep"))
public enum FleetSweep {
    public static func run(_ plan: SweepPlan, threads: Int, into folderURL: URL,
                           progress: ((Int, Int) -> Void)? = nil) throws -> FleetResult {
        let started = DispatchTime.now()
        let measured = MeasuredWork.measure(plan)
        let columns = SweepRunner.columns(of: plan, measured: measured)
        let folder = FleetFolder(folderURL)
        do {
            try folder.begin(header: RunsCSV.header(columns))
            let outcome = try SweepRunner.run(plan, columns: columns, measured: measured, threads: threads,
                                              rows: { try folder.append($0) }, progress: progress)
            let wallMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            let result = FleetResult.make(
                sweep: sweepInfo(plan), shard: plan.shard.map { .init(parts: [$0.index], of: $0.count) },
                cells: plan.cells.map { ($0.label, (plan.fixed + $0.overrides).map { .init(keyPath: $0.keyPath, value: $0.value) }) },
                columns: columns, tally: outcome.tally,
                host: FleetResult.currentHost(threads: threads, wallMs: wallMs, measured: measured))
            // fleet.json and fleet.html are encoded side by side: on one thread they are most of
            // what a sweep does after its runs (the part more cores do not shorten).
            let json = Mutex<Result<Data, Error>?>(nil), html = Mutex<Data?>(nil)
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    let encoded = Result { try result.encoded() }
                    json.withLock { $0 = encoded }
                } else if result.isComplete {
                    let page = FleetHTML.data(result, tally: outcome.tally, columns: columns)
                    html.withLock { $0 = page }
                }
            }
            try folder.finish(json: try json.withLock { $0 }!.get(), html: html.withLock { $0 })
            return result
        } catch {
            folder.abort()
            throw error
        }
    }

    static func sweepInfo(_ plan: SweepPlan) -> FleetResult.Sweep {
        FleetResult.Sweep(name: plan.sweep.name, workload: plan.sweep.workload, workloadSha256: plan.base.sha256,
                          fingerprint: plan.fingerprint, seeds: plan.sweep.seedsText, seedCount: plan.sweep.seeds.count,
                          matrix: plan.sweep.axes.map { .init(keyPath: $0.keyPath, values: $0.values.map(\.value)) },
                          runs: plan.runCount, worst: plan.sweep.worst,
                          overrides: plan.fixed.map { .init(keyPath: $0.keyPath, value: $0.value) })
    }
}
