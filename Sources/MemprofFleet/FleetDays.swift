import Foundation
import MemprofCore
import Synchronization

/// Each run's values of some metrics, for chosen cells of a plan over all its seeds, on the
/// fleet's threads: what a calibration reads of a sweep (the day by day values its moments and
/// intervals are taken from), without runs.csv, fleet.json or a folder. Runs are simulated as a
/// sweep simulates them (``SweepRunner``), so a day here is the same day `memprof sweep` runs.
public enum FleetDays {
    /// `values[i][s][k]`: cell `cells[i]`, seed `plan.sweep.seeds[s]`, metric `names[k]` (0 for a
    /// metric the run does not have, such as a reason it never exited for).
    public static func values(_ plan: SweepPlan, cells: [Int], names: [String], threads asked: Int,
                              measured: MeasuredWork) -> [[[Int64]]] {
        let seeds = plan.sweep.seeds
        let total = cells.count * seeds.count
        let threads = SweepRunner.threadCount(asked: asked, runs: total)
        let columns = MetricColumns(names)
        let order = names.map { columns.column($0)! }
        let slots = RunSlots<[Int64]>(count: total)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let sink = RunMetrics.Sink(MetricPaths(columns: columns.copied()))
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < total else { break }
                let cell = cells[k / seeds.count], seed = seeds[k % seeds.count]
                let values = FleetRun.values(plan.cells[cell].workload.workload, seed: seed, measured: measured,
                                             columns: names.count, sink: sink)
                slots.set(k, order.map { values[$0] ?? 0 })
            }
        }
        return cells.indices.map { i in (0..<seeds.count).map { slots.get(i * seeds.count + $0) ?? [] } }
    }
}
