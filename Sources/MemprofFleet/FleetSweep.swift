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
            try folder.begin(header: RunsCSV.header(columns, matrixKeys: plan.sweep.axes.map(\.keyPath)))
            let outcome = try SweepRunner.run(plan, columns: columns, measured: measured, threads: threads,
                                              rows: { try folder.append($0) }, progress: progress)
            folder.finishRows()
            let wallMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            let result = FleetResult.make(
                sweep: sweepInfo(plan), shard: plan.shard.map { .init(parts: [$0.index], of: $0.count) },
                cells: plan.cells.map { ($0.label, plan.overrides(of: $0).map { .init(keyPath: $0.keyPath, value: $0.value) }) },
                columns: columns, tally: outcome.tally,
                host: FleetResult.currentHost(threads: SweepRunner.threadCount(asked: threads, runs: plan.includedRunCount),
                                              wallMs: wallMs, measured: measured))
            // fleet.json and fleet.html are made and written side by side (while runs.csv goes
            // to the disk): on one thread they are most of what a sweep does after its runs.
            let failures = Mutex<[Int: any Error]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                do {
                    if part == 0 {
                        try folder.write("fleet.json", try result.encoded())
                    } else if result.isComplete {
                        try folder.write("fleet.html", FleetHTML.data(result, tally: outcome.tally, columns: columns))
                    }
                } catch {
                    failures.withLock { $0[part] = error }
                }
            }
            if let failure = failures.withLock({ $0[0] ?? $0[1] }) { throw failure }
            try folder.commit()
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
                          overrides: plan.fixed.map { .init(keyPath: $0.keyPath, value: $0.value) },
                          mix: plan.sweep.mix.isEmpty ? nil : plan.sweep.mix.map { mix in
                              .init(keyPath: mix.keyPath, shares: Dictionary(uniqueKeysWithValues: mix.shares.map { ($0.value, $0.share) }))
                          })
    }
}
