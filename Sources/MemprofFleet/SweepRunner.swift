import Foundation
import MemprofCompare
import MemprofCore
import MemprofReport
import MemprofRun
import Synchronization

/// The metrics of a sweep, as columns: every metric `compare` knows (summary and per app), by
/// the names `compare` uses, in its order (summary first, then apps, each by path).
public struct MetricColumns: Sendable, Equatable {
    public var names: [String]
    public var kinds: [MetricKind]
    public var directions: [MetricDirection]
    let index: [String: Int]

    public init(_ names: [String]) {
        self.names = names.sorted { x, y in
            let sx = x.hasPrefix("summary."), sy = y.hasPrefix("summary.")
            return sx != sy ? sx : x < y
        }
        kinds = self.names.map(MetricKind.of)
        directions = self.names.map(MetricDirections.direction(of:))
        index = Dictionary(uniqueKeysWithValues: self.names.enumerated().map { ($1, $0) })
    }

    public func column(_ name: String) -> Int? { index[name] }

    /// How two values of column `c` order by badness; nil for neutral metrics (no worst runs).
    func worse(_ c: Int) -> ((Int64, Int64) -> Bool)? {
        switch directions[c] {
        case .higherIsWorse: { $0 > $1 }
        case .lowerIsWorse: { $0 < $1 }
        case .neutral: nil
        }
    }
}

/// One run of a sweep: simulate the cell's workload at a seed and read its metrics. Real `work`
/// never runs here (spec §12): declared times stand, and `timing: measured` handlers take the
/// one measurement per (app, handler) the sweep made before it started.
enum FleetRun {
    static let host = Report.Host(hostname: "", os: "", processors: 0, generatedAt: "", simulationWallMs: 0,
                                  processedOccurrences: 0)

    static func metrics(_ workload: Workload, seed: UInt64, measured: MeasuredWork) -> [String: Double] {
        var out: [String: Double] = [:]
        for (name, value) in pairs(workload, seed: seed, measured: measured) { out[name] = value }
        return out
    }

    /// The run's metric values in `columns`' order (nil where the run has no such metric).
    static func values(_ workload: Workload, seed: UInt64, measured: MeasuredWork,
                       columns: MetricColumns) -> [Int64?] {
        var values = [Int64?](repeating: nil, count: columns.names.count)
        for (name, value) in pairs(workload, seed: seed, measured: measured) {
            if let c = columns.column(name) { values[c] = Int64(value.rounded()) }
        }
        return values
    }

    /// Simulates without history (the counters are the same, spec §12 reads only them) and lists
    /// the report's summary and apps as compare names them.
    private static func pairs(_ workload: Workload, seed: UInt64, measured: MeasuredWork) -> [(String, Double)] {
        var w = workload
        w.seed = seed
        var options = Simulator.Options(keepsHistory: false)
        if !measured.isEmpty { options.performer = measured }
        var simulator = Simulator(workload: w, options: options)
        let result = simulator.run()
        // The report's summary and apps, as compare reads them (the report adds to the core's numbers).
        let report = Report(result: result, workloadSha256: "", source: "", host: host)
        var out: [(String, Double)] = []
        out.reserveCapacity(64 + 48 * report.apps.count)
        MetricFlattener.flatten(report.summary, prefix: "summary", into: &out)
        for (id, stats) in report.apps { MetricFlattener.flatten(stats, prefix: "apps." + id, into: &out) }
        return out
    }
}

/// Per-cell, per-column accumulators: what a set of runs adds up to.
public struct FleetTally: Sendable, Equatable {
    public var cells: [[MetricAccumulator]]
    /// Runs counted, per cell.
    public var runs: [Int]

    public init(cells: Int, columns: Int) {
        self.cells = Array(repeating: Array(repeating: MetricAccumulator(), count: columns), count: cells)
        runs = Array(repeating: 0, count: cells)
    }

    mutating func add(cell: Int, values: [Int64?], run: Int, seed: UInt64, columns: MetricColumns, keep: Int) {
        runs[cell] += 1
        for (c, value) in values.enumerated() {
            guard let value else { continue }
            var worse = columns.worse(c)
            if columns.directions[c] == .higherIsWorse && value <= 0 { worse = nil }
            cells[cell][c].add(value, run: run, seed: seed, keep: keep, worse: worse)
        }
    }

    mutating func merge(_ other: FleetTally, columns: MetricColumns, keep: Int) {
        for cell in cells.indices {
            runs[cell] += other.runs[cell]
            for c in columns.names.indices {
                cells[cell][c].merge(other.cells[cell][c], keep: keep, worse: columns.worse(c))
            }
        }
    }
}

/// Runs the (cell, seed) pairs of a plan on every core, in batches: each thread claims the next
/// run of a batch (an atomic counter, so a thread that drew short runs takes more) and adds it to
/// its own tally; rows are written in run order once a batch is done. Tallies add up exactly in
/// any order, so neither the thread count nor which thread ran what changes a result.
public enum SweepRunner {
    public struct Outcome: Sendable {
        public var tally: FleetTally
    }

    /// The metric names of a plan: those of each cell's first seed (the report model gives every
    /// run of a workload the same metrics).
    public static func columns(of plan: SweepPlan, measured: MeasuredWork) -> MetricColumns {
        var names = Set<String>()
        for cell in plan.cells {
            names.formUnion(FleetRun.metrics(cell.workload.workload, seed: plan.sweep.seeds[0], measured: measured).keys)
        }
        return MetricColumns(Array(names))
    }

    /// Runs per batch: the rows of a batch are held until it is done (about 2 KB a run), and each
    /// batch ends with a wait for its last run, so batches are large enough for that wait to be rare.
    static func batchSize(threads: Int) -> Int { max(256, threads * 128) }

    /// Runs the plan's runs (this shard's), calling `rows` with each batch's CSV rows in run order.
    public static func run(_ plan: SweepPlan, columns: MetricColumns, measured: MeasuredWork, threads: Int,
                           rows: (ArraySlice<UInt8>) throws -> Void,
                           progress: ((Int, Int) -> Void)? = nil) throws -> Outcome {
        let runs = (0..<plan.runCount).filter(plan.includes)
        let threads = max(1, threads)
        let states = (0..<threads).map { _ in ThreadState(FleetTally(cells: plan.cells.count, columns: columns.names.count)) }
        let batchSize = batchSize(threads: threads)
        let seeds = plan.sweep.seeds
        let own = (0..<threads).map { t in ThreadInputs(plan, columns: columns, fresh: t > 0) }
        var done = 0
        for start in stride(from: 0, to: runs.count, by: batchSize) {
            let batch = Array(runs[start..<min(start + batchSize, runs.count)])
            let slots = RowSlots(count: batch.count)
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                let state = states[t], inputs = own[t]
                while true {
                    let k = next.add(1, ordering: .relaxed).oldValue
                    guard k < batch.count else { break }
                    let run = batch[k]
                    let cell = run / seeds.count, seedIndex = run % seeds.count
                    let values = FleetRun.values(inputs.workloads[cell], seed: seeds[seedIndex],
                                                 measured: measured, columns: inputs.columns)
                    state.tally.add(cell: cell, values: values, run: run, seed: seeds[seedIndex],
                                    columns: inputs.columns, keep: plan.sweep.worst)
                    slots.set(k, RunsCSV.row(run: run, cell: cell, seed: seeds[seedIndex], values: values))
                }
            }
            var bytes: [UInt8] = []
            for k in batch.indices { bytes += slots.get(k) }
            try rows(bytes[...])
            done += batch.count
            progress?(done, runs.count)
        }
        var tally = states[0].tally
        for state in states.dropFirst() { tally.merge(state.tally, columns: columns, keep: plan.sweep.worst) }
        return Outcome(tally: tally)
    }
}

/// What one thread reads on every run: the cells' workloads and the metric columns. Threads after
/// the first get their own copies (the workload loaded again, equal by its SHA-256, and new column
/// strings), so two threads do not retain and release the same objects run after run.
struct ThreadInputs: Sendable {
    var workloads: [Workload]
    var columns: MetricColumns

    init(_ plan: SweepPlan, columns: MetricColumns, fresh: Bool) {
        workloads = plan.cells.map { cell in
            guard fresh, let again = try? WorkloadSource.load(plan.sweep.workload, overrides: plan.fixed + cell.overrides),
                  again.sha256 == cell.workload.sha256, again.workload == cell.workload.workload
            else { return cell.workload.workload }
            return again.workload
        }
        self.columns = fresh ? MetricColumns(columns.names.map { String(decoding: Array($0.utf8), as: UTF8.self) }) : columns
    }
}

/// One thread's tally; only that thread touches it until the runs are done.
final class ThreadState: @unchecked Sendable {
    var tally: FleetTally
    init(_ tally: FleetTally) { self.tally = tally }
}

/// A batch's rows, each slot written by exactly one thread.
final class RowSlots: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<[UInt8]>
    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: [])
    }
    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }
    func set(_ i: Int, _ row: [UInt8]) { buffer[i] = row }
    func get(_ i: Int) -> [UInt8] { buffer[i] }
}
