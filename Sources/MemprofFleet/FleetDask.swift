import Foundation
import MemprofOutput
import MemprofWorkload
import Synchronization

/// Each run's values of some metrics, as ``FleetDays`` gives them, but run on a Dask distributed
/// cluster by the runner fleets use past one machine (`scripts/fleet_dask.py`: each shard a Dask
/// task that runs `memprof sweep --shard K/N` on a worker, the shards merged by `memprof merge`),
/// and read back from the merged runs.csv. Dask does the scheduling, retries and transport; this
/// writes the sweep, starts the runner and reads its result. A day here is the day `memprof
/// sweep` runs, so the values are the ones ``FleetDays`` computes on this machine.
public struct FleetDask: Sendable {
    /// The most shards a sweep is cut into (as `memprof merge` accepts).
    public static let shardRange = 1...100_000

    /// A scheduler's address (`tcp://HOST:PORT`) or the file `dask scheduler --scheduler-file` writes.
    public var scheduler: String
    /// Shards of each sweep (Dask tasks).
    public var shards: Int
    /// The Python that has Dask distributed, and the runner it runs.
    public var python: String
    public var runner: String
    /// The memprof the workers run (a path they can reach).
    public var memprof: String
    /// Threads of each shard on its worker.
    public var threads: Int

    public init(scheduler: String, shards: Int, python: String, runner: String, memprof: String, threads: Int = 1) {
        self.scheduler = scheduler
        self.shards = shards
        self.python = python
        self.runner = runner
        self.memprof = memprof
        self.threads = threads
    }

    /// The runner could not be started, or its sweep failed: the part memprof runs cannot run
    /// (exit 126), or is not there (127).
    public struct Failure: MemprofError, Equatable, Sendable {
        public var description: String
        public var exitStatus: Int32
    }

    /// `values[i][s][k]`: cell `cells[i]` of `sweep`'s matrix, seed `sweep.seeds[s]`, metric
    /// `names[k]` (0 for a metric the run does not have), with `overrides` set in every cell
    /// after the sweep's `set:`, as ``FleetDays/values(_:cells:names:threads:measured:)`` of
    /// `SweepPlan(sweep: sweep, overrides: overrides)` gives them.
    ///
    /// - Throws: ``Failure`` when the runner fails or its runs.csv lacks a run; `BadInput` for a
    ///   sweep that cannot be written for the workers (more than one matrix axis, a matrix value
    ///   written as a mapping).
    public func values(_ sweep: SweepFile, overrides: [WorkloadOverride], cells: [Int], names: [String]) throws -> [[[Int64]]] {
        for path in [python, runner] where !FileManager.default.isExecutableFile(atPath: path) && !FileManager.default.fileExists(atPath: path) {
            throw Failure(description: "\(path): no such file (--dask runs \(runner) with \(python); scripts/setup.sh --fleet installs Dask)",
                          exitStatus: ExitStatus.partNotBuilt)
        }
        let folder = try Self.scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            UnfinishedOutput.shared.end(folder.path)
        }
        let sweepFile = folder.appendingPathComponent("sweep.yaml"), out = folder.appendingPathComponent("out")
        try Data(try Self.sweepText(sweep, cells: cells).utf8).write(to: sweepFile)
        var arguments = [runner, sweepFile.path, "--shards", "\(shards)", "--out", out.path, "--memprof", memprof,
                         "--threads", "\(threads)"]
        arguments += scheduler.contains("://") ? ["--scheduler", scheduler] : ["--scheduler-file", scheduler]
        for o in sweep.set where !Self.underPer(o, sweep) { arguments += ["--set", "\(o.keyPath)=\(o.value)"] }
        for o in overrides { arguments += ["--set", "\(o.keyPath)=\(o.value)"] }
        let log = folder.appendingPathComponent("runner.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(description: "\(python): cannot be run (\(error.localizedDescription))", exitStatus: ExitStatus.partNotExecutable)
        }
        let pid = process.processIdentifier
        Self.runners.withLock { _ = $0.insert(pid) }
        defer { Self.runners.withLock { _ = $0.remove(pid) } }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n").suffix(12).joined(separator: "\n")
            throw Failure(description: "\(runner) (on \(scheduler)) exited \(process.terminationStatus): \(tail)",
                          exitStatus: ExitStatus.partNotExecutable)
        }
        guard let csv = try? Data(contentsOf: out.appendingPathComponent("runs.csv")) else {
            throw Failure(description: "\(runner) (on \(scheduler)) exited 0 but wrote no runs.csv", exitStatus: ExitStatus.partNotExecutable)
        }
        return try Self.values(csv: [UInt8](csv), labels: sweep.axes.count, cells: cells.count, seeds: sweep.seeds, names: names)
    }

    /// Whether a `set:` key is one a `per:` key overlaps: the workers' `--set` would come after
    /// the `per:` keys, so the worker's file gives it to each cell in `per:`, before the cell's own.
    static func underPer(_ o: WorkloadOverride, _ sweep: SweepFile) -> Bool {
        sweep.per.contains { $0.values.contains { $0.overrides.contains { SweepFile.overlaps($0.keyPath, o.keyPath) } } }
    }

    /// The sweep the workers run: `sweep` with its matrix cut to `cells` (in that order), its
    /// workload as an absolute path, its `per:` keys for those cells, and no `set:` (the runner
    /// passes it with `--set`, after which the overrides come, as `SweepPlan` orders them; a
    /// `set:` key a `per:` key overlaps is given in each cell's `per:` instead, before its own).
    static func sweepText(_ sweep: SweepFile, cells: [Int]) throws -> String {
        guard sweep.axes.count <= 1 else { throw BadInput("--dask runs sweeps of one matrix axis; this one has \(sweep.axes.count)") }
        let workload = FileManager.default.fileExists(atPath: sweep.workload)
            ? URL(fileURLWithPath: sweep.workload).standardizedFileURL.path : sweep.workload
        let seeds = sweep.seeds
        let contiguous = !seeds.isEmpty && zip(seeds, seeds.dropFirst()).allSatisfy { $1 == $0 &+ 1 }
        var entries: [YAMLEntry] = [
            .pair("memprof", .int(1)), .pair("sweep", .word(sweep.name)), .pair("workload", .word(workload)),
            .pair("seeds", contiguous ? .word("\(seeds[0])..\(seeds[seeds.count - 1])") : .sequence(seeds.map { .int(Int64(clamping: $0)) }, flow: true)),
        ]
        if let axis = sweep.axes.first {
            let values = cells.map { axis.values[$0].value }
            if let mapping = values.first(where: { $0.hasPrefix("{") || $0.hasPrefix("[") }) {
                throw BadInput("--dask runs matrix values that are names; \(axis.keyPath) has \(mapping)")
            }
            entries.append(.pair("matrix", .mapping([.pair(axis.keyPath, .sequence(values.map { .word($0) }, flow: true))])))
            let before = sweep.set.filter { underPer($0, sweep) }
            var per: [YAMLEntry] = []
            for i in cells {
                let own = sweep.perCell([axis.values[i]])
                let set = before.filter { o in !own.contains { $0.keyPath == o.keyPath } } + own
                guard !set.isEmpty else { continue }
                if let mapping = set.first(where: { $0.value.hasPrefix("{") || $0.value.hasPrefix("[") }) {
                    throw BadInput("--dask runs per: values that are words; \(mapping.keyPath) has \(mapping.value)")
                }
                per.append(.pair(axis.values[i].value, .mapping(set.map { .pair($0.keyPath, .word($0.value)) }, flow: true)))
            }
            if !per.isEmpty { entries.append(.pair("per", .mapping([.pair(axis.keyPath, .mapping(per))]))) }
        } else if cells != [0] {
            throw BadInput("--dask: a sweep without a matrix has one cell")
        }
        return YAMLDocument(entries: entries).text
    }

    /// `values[i][s][k]` from a merged runs.csv of `cells` cells over `seeds` (each run once).
    static func values(csv: [UInt8], labels: Int, cells: Int, seeds: [UInt64], names: [String]) throws -> [[[Int64]]] {
        let read: (header: [String], labelHeader: [String], rows: [RunsCSV.Row])
        do { read = try RunsCSV.read(csv, labels: labels) } catch {
            throw Failure(description: "the runner's runs.csv cannot be read (\(error))", exitStatus: ExitStatus.partNotExecutable)
        }
        var column: [String: Int] = [:]
        for (i, name) in read.header.enumerated() where i >= RunsCSV.fixedColumns.count { column[name] = i - RunsCSV.fixedColumns.count }
        let order = names.map { column[$0] }
        let seedIndex = Dictionary(seeds.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var out: [[[Int64]?]] = Array(repeating: Array(repeating: nil, count: seeds.count), count: cells)
        for row in read.rows {
            guard row.cell < cells, let s = seedIndex[row.seed], out[row.cell][s] == nil else {
                throw Failure(description: "the runner's runs.csv has a run that is not one of the sweep's, or one twice "
                    + "(cell \(row.cell), seed \(row.seed))", exitStatus: ExitStatus.partNotExecutable)
            }
            out[row.cell][s] = order.map { k in k.flatMap { row.values[$0] } ?? 0 }
        }
        return try out.enumerated().map { i, runs in
            try runs.enumerated().map { s, run in
                guard let run else {
                    throw Failure(description: "the runner's runs.csv lacks the run of cell \(i), seed \(seeds[s])",
                                  exitStatus: ExitStatus.partNotExecutable)
                }
                return run
            }
        }
    }

    /// The runners under way (process ids), for ``endRunners()``.
    static let runners = Mutex<Set<pid_t>>([])

    /// Ends every runner under way with what it started (its process group: a runner is started
    /// in a group of its own): what an interrupted memprof does before it exits, so that Ctrl-C
    /// during `calibrate --dask` leaves no runner handing the cluster a sweep no one will read.
    public static func endRunners() {
        for pid in runners.withLock({ $0 }) where kill(-pid, SIGTERM) != 0 { kill(pid, SIGTERM) }
    }

    /// A folder of its own under the temporary folder, for the sweep and the runner's result,
    /// registered as unfinished output so an interrupted calibration removes it as it removes its
    /// staging folder.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-dask-\(UUID().uuidString)")
        try UnfinishedOutput.shared.create(folder.path) {
            guard mkdir(folder.path, 0o700) == 0 else {
                throw Failure(description: "cannot make a scratch folder for --dask in \(FileManager.default.temporaryDirectory.path)",
                              exitStatus: ExitStatus.outputFailure)
            }
        }
        return folder
    }
}
