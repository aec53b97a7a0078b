import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofOutput
import MemprofReport
import MemprofWorkload

/// `fleet.json`, schema `memprof.fleet/1` (spec §12): per cell and per metric, the distribution
/// over seeds, with the worst runs and the `memprof run` line that replays each.
///
/// Keys are sorted; the same sweep gives the same bytes whatever the thread count or sharding,
/// except `host`. A partial result (`--shard`, or `merge --partial`) also has `shard`.
public struct FleetResult: Codable, Sendable, Equatable {
    public static let schemaName = "memprof.fleet/1"

    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
    }

    public struct Axis: Codable, Sendable, Equatable {
        public var keyPath: String
        public var values: [String]
    }

    /// What was swept: the same in every shard of one sweep.
    public struct Sweep: Codable, Sendable, Equatable {
        public var name: String
        /// The workload argument, as the replay lines give it.
        public var workload: String
        public var workloadSha256: String
        /// Identifies the sweep (SHA-256 of workload digest, seeds, matrix, worst, version):
        /// `merge` refuses parts whose fingerprints differ.
        public var fingerprint: String
        public var seeds: String
        public var seedCount: Int
        public var matrix: [Axis]
        /// Runs in the whole sweep: cells × seeds.
        public var runs: Int
        /// Worst runs listed per metric.
        public var worst: Int
        /// `memprof sweep --device/--policy/--set`: applied to every cell (and in each cell's `overrides`).
        public var overrides: [Override]
        /// The sweep file's `mix:`: population shares of matrix keys' values; absent without one.
        public var mix: [MixAxis]? = nil
    }

    /// One matrix key's population shares: value → share (0...1), adding up to 1.
    public struct MixAxis: Codable, Sendable, Equatable {
        public var keyPath: String
        public var shares: [String: Double]
    }

    /// The share of a cell's days (runs) with at least one memory kill (an app's `memoryKills`:
    /// jetsam ending it for memory, `ExitReason.isMemoryKill`): of any app, and of each.
    public struct MemoryKillDays: Codable, Sendable, Equatable {
        public var all: Double
        public var apps: [String: Double]
    }

    /// A metric over a population: the cells' means and shares of days above zero, each cell
    /// weighted by its population share.
    public struct WeightedStats: Codable, Sendable, Equatable {
        public var mean: Double
        public var shareAboveZero: Double?
    }

    /// The cells that differ only in mixed keys' values, as one population: `label` names the
    /// values of the keys without a mix (`all` when every key has one).
    public struct WeightedTotal: Codable, Sendable, Equatable {
        public var label: String
        public var cells: [Int]
        public var memoryKillDays: MemoryKillDays?
        /// The metrics every one of its cells has.
        public var metrics: [String: WeightedStats]
    }

    /// Which of the N shards a partial result holds (1-based).
    public struct Shard: Codable, Sendable, Equatable {
        public var parts: [Int]
        public var of: Int
    }

    public struct Override: Codable, Sendable, Equatable {
        public var keyPath: String
        public var value: String
    }

    public struct WorstRun: Codable, Sendable, Equatable {
        public var seed: UInt64
        public var value: Int64
        public var replay: String
    }

    public struct MetricStats: Codable, Sendable, Equatable {
        public var kind: MetricKind
        public var direction: MetricDirection
        public var count: Int
        public var mean: Double
        public var sd: Double
        public var min: Int64
        public var p5: Int64
        public var p50: Int64
        public var p95: Int64
        public var p99: Int64
        public var max: Int64
        /// For counts: the share of runs (0...1) where the metric is above zero.
        public var shareAboveZero: Double?
        /// Worst first; only for metrics with a direction, and only runs worse than the best run.
        public var worst: [WorstRun]
    }

    public struct Cell: Codable, Sendable, Equatable {
        public var index: Int
        /// The matrix values of the cell: `device=ipad-air-2 policy=xnu`, or `all`.
        public var label: String
        /// Every override of the cell's runs in the order they apply (the sweep's `set:`, the cell's
        /// `per:` keys, `--set`, the matrix values): what the replay lines pass.
        public var overrides: [Override]
        /// Runs of this cell in this result.
        public var runs: Int
        public var metrics: [String: MetricStats]
        /// Days with a memory kill; absent when the cell has no runs here.
        public var memoryKillDays: MemoryKillDays? = nil
        /// The cell's share of the population the sweep's `mix` states; absent without a mix.
        public var populationShare: Double? = nil

        /// The cell's matrix values, in matrix order (`[iphone-11, xnu]`): its name where the
        /// matrix's keys are given once (runs.csv's columns, fleet.html's headings).
        public func values(matrixKeys: Int) -> [String] { overrides.suffix(matrixKeys).map(\.value) }
    }

    public struct RunsFile: Codable, Sendable, Equatable {
        public var name: String
        public var rows: Int
        public var columns: [String]
    }

    public struct Host: Codable, Sendable, Equatable {
        public var hostname: String
        public var processors: Int
        public var threads: Int
        public var wallMs: Double
        public var generatedAt: String
        /// `app/handler` → microseconds, for measured handlers (measured once, reused).
        public var measuredWorkUs: [String: Int64]
        /// `app/handler` → the program's measured peak in bytes, for `allocates: measured`
        /// handlers (measured once, reused); absent when there are none.
        public var measuredWorkPeakBytes: [String: Int64]?
        /// `app/handler` → how its program failed when measured (`exit status 3`, `SIGSEGV`):
        /// a failed handler in every run; absent when none failed.
        public var measuredWorkFailures: [String: String]?
    }

    public var schema = schemaName
    public var tool: Tool
    public var sweep: Sweep
    public var shard: Shard?
    public var cells: [Cell]
    public var runsFile: RunsFile
    public var host: Host
    /// Per population of the sweep's `mix` (cells that differ only in mixed keys), its weighted
    /// totals; absent without a mix.
    public var weighted: [WeightedTotal]? = nil

    /// Whether every shard is here.
    public var isComplete: Bool { shard == nil }

    /// fleet.json without the statistics: what `merge` and `compare` read of a result (they
    /// recompute or pair from runs.csv), decoded without building every metric's numbers.
    public struct Header: Decodable, Sendable, Equatable {
        public struct Cell: Decodable, Sendable, Equatable {
            public var index: Int
            public var label: String
            public var overrides: [Override]
            public var runs: Int
        }
        public var schema: String
        public var tool: Tool
        public var sweep: Sweep
        public var shard: Shard?
        public var cells: [Cell]
        public var runsFile: RunsFile
        public var host: Host

        public var isComplete: Bool { shard == nil }
    }

    public static func replay(workload: String, seed: UInt64, overrides: [Override]) -> String {
        let args = ["memprof", "run", workload, "--seed", String(seed)]
            + overrides.flatMap { WorkloadOverride(keyPath: $0.keyPath, value: $0.value, origin: .init(file: "")).commandLineArguments }
        return args.map(ShellQuote.word).joined(separator: " ")
    }

    /// The result of a tally: the statistics of the runs it counted.
    static func make(sweep: Sweep, shard: Shard?, cells: [(label: String, overrides: [Override])],
                     columns: MetricColumns, tally: FleetTally, host: Host) -> FleetResult {
        let cellResults = cells.enumerated().map { index, cell in
            var metrics: [String: MetricStats] = [:]
            // The same seeds are among the worst of many metrics: each replay line is made once.
            var replays: [UInt64: String] = [:]
            func replayLine(_ seed: UInt64) -> String {
                if let line = replays[seed] { return line }
                let line = replay(workload: sweep.workload, seed: seed, overrides: cell.overrides)
                replays[seed] = line
                return line
            }
            for (c, name) in columns.names.enumerated() {
                let a = tally.accumulator(cell: index, column: c)
                guard a.count > 0 else { continue }
                let kind = columns.kinds[c]
                let p = a.percentiles([5, 50, 95, 99])
                metrics[name] = MetricStats(
                    kind: kind, direction: columns.directions[c], count: a.count, mean: a.mean, sd: a.standardDeviation,
                    min: a.min, p5: p[0], p50: p[1], p95: p[2], p99: p[3],
                    max: a.max, shareAboveZero: kind == .count ? Double(a.aboveZero) / Double(a.count) : nil,
                    worst: a.worstRuns.filter { $0.value != (columns.directions[c] == .lowerIsWorse ? a.max : a.min) }.map {
                        WorstRun(seed: $0.seed, value: $0.value, replay: replayLine($0.seed))
                    })
            }
            let runs = tally.runs[index]
            let killDays = runs == 0 ? nil : MemoryKillDays(
                all: Double(tally.memoryKillDays(cell: index, group: 0)) / Double(runs),
                apps: Dictionary(uniqueKeysWithValues: columns.killGroups.dropFirst().enumerated().map { g, group in
                    (group.owner, Double(tally.memoryKillDays(cell: index, group: g + 1)) / Double(runs))
                }))
            return Cell(index: index, label: cell.label, overrides: cell.overrides, runs: runs, metrics: metrics,
                        memoryKillDays: killDays, populationShare: populationShare(cell.overrides, sweep: sweep))
        }
        return FleetResult(tool: Tool(name: "memprof", version: MemprofVersion.current), sweep: sweep, shard: shard,
                           cells: cellResults,
                           runsFile: RunsFile(name: "runs.csv", rows: tally.runs.reduce(0, +),
                                              columns: RunsCSV.columns(sweep.matrix.map(\.keyPath)) + columns.names),
                           host: host, weighted: weightedTotals(cellResults, sweep: sweep))
    }

    /// The product of the mixed keys' shares of a cell's values; nil without a mix.
    static func populationShare(_ overrides: [Override], sweep: Sweep) -> Double? {
        guard let mix = sweep.mix, !mix.isEmpty else { return nil }
        let values = overrides.suffix(sweep.matrix.count)
        return mix.reduce(1.0) { share, axis in
            share * (values.last { $0.keyPath == axis.keyPath }.flatMap { axis.shares[$0.value] } ?? 0)
        }
    }

    /// The populations of a sweep's `mix`: its cells (by index) grouped by the values of the keys
    /// without a mix, labelled by those values (`all` when every key has a mix), in the cells'
    /// order; nil without a mix.
    static func populations(_ cells: [(index: Int, overrides: [Override])], sweep: Sweep) -> [(label: String, cells: [Int])]? {
        guard let mix = sweep.mix, !mix.isEmpty else { return nil }
        let mixed = Set(mix.map(\.keyPath))
        var groups: [(label: String, cells: [Int])] = []
        for cell in cells {
            let values = cell.overrides.suffix(sweep.matrix.count)
            let label = values.filter { !mixed.contains($0.keyPath) }.map { "\($0.keyPath)=\($0.value)" }.joined(separator: " ")
            let name = label.isEmpty ? "all" : label
            if let at = groups.firstIndex(where: { $0.label == name }) { groups[at].cells.append(cell.index) } else { groups.append((name, [cell.index])) }
        }
        return groups
    }

    /// One total per population: cells grouped by the values of the keys without a mix, each
    /// metric the population-weighted mean (and share of days) of its cells' figures. A group with
    /// a cell that has no runs here (a shard's part) has no total.
    static func weightedTotals(_ cells: [Cell], sweep: Sweep) -> [WeightedTotal]? {
        guard let populations = populations(cells.map { ($0.index, $0.overrides) }, sweep: sweep) else { return nil }
        let byIndex = Dictionary(uniqueKeysWithValues: cells.map { ($0.index, $0) })
        let groups = populations.map { (label: $0.label, cells: $0.cells.compactMap { byIndex[$0] }) }
        return groups.compactMap { group in
            guard group.cells.allSatisfy({ $0.runs > 0 }) else { return nil }
            let weights = group.cells.map { $0.populationShare ?? 0 }
            let total = weights.reduce(0, +)
            guard total > 0 else { return nil }
            func weighted(_ value: (Cell) -> Double?) -> Double? {
                var sum = 0.0
                for (cell, weight) in zip(group.cells, weights) {
                    guard let v = value(cell) else { return nil }
                    sum += weight * v
                }
                return sum / total
            }
            var metrics: [String: WeightedStats] = [:]
            for name in group.cells[0].metrics.keys {
                guard let mean = weighted({ $0.metrics[name]?.mean }) else { continue }
                let share = group.cells[0].metrics[name]?.shareAboveZero == nil ? nil : weighted({ $0.metrics[name]?.shareAboveZero })
                metrics[name] = WeightedStats(mean: mean, shareAboveZero: share)
            }
            let apps = Set(group.cells.flatMap { $0.memoryKillDays?.apps.keys.map { $0 } ?? [] })
            let killDays = weighted({ $0.memoryKillDays?.all }).map { all in
                MemoryKillDays(all: all, apps: Dictionary(uniqueKeysWithValues: apps.compactMap { app in
                    weighted({ $0.memoryKillDays?.apps[app] }).map { (app, $0) }
                }))
            }
            return WeightedTotal(label: group.label, cells: group.cells.map(\.index), memoryKillDays: killDays, metrics: metrics)
        }
    }

    /// A fleet.json read back, as `merge`, `compare` and `export` read one (through MemprofReportReader's `JSONFile`).
    public static func decode(_ data: Data) throws -> FleetResult {
        try JSONFile.decode(FleetResult.self, from: data)
    }

    /// `2026-11-24T05:20:35Z`, as `ISO8601DateFormatter` writes it, without loading ICU for it
    /// (a sweep's fixed time is the part more cores do not shorten).
    static func utcTimestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var t = tm()
        gmtime_r(&seconds, &t)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(t.tm_year + 1900)-\(two(t.tm_mon + 1))-\(two(t.tm_mday))T\(two(t.tm_hour)):\(two(t.tm_min)):\(two(t.tm_sec))Z"
    }

    static func currentHost(threads: Int, wallMs: Double, measured: MeasuredWork) -> Host {
        return Host(hostname: ProcessInfo.processInfo.hostName, processors: ProcessInfo.processInfo.activeProcessorCount,
                    threads: threads, wallMs: (wallMs * 10).rounded() / 10, generatedAt: utcTimestamp(Date()),
                    measuredWorkUs: measured.microseconds,
                    measuredWorkPeakBytes: measured.peakBytes.isEmpty ? nil : measured.peakBytes,
                    measuredWorkFailures: measured.failures.isEmpty ? nil : measured.failures)
    }
}
