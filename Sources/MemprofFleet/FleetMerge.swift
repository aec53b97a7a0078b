import MemprofInput
import MemprofReportReader
import Foundation
import MemprofOutput

/// Bad input to `memprof merge`: exit status 2.
public struct MergeError: MemprofError, Equatable, Sendable {
    public var description: String
    public var exitStatus: Int32 { ExitStatus.badInput }
    init(_ description: String) { self.description = description }
}

/// `memprof merge DIR... --out DIR` (spec §12): combines partial results of one sweep.
///
/// The result is a function of the set of runs the parts hold, computed by the same tally the
/// sweep uses, so merging is associative and order-free, and a merge of all N shards is byte for
/// byte the unsharded sweep (except `host`). Parts of different sweeps, a shard given twice, a
/// missing shard (unless `partial`) and files that are not `memprof.fleet/1` are refused.
public enum FleetMerge {
    struct Part {
        var folder: String
        var result: FleetResult.Header
        var rows: [RunsCSV.Row]
        var header: [String]
    }

    /// What `merge`, `compare` and `export` make of one part given as its two files' text, without
    /// a folder: the checks, the tally of its rows, fleet.json (and fleet.html when complete) and
    /// the MetricKit payloads; for the fuzz target. Throws what those commands would report.
    public static func readAndSummarize(json: Data, csv: Data) throws -> Int {
        let part = try part("fuzz", json: json) { Array(csv) }
        let columns = MetricColumns(Array(part.header.dropFirst(RunsCSV.fixedColumns.count)))
        guard columns.names == Array(part.header.dropFirst(RunsCSV.fixedColumns.count)) else {
            throw MergeError("fuzz/runs.csv: its metric columns are not in memprof's order")
        }
        var tally = FleetTally(cells: part.result.cells.count, columns: columns.names.count)
        for row in part.rows {
            tally.add(cell: row.cell, values: row.values, run: row.run, seed: row.seed, columns: columns, keep: part.result.sweep.worst)
        }
        let result = FleetResult.make(
            sweep: part.result.sweep, shard: part.result.shard, cells: part.result.cells.map { ($0.label, $0.overrides) },
            columns: columns, tally: tally, host: part.result.host)
        var bytes = try result.encoded().count
        if result.isComplete { bytes += FleetHTML.data(result, tally: tally, columns: columns).count }
        bytes += FleetMetricKit.cells(of: part).reduce(0) { $0 + $1.days.count }
        return bytes
    }

    public static func merge(_ folders: [String], into out: URL, partial: Bool = false) throws -> FleetResult {
        let started = DispatchTime.now()
        guard !folders.isEmpty else { throw MergeError("merge needs at least one fleet result folder") }
        let parts = try folders.map(readPart)
        let first = parts[0]
        for part in parts.dropFirst() where part.result.sweep.fingerprint != first.result.sweep.fingerprint
            || part.result.sweep != first.result.sweep {
            throw MergeError("\(part.folder) and \(first.folder) are parts of different sweeps ('\(part.result.sweep.name)' "
                + "\(part.result.sweep.fingerprint.prefix(12)) and '\(first.result.sweep.name)' \(first.result.sweep.fingerprint.prefix(12)))")
        }
        let completes = parts.filter { $0.result.shard == nil }
        if let complete = completes.first, parts.count > 1 {
            throw MergeError("\(complete.folder) is a complete sweep, not a shard; it cannot be merged with other parts")
        }
        let count = first.result.shard?.of ?? 1
        var owner: [Int: String] = [:]
        for part in parts {
            guard let shard = part.result.shard else { owner[1] = part.folder; continue }
            guard shard.of == count else {
                throw MergeError("\(part.folder) is cut into \(shard.of) shards, \(first.folder) into \(count): parts of different shardings")
            }
            for k in shard.parts {
                if let other = owner[k] { throw MergeError("shard \(k)/\(count) appears twice: in \(other) and \(part.folder)") }
                owner[k] = part.folder
            }
        }
        let missing = (1...count).filter { owner[$0] == nil }
        if !missing.isEmpty && !partial {
            throw MergeError("missing shard\(missing.count == 1 ? "" : "s") \(missing.prefix(20).map { "\($0)/\(count)" }.joined(separator: ", "))"
                + (missing.count > 20 ? " and \(missing.count - 20) more" : "") + "; pass --partial to write a partial result")
        }
        for part in parts where part.header != first.header {
            throw MergeError("\(part.folder)/runs.csv has other columns than \(first.folder)/runs.csv")
        }
        let columns = MetricColumns(Array(first.header.dropFirst(RunsCSV.fixedColumns.count)))
        guard columns.names == Array(first.header.dropFirst(RunsCSV.fixedColumns.count)) else {
            throw MergeError("\(first.folder)/runs.csv: its metric columns are not in memprof's order")
        }
        let sweep = first.result.sweep
        var tally = FleetTally(cells: first.result.cells.count, columns: columns.names.count)
        let folder = FleetFolder(out)
        do {
            try folder.begin(header: RunsCSV.header(columns, matrixKeys: sweep.matrix.map(\.keyPath)))
            // Rows of every part, in run order (each part's rows are already in order).
            var cursors = Array(repeating: 0, count: parts.count)
            var buffer: [UInt8] = []
            while true {
                var best: Int?
                for p in parts.indices where cursors[p] < parts[p].rows.count {
                    if best == nil || parts[p].rows[cursors[p]].run < parts[best!].rows[cursors[best!]].run { best = p }
                }
                guard let p = best else { break }
                let row = parts[p].rows[cursors[p]]
                cursors[p] += 1
                tally.add(cell: row.cell, values: row.values, run: row.run, seed: row.seed, columns: columns, keep: sweep.worst)
                buffer += row.bytes
                if buffer.count > 1 << 20 {
                    try folder.append(buffer[...])
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try folder.append(buffer[...])
            let wallMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            let covered = owner.keys.sorted()
            let result = FleetResult.make(
                sweep: sweep, shard: missing.isEmpty ? nil : .init(parts: covered, of: count),
                cells: first.result.cells.map { ($0.label, $0.overrides) }, columns: columns, tally: tally,
                host: FleetResult.currentHost(threads: 1, wallMs: wallMs,
                                              measured: MeasuredWork(microseconds: first.result.host.measuredWorkUs,
                                                                     peakBytes: first.result.host.measuredWorkPeakBytes ?? [:],
                                                                     failures: first.result.host.measuredWorkFailures ?? [:])))
            try folder.finish(json: try result.encoded(), html: result.isComplete ? FleetHTML.data(result, tally: tally, columns: columns) : nil)
            return result
        } catch {
            folder.abort()
            throw error
        }
    }

    /// Reads and checks one part: its fleet.json, and runs.csv rows that belong to its shards.
    static func readPart(_ folder: String) throws -> Part {
        let dir = URL(fileURLWithPath: folder)
        var info = stat()
        if stat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            let kind = info.st_mode & S_IFMT == S_IFREG ? "a file" : InputFile.kind(ofMode: info.st_mode)
            throw MergeError("\(folder): is \(kind), not a folder written by memprof sweep or merge")
        }
        let json: Data
        switch InputFile.read(dir.appendingPathComponent("fleet.json").path, maxBytes: .max) {
        case .success(let bytes): json = Data(bytes)
        case .failure(.missing): throw MergeError("\(folder): no fleet.json (a folder written by memprof sweep or merge)")
        case .failure(let refusal): throw MergeError("\(folder)/fleet.json: \(refusal.message)")
        }
        return try part(folder, json: json) {
            switch InputFile.read(dir.appendingPathComponent("runs.csv").path, maxBytes: .max) {
            case .success(let bytes): return bytes
            case .failure(.missing): throw MergeError("\(folder): no runs.csv")
            case .failure(let refusal): throw MergeError("\(folder)/runs.csv: \(refusal.message)")
            }
        }
    }

    /// Checks one part from the text of its fleet.json and its runs.csv (read once fleet.json is
    /// known to be one): every number in range, every row where the sweep puts it.
    static func part(_ folder: String, json: Data, csv readCSV: () throws -> [UInt8]) throws -> Part {
        // What merge needs of a part, without its statistics (they are recomputed from the rows).
        struct Probe: Decodable { var schema: String? }
        guard let probe = try? JSONFile.decode(Probe.self, from: json) else {
            throw MergeError("\(folder)/fleet.json: not a JSON object")
        }
        guard probe.schema == FleetResult.schemaName else {
            throw MergeError("\(folder)/fleet.json: schema '\(probe.schema ?? "none")', not \(FleetResult.schemaName)")
        }
        let result: FleetResult.Header
        do { result = try JSONFile.decode(FleetResult.Header.self, from: json) } catch {
            throw MergeError("\(folder)/fleet.json: not a \(FleetResult.schemaName) file (\(error))")
        }
        let csv = try readCSV()
        let s = result.sweep
        let matrixKeys = s.matrix.map(\.keyPath)
        let header: [String], labelHeader: [String], rows: [RunsCSV.Row]
        do {
            (header, labelHeader, rows) = try RunsCSV.read(csv, labels: matrixKeys.count)
        } catch RunsCSV.ReadError.badRow(let line, let why) {
            throw MergeError("\(folder)/runs.csv:\(line): \(why)")
        } catch {
            throw MergeError("\(folder)/runs.csv: not a runs table written by memprof sweep")
        }
        guard labelHeader == matrixKeys else {
            throw MergeError("\(folder)/runs.csv: its columns after seed are not the matrix keys of fleet.json ("
                + (matrixKeys.isEmpty ? "none" : matrixKeys.joined(separator: ", ")) + "); a sweep writes them")
        }
        try checkRanges(result, folder: folder)
        let (runs, overflow) = s.seedCount.multipliedReportingOverflow(by: result.cells.count)
        guard s.seedCount > 0, !overflow, s.runs == runs, s.worst >= 0, s.worst <= 100 else {
            throw MergeError("\(folder)/fleet.json: its sweep's runs, seeds and cells do not agree")
        }
        guard let seeds = SweepFile.seeds(fromText: s.seeds), seeds.count == s.seedCount else {
            throw MergeError("\(folder)/fleet.json: sweep.seeds '\(s.seeds.prefix(60))' is not \(s.seedCount) seeds as a sweep writes them")
        }
        if let shard = result.shard {
            guard (1...100_000).contains(shard.of), !shard.parts.isEmpty, shard.parts.allSatisfy({ (1...shard.of).contains($0) }),
                  Set(shard.parts).count == shard.parts.count else {
                throw MergeError("\(folder)/fleet.json: its shard list is not K of N with 1 ≤ K ≤ N ≤ 100000")
            }
        }
        let shards = result.shard.map { Set($0.parts) }
        let of = result.shard?.of ?? 1
        var previous = -1
        for (i, row) in rows.enumerated() {
            guard row.run > previous, row.run < s.runs, row.cell == row.run / s.seedCount,
                  shards.map({ $0.contains(row.run % of + 1) }) ?? true else {
                throw MergeError("\(folder)/runs.csv:\(i + 2): run \(row.run) does not belong to this part, or is out of order")
            }
            let seed = seeds[row.run % s.seedCount]
            guard row.seed == seed else {
                throw MergeError("\(folder)/runs.csv:\(i + 2): seed \(row.seed) is not the sweep's seed of run \(row.run) (\(seed))")
            }
            if row.cell < result.cells.count, row.labels != result.cells[row.cell].overrides.suffix(matrixKeys.count).map(\.value) {
                throw MergeError("\(folder)/runs.csv:\(i + 2): the matrix values of run \(row.run) are not those of its cell "
                    + "(\(result.cells[row.cell].label))")
            }
            previous = row.run
        }
        guard rows.count == result.runsFile.rows else {
            throw MergeError("\(folder): fleet.json counts \(result.runsFile.rows) runs but runs.csv has \(rows.count)")
        }
        return Part(folder: folder, result: result, rows: rows, header: header)
    }

    /// The numbers of a part's fleet.json that merge uses or passes on, each within what a sweep
    /// can write: counts within ``SweepFile``'s bounds, measured work within a run's.
    static func checkRanges(_ result: FleetResult.Header, folder: String) throws {
        func check<T: BinaryInteger>(_ value: T, _ range: ClosedRange<T>, _ keyPath: String) throws {
            guard !range.contains(value) else { return }
            throw MergeError("\(folder)/fleet.json: \(keyPath) \(value) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
        let s = result.sweep
        try check(s.seedCount, 1...SweepFile.maxSeeds, "sweep.seedCount")
        try check(s.runs, 1...SweepFile.maxRuns, "sweep.runs")
        try check(result.cells.count, 1...SweepFile.maxCells, "cells.count")
        try check(result.runsFile.rows, 0...SweepFile.maxRuns, "runsFile.rows")
        for (i, cell) in result.cells.enumerated() {
            try check(cell.index, i...i, "cells[\(i)].index")
            try check(cell.runs, 0...s.seedCount, "cells[\(i)].runs")
        }
        for (key, us) in result.host.measuredWorkUs.sorted(by: { $0.key < $1.key }) {
            try check(us, 0...RunsCSV.valueRange.upperBound, "host.measuredWorkUs.\(key)")
        }
        for (key, bytes) in (result.host.measuredWorkPeakBytes ?? [:]).sorted(by: { $0.key < $1.key }) {
            try check(bytes, 0...RunsCSV.valueRange.upperBound, "host.measuredWorkPeakBytes.\(key)")
        }
    }
}
