import Foundation
import MemprofCompare
import MemprofCore
import MemprofField
import MemprofOutput
import MemprofSampler
import MemprofWorkload

/// `memprof export FLEET --format metrickit -o DIR`: per cell of a sweep, the
/// `MXMetricPayload`-shaped array `memprof export REPORT --format metrickit` writes for one run,
/// aggregated over the cell's runs from runs.csv:
///
/// - exits: per app and MetricKit counter, the sum over the runs (`exits.<reason>` minus
///   `foregroundExits.<reason>` count on the background side, `foregroundExits.<reason>` on the
///   foreground side, each mapped as `MetricKitExits` maps them);
/// - `peakMemoryUsage`: the highest `peakFootprintBytes` of any run;
/// - `averageSuspendedMemory`: the pooled mean and sample standard deviation of every footprint
///   at suspension in every run (from each run's `suspendedMemory` count, mean and deviation),
///   with `sampleCount` the number of suspensions over all runs.
public enum FleetMetricKit {
    /// The figures of one cell, before they are written.
    public struct Cell: Sendable, Equatable {
        public var index: Int
        public var label: String
        public var runs: Int
        public var durationUs: Int64
        public var apps: [MetricKitExport.AppMetrics]
    }

    /// The cells of the fleet result in `path` (its folder, or its fleet.json), with runs.
    public static func cells(_ path: String) throws -> (header: FleetResult.Header, cells: [Cell]) {
        let folder = URL(fileURLWithPath: path).lastPathComponent == "fleet.json"
            ? URL(fileURLWithPath: path).deletingLastPathComponent().path : path
        let part = try FleetMerge.readPart(folder)
        return (part.result, cells(of: part))
    }

    /// The cells of a checked part, with runs.
    static func cells(of part: FleetMerge.Part) -> [Cell] {
        let names = Array(part.header.dropFirst(RunsCSV.fixedColumns.count))
        var column: [String: Int] = [:]
        for (i, name) in names.enumerated() { column[name] = i }
        let apps = Set(names.compactMap { MetricPath($0).app }).sorted()
        var rowsByCell: [Int: [RunsCSV.Row]] = [:]
        for row in part.rows { rowsByCell[row.cell, default: []].append(row) }
        return part.result.cells.compactMap { cell -> Cell? in
            guard let rows = rowsByCell[cell.index], !rows.isEmpty else { return nil }
            func value(_ row: RunsCSV.Row, _ name: String) -> Int64 {
                guard let c = column[name], c < row.values.count else { return 0 }
                return max(row.values[c] ?? 0, 0)
            }
            let metrics = apps.map { app in
                var m = MetricKitExport.AppMetrics(app: app)
                for reason in ExitReason.allCases.map(\.rawValue) {
                    // Within runs.csv's range, sums over a sweep's runs fit in 128 bits.
                    var total: Int128 = 0, inForeground: Int128 = 0
                    for row in rows {
                        let all = value(row, "apps.\(app).exits.\(reason)")
                        total += Int128(all)
                        inForeground += Int128(min(value(row, "apps.\(app).foregroundExits.\(reason)"), all))
                    }
                    m.addExits(reason, foreground: true, count: Int(clamping: inForeground))
                    m.addExits(reason, foreground: false, count: Int(clamping: total - inForeground))
                }
                m.peakMemoryBytes = rows.map { value($0, "apps.\(app).peakFootprintBytes") }.max() ?? 0
                m.suspended = pooled(rows.map { row in
                    SuspendedMemory(sampleCount: Int(clamping: value(row, "apps.\(app).suspendedMemory.sampleCount")),
                                    averageBytes: value(row, "apps.\(app).suspendedMemory.averageBytes"),
                                    standardDeviationBytes: value(row, "apps.\(app).suspendedMemory.standardDeviationBytes"))
                })
                return m
            }
            // Every app's times in its states add up to the run's duration.
            let duration = apps.first.map { app in
                AppState.allCases.reduce(Int64(0)) { $0 &+ value(rows[0], "apps.\(app).timeInStateUs.\($1.rawValue)") }
            } ?? 0
            return Cell(index: cell.index, label: cell.label, runs: rows.count, durationUs: duration, apps: metrics)
        }
    }

    /// One file per cell with runs, `cell-<index>.json`: the cell's payloads, one per app.
    public static func files(_ path: String) throws -> [OutputFile] {
        let (header, cells) = try cells(path)
        return cells.map { cell in
            let overrides = header.cells.first { $0.index == cell.index }?.overrides ?? []
            let context = MetricKitExport.Context(
                durationUs: cell.durationUs,
                build: "\(header.sweep.workload) \(cell.label) (\(cell.runs) runs)",
                identity: identity(workload: header.sweep.workload, overrides: overrides))
            return OutputFile(name: "cell-\(cell.index).json", data: Data(MetricKitExport.json(cell.apps, context: context).utf8))
        }
    }

    /// The device a cell ran on, as reports name it: the sweep's workload loaded with the cell's
    /// overrides; `memprof-custom` when the workload cannot be loaded here (a file moved away).
    static func identity(workload: String, overrides: [FleetResult.Override]) -> FieldIdentity {
        let changes = overrides.map { WorkloadOverride(keyPath: $0.keyPath, value: $0.value, origin: .init(file: "fleet.json")) }
        if let loaded = try? WorkloadSource.load(workload, overrides: changes) {
            return FieldIdentity.of(loaded.workload.device)
        }
        if let name = overrides.last(where: { $0.keyPath == "device" })?.value, let device = Device.preset(named: name) {
            return FieldIdentity.of(device)
        }
        return FieldIdentity(product: "memprof-custom", osVersion: "iPhone OS 16.0")
    }

    /// The mean and sample standard deviation of every sample of several groups, from each
    /// group's count, mean and sample standard deviation:
    /// sd² = (Σ (nᵢ − 1) sᵢ² + Σ nᵢ (mᵢ − m)²) ÷ (N − 1), with m = Σ nᵢ mᵢ ÷ N.
    ///
    /// The count is summed in 128 bits and given as at most `Int.max`; the mean and deviation
    /// are taken in floating point, so no group can make them overflow.
    public static func pooled(_ groups: [SuspendedMemory]) -> SuspendedMemory {
        let total = groups.reduce(Int128(0)) { $0 + Int128(max($1.sampleCount, 0)) }
        guard total > 0 else { return SuspendedMemory(sampleCount: 0, averageBytes: 0, standardDeviationBytes: 0) }
        let n = Double(total)
        let mean = groups.reduce(0.0) { $0 + Double(max($1.sampleCount, 0)) * Double($1.averageBytes) } / n
        let squares = groups.reduce(0.0) { sum, g in
            let count = Double(max(g.sampleCount, 0))
            guard count > 0 else { return sum }
            let sd = Double(g.standardDeviationBytes), offset = Double(g.averageBytes) - mean
            return sum + (count - 1) * sd * sd + count * offset * offset
        }
        let sd = total > 1 ? (squares / (n - 1)).squareRoot() : 0
        return SuspendedMemory(sampleCount: Int(clamping: total), averageBytes: clamped(mean), standardDeviationBytes: clamped(sd))
    }

    /// `value` rounded to a whole number, within Int64 (NaN gives 0).
    static func clamped(_ value: Double) -> Int64 {
        guard value.isFinite else { return value.isNaN ? 0 : (value < 0 ? .min : .max) }
        let rounded = value.rounded()
        return rounded >= 9.223372036854775807e18 ? .max : rounded <= -9.223372036854775808e18 ? .min : Int64(rounded)
    }
}
