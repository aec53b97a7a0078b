import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofSampler
import MemprofWorkload
import Synchronization

/// The metrics of a sweep, as columns: every metric `compare` knows (summary and per app), by
/// the names `compare` uses, in its order (summary first, then apps, each by path).
public struct MetricColumns: Sendable, Equatable {
    public var names: [String]
    public var kinds: [MetricKind]
    public var directions: [MetricDirection]
    private(set) var index: [String: Int]

    public init(_ names: [String]) {
        self.names = names.map { (summary: $0.hasPrefix("summary."), name: $0) }
            .sorted { x, y in x.summary != y.summary ? x.summary : x.name < y.name }.map(\.name)
        kinds = self.names.map(MetricKind.of)
        // A direction depends on the path below `summary` or the app only: every app's
        // `evictions` looks the table up once.
        var byRelative: [String: MetricDirection] = [:]
        directions = self.names.map { name in
            let relative = MetricPath(name).relative
            if let known = byRelative[relative] { return known }
            let direction = MetricDirections.direction(of: name)
            byRelative[relative] = direction
            return direction
        }
        index = Dictionary(uniqueKeysWithValues: self.names.enumerated().map { ($1, $0) })
        killGroups = Self.killGroups(self.names)
    }

    /// The columns that count memory kills of one owner: any app of the run (owner ""), then
    /// each app (its `apps.ID.memoryKills`, every memory-kill reason of its exits:
    /// `ExitReason.isMemoryKill`), by app key. Daemons' and extensions' kills are no app's.
    public struct KillGroup: Sendable, Equatable {
        public var owner: String
        public var columns: [Int]
    }

    /// Group 0 is the run's (every app's column); one group per app follows. A run has a memory
    /// kill when one of its group's columns is above zero.
    public private(set) var killGroups: [KillGroup] = []

    /// An app's memory kills, below `apps.ID.`.
    public static let memoryKills = "memoryKills"

    static func killGroups(_ names: [String]) -> [KillGroup] {
        let apps = names.enumerated().compactMap { c, name -> (app: String, column: Int)? in
            let path = MetricPath(name)
            guard let app = path.app, path.relative == memoryKills else { return nil }
            return (app, c)
        }.sorted { $0.app < $1.app }
        return [KillGroup(owner: "", columns: apps.map(\.column))] + apps.map { KillGroup(owner: $0.app, columns: [$0.column]) }
    }

    /// The same columns in storage of their own (new strings and arrays), for another thread.
    func copied() -> MetricColumns {
        var copy = self
        copy.names = names.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        copy.kinds = kinds.map { $0 }
        copy.directions = directions.map { $0 }
        copy.index = Dictionary(uniqueKeysWithValues: copy.names.enumerated().map { ($1, $0) })
        copy.killGroups = killGroups.map { KillGroup(owner: String(decoding: Array($0.owner.utf8), as: UTF8.self), columns: $0.columns.map { $0 }) }
        return copy
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
    static func metrics(_ workload: Workload, seed: UInt64, measured: MeasuredWork) -> [String: Double] {
        let sink = RunMetrics.Sink(MetricPaths())
        flatten(workload, seed: seed, measured: measured, into: sink)
        var out: [String: Double] = [:]
        for (node, value) in sink.values { out[sink.paths.names[Int(node)]] = Double(value) }
        return out
    }

    /// The run's metric values in the order of the columns `sink`'s paths number (nil where the
    /// run has no such metric). `sink` is reused run after run, so its paths are met once.
    static func values(_ workload: Workload, seed: UInt64, measured: MeasuredWork, columns: Int,
                       sink: RunMetrics.Sink) -> [Int64?] {
        sink.values.removeAll(keepingCapacity: true)
        flatten(workload, seed: seed, measured: measured, into: sink)
        var values = [Int64?](repeating: nil, count: columns)
        for (node, value) in sink.values {
            let c = sink.paths.columns[Int(node)]
            if c >= 0 { values[Int(c)] = value }
        }
        return values
    }

    /// Simulates without history (the counters are the same, spec §12 reads only them) and
    /// flattens the summary and apps as the report gives them (`Report.init`: the core's
    /// summary, and each app's statistics with its headroom) and compare names them.
    private static func flatten(_ workload: Workload, seed: UInt64, measured: MeasuredWork, into sink: RunMetrics.Sink) {
        var w = workload
        w.seed = seed
        var options = Simulator.Options(keepsHistory: false)
        if !measured.isEmpty { options.performer = measured }
        var simulator = Simulator(workload: w, options: options)
        let result = simulator.run()
        let apps = zip(result.workload.apps, result.apps).map { spec, stats in
            (id: spec.id, stats: stats.withHeadroom(of: spec, in: result.workload))
        }
        RunMetrics.flatten(summary: result.summary, apps: apps, into: sink)
    }
}

/// Per-cell, per-column accumulators: what a set of runs adds up to.
///
/// A cell's accumulators are made when its first run is added, so a tally costs memory for the
/// cells it counted only: each thread of a sweep has one, and a thread may run few of the cells.
public struct FleetTally: Sendable, Equatable {
    /// Cell → its accumulators, one per column; empty until the cell's first run.
    public private(set) var cells: [[MetricAccumulator]]
    /// Runs counted, per cell.
    public var runs: [Int]
    /// Cell → runs with a memory kill, per kill group (``MetricColumns/killGroups``); empty until
    /// the cell's first run.
    private var killDays: [[Int]]
    private let columnCount: Int

    public init(cells: Int, columns: Int) {
        self.cells = Array(repeating: [], count: cells)
        runs = Array(repeating: 0, count: cells)
        killDays = Array(repeating: [], count: cells)
        columnCount = columns
    }

    /// Runs of `cell` with a memory kill in kill group `group`.
    public func memoryKillDays(cell: Int, group: Int) -> Int {
        group < killDays[cell].count ? killDays[cell][group] : 0
    }

    /// The accumulator of `cell` and column `c` (empty when the cell has no runs).
    public func accumulator(cell: Int, column c: Int) -> MetricAccumulator {
        cells[cell].isEmpty ? MetricAccumulator() : cells[cell][c]
    }

    mutating func add(cell: Int, values: [Int64?], run: Int, seed: UInt64, columns: MetricColumns, keep: Int) {
        runs[cell] += 1
        if cells[cell].isEmpty { cells[cell] = Array(repeating: MetricAccumulator(), count: columnCount) }
        for (c, value) in values.enumerated() {
            guard let value else { continue }
            var worse = columns.worse(c)
            if columns.directions[c] == .higherIsWorse && value <= 0 { worse = nil }
            cells[cell][c].add(value, run: run, seed: seed, keep: keep, worse: worse)
        }
        if killDays[cell].isEmpty { killDays[cell] = Array(repeating: 0, count: columns.killGroups.count) }
        for (g, group) in columns.killGroups.enumerated() where group.columns.contains(where: { (values[$0] ?? 0) > 0 }) {
            killDays[cell][g] += 1
        }
    }

    mutating func merge(_ other: FleetTally, columns: MetricColumns, keep: Int) {
        for cell in cells.indices where !other.cells[cell].isEmpty {
            runs[cell] += other.runs[cell]
            guard !cells[cell].isEmpty else {
                cells[cell] = other.cells[cell]
                killDays[cell] = other.killDays[cell]
                continue
            }
            for g in other.killDays[cell].indices { killDays[cell][g] += other.killDays[cell][g] }
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

    /// The threads a sweep runs on: those asked for, at most one per core (more only share the
    /// cores, and each holds its own tally) and at most one per run.
    public static func threadCount(asked: Int, runs: Int) -> Int {
        max(1, min(asked, ProcessInfo.processInfo.activeProcessorCount, runs))
    }

    /// Runs the plan's runs (this shard's), calling `rows` with each batch's CSV rows in run order,
    /// on ``threadCount(asked:runs:)`` threads.
    public static func run(_ plan: SweepPlan, columns: MetricColumns, measured: MeasuredWork, threads asked: Int,
                           rows: (ArraySlice<UInt8>) throws -> Void,
                           progress: ((Int, Int) -> Void)? = nil) throws -> Outcome {
        // This shard's runs, without listing them: the j-th is run j × N + K − 1 of shard K/N.
        let total = plan.includedRunCount
        let step = plan.shard?.count ?? 1, offset = (plan.shard?.index ?? 1) - 1
        let threads = threadCount(asked: asked, runs: total)
        let batchSize = batchSize(threads: threads)
        let seeds = plan.sweep.seeds
        // Each cell's matrix values as runs.csv writes them after the seed, made once.
        let cellFields = plan.cells.map { RunsCSV.fields($0.overrides.map(\.value)) }
        let states = (0..<threads).map { _ in ThreadState() }
        var done = 0
        // A batch's rows are written while the next batch runs (by its first thread, before it
        // claims runs), so the other threads do not wait for the file.
        try withoutActuallyEscaping(rows) { rows in
            let writer = BatchWriter(rows)
            var pending: RunSlots<[UInt8]>?
            for start in stride(from: 0, to: total, by: batchSize) {
                let batch = (start..<min(start + batchSize, total)).map { $0 * step + offset }
                let slots = RunSlots<[UInt8]>(count: batch.count), previous = pending
                let next = Atomic<Int>(0)
                DispatchQueue.concurrentPerform(iterations: threads) { t in
                    if t == 0, let previous { writer.write(previous) }
                    // Each thread makes its own inputs and tally on its first batch, on its own heap.
                    let state = states[t]
                    if state.inputs == nil { state.prepare(plan, columns: columns, fresh: t > 0, threads: threads) }
                    let inputs = state.inputs!, sink = state.sink!
                    while true {
                        let k = next.add(1, ordering: .relaxed).oldValue
                        guard k < batch.count else { break }
                        let run = batch[k]
                        let cell = run / seeds.count, seedIndex = run % seeds.count
                        let values = FleetRun.values(inputs.workload(cell), seed: seeds[seedIndex],
                                                     measured: measured, columns: columns.names.count, sink: sink)
                        state.tally.add(cell: cell, values: values, run: run, seed: seeds[seedIndex],
                                        columns: inputs.columns, keep: plan.sweep.worst)
                        slots.set(k, RunsCSV.row(run: run, cell: cell, seed: seeds[seedIndex], labels: cellFields[cell],
                                                 values: values))
                    }
                }
                if let error = writer.error { throw error }
                pending = slots
                done += batch.count
                progress?(done, total)
            }
            if let pending { writer.write(pending) }
            if let error = writer.error { throw error }
        }
        // Threads that ran nothing (fewer runs than threads) have no tally to add.
        let used = states.filter { $0.inputs != nil }
        var tally = used.first?.tally ?? FleetTally(cells: plan.cells.count, columns: columns.names.count)
        for state in used.dropFirst() { tally.merge(state.tally, columns: columns, keep: plan.sweep.worst) }
        return Outcome(tally: tally)
    }
}

/// What one thread reads on every run: the cells' workloads and the metric columns. Threads after
/// the first get their own copies (a cell's workload loaded again the first time the thread runs
/// it, kept when equal by its SHA-256; new column strings), so two threads do not retain and
/// release the same objects run after run. A copy is made only for cells with enough seeds per
/// thread to repay the load, so a thread's setup does not grow with the cells of the sweep.
final class ThreadInputs: @unchecked Sendable {
    let plan: SweepPlan
    let columns: MetricColumns
    private let copies: Bool
    private var loaded: [Int: Workload] = [:]

    /// Seeds per thread from which a thread runs a cell on its own copy of its workload.
    static let seedsPerCopy = 16

    init(_ plan: SweepPlan, columns: MetricColumns, fresh: Bool, threads: Int) {
        self.plan = plan
        copies = fresh && plan.sweep.seeds.count >= Self.seedsPerCopy * threads
        self.columns = fresh ? columns.copied() : columns
    }

    func workload(_ cell: Int) -> Workload {
        let shared = plan.cells[cell].workload
        guard copies else { return shared.workload }
        if let copy = loaded[cell] { return copy }
        let plan = plan
        let copy: Workload
        if let again = try? WorkloadSource.thisBuild.load(plan.sweep.workload, overrides: plan.overrides(of: plan.cells[cell])),
           again.sha256 == shared.sha256, again.workload == shared.workload {
            copy = again.workload
        } else {
            copy = shared.workload
        }
        loaded[cell] = copy
        return copy
    }
}

/// One thread's inputs, tally and the paths its runs' metrics take; only that thread touches them
/// until the runs are done.
final class ThreadState: @unchecked Sendable {
    var inputs: ThreadInputs?
    var tally = FleetTally(cells: 0, columns: 0)
    var sink: RunMetrics.Sink?

    func prepare(_ plan: SweepPlan, columns: MetricColumns, fresh: Bool, threads: Int) {
        let inputs = ThreadInputs(plan, columns: columns, fresh: fresh, threads: threads)
        self.inputs = inputs
        tally = FleetTally(cells: plan.cells.count, columns: columns.names.count)
        sink = RunMetrics.Sink(MetricPaths(columns: inputs.columns))
    }
}

/// Hands a finished batch's rows, in run order, to the sweep's file. One thread at a time uses it:
/// the first thread of the next batch, while the caller waits for that batch.
final class BatchWriter: @unchecked Sendable {
    private let rows: (ArraySlice<UInt8>) throws -> Void
    private(set) var error: (any Error)?

    init(_ rows: @escaping (ArraySlice<UInt8>) throws -> Void) { self.rows = rows }

    func write(_ slots: RunSlots<[UInt8]>) {
        guard error == nil else { return }
        var bytes: [UInt8] = []
        for k in 0..<slots.count { bytes += slots.get(k) ?? [] }
        do { try rows(bytes[...]) } catch { self.error = error }
    }
}

/// A batch's rows (or any values a run makes), each slot written by exactly one thread.
final class RunSlots<Element>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Element?>
    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }
    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }
    func set(_ i: Int, _ value: Element) { buffer[i] = value }
    func get(_ i: Int) -> Element? { buffer[i] }
    var count: Int { buffer.count }
}
