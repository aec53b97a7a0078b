import Foundation
import MemprofCore
import MemprofInput
import MemprofReport
import MemprofSampler
import MemprofWorkload

/// A validated sweep: every cell's workload loaded through `WorkloadSource` (the one validation
/// of `run` and `validate`), the runs numbered, and which of them this shard runs.
///
/// Run `i` is cell `i / seeds.count` with seed `seeds[i % seeds.count]`; shard `K/N` runs the
/// runs with `i % N == K − 1`, so every shard gets a share of every cell.
public struct SweepPlan: Sendable {
    public struct Cell: Sendable {
        public var index: Int
        /// One override per matrix axis, in axis order.
        public var overrides: [WorkloadOverride]
        /// The sweep's `per:` keys this cell's matrix values give it.
        public var set: [WorkloadOverride] = []
        public var workload: LoadedWorkload
        /// `device=ipad-air-2 policy=xnu`, or `all` for a sweep without a matrix.
        public var label: String {
            overrides.isEmpty ? "all" : overrides.map { "\($0.keyPath)=\($0.value)" }.joined(separator: " ")
        }
    }

    /// `--shard K/N`: the K-th (1-based) of N parts.
    public struct Shard: Sendable, Equatable {
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// The most shards a sweep may be cut into.
        public static let maxCount = 100_000

        /// Parses `K/N`, with 1 ≤ K ≤ N ≤ 100,000.
        public static func parse(_ text: String) -> Shard? {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]),
                  n >= 1, n <= maxCount, k >= 1, k <= n else { return nil }
            return Shard(index: k, count: n)
        }

        /// What is wrong with `--shard text`, as the command line says it; nil when it parses.
        public static func problem(with text: String) -> String? {
            guard parse(text) == nil else { return nil }
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, let k = Int(parts[0]), k >= 1, parts[1].allSatisfy(\.isNumber), !parts[1].isEmpty,
               Int(parts[1]).map({ $0 > maxCount }) ?? true {
                return "--shard \(text): N is at most \(maxCount)"
            }
            return "--shard \(text): expected K/N with 1 ≤ K ≤ N, such as 2/8"
        }
    }

    public var sweep: SweepFile
    public var cells: [Cell]
    /// The workload before the matrix applies (with the fixed overrides).
    public var base: LoadedWorkload
    /// The sweep file's `set:`, then `memprof sweep --device/--policy/--set`: applied to every
    /// cell before its matrix values.
    public var fixed: [WorkloadOverride]
    /// `memprof sweep --device/--policy/--set` (the end of ``fixed``): after a cell's `per:` keys.
    public var options: [WorkloadOverride]
    public var shard: Shard?

    public var runCount: Int { cells.count * sweep.seeds.count }

    /// Runs of this shard (all of them without a shard).
    public var includedRunCount: Int {
        guard let shard else { return runCount }
        let first = shard.index - 1
        return first < runCount ? (runCount - first + shard.count - 1) / shard.count : 0
    }

    /// Whether run `i` belongs to this shard.
    public func includes(_ run: Int) -> Bool {
        guard let shard else { return true }
        return run % shard.count == shard.index - 1
    }

    /// Validates every cell before anything runs or is written.
    ///
    /// - Throws: `WorkloadError` located in the sweep file (the matrix value or key that is
    ///   wrong) or in the workload.
    public init(sweep: SweepFile, shard: Shard? = nil, overrides fixed: [WorkloadOverride] = []) throws {
        self.sweep = sweep
        self.shard = shard
        let options = fixed
        self.options = options
        let fixed = sweep.set + fixed
        self.fixed = fixed
        do {
            base = try WorkloadSource.thisBuild.load(sweep.workload, overrides: fixed)
        } catch let error as WorkloadError where error.line == 0 && error.file == sweep.workload {
            throw WorkloadError(file: sweep.file, line: sweep.workloadLine, column: sweep.workloadColumn,
                                keyPath: "workload", message: error.message)
        }
        var combos: [[WorkloadOverride]] = [[]]
        for axis in sweep.axes {
            combos = combos.flatMap { prefix in axis.values.map { prefix + [$0] } }
        }
        cells = try combos.enumerated().map { index, overrides in
            let set = sweep.perCell(overrides)
            return Cell(index: index, overrides: overrides, set: set,
                        workload: try WorkloadSource.thisBuild.load(sweep.workload, overrides: sweep.set + set + options + overrides))
        }
    }

    /// Every override of a cell's runs in the order they apply: the sweep's `set:`, the cell's
    /// `per:` keys, `memprof sweep --device/--policy/--set`, the cell's matrix values.
    public func overrides(of cell: Cell) -> [WorkloadOverride] {
        sweep.set + cell.set + options + cell.overrides
    }

    /// Identifies the sweep: the same for every shard of it, different for any other sweep
    /// (another workload text, seeds, matrix, worst count or memprof version). SHA-256, hex.
    public var fingerprint: String {
        var text = "memprof.fleet/1\n\(MemprofVersion.current)\n\(sweep.name)\n\(base.sha256)\n\(sweep.seedsText)\n\(sweep.worst)\n"
        for override in fixed { text += "--set \(override.keyPath)=\(override.value)\n" }
        for axis in sweep.axes {
            text += axis.keyPath + "=" + axis.values.map(\.value).joined(separator: "\u{1F}") + "\n"
        }
        for per in sweep.per {
            for entry in per.values {
                text += "per " + per.keyPath + "=" + entry.value + "\u{1F}"
                    + entry.overrides.map { "\($0.keyPath)=\($0.value)" }.joined(separator: "\u{1F}") + "\n"
            }
        }
        for mix in sweep.mix {
            text += "mix " + mix.keyPath + "=" + mix.shares.map { "\($0.value)\u{1F}\($0.share)" }.joined(separator: "\u{1F}") + "\n"
        }
        return SHA256Hex.of(text)
    }

}

/// Quoting for the replay lines people paste into a shell.
enum ShellQuote {
    static func word(_ s: String) -> String {
        let safe = !s.isEmpty && s.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@+,".contains($0) }
        return safe ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
