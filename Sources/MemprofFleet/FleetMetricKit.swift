import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofField
import MemprofOutput
import MemprofSampler
import MemprofWorkload

/// `memprof export FLEET --format metrickit -o DIR`: per cell of a sweep, one file holding the
/// `MXMetricPayload`-shaped payloads of every run of the cell, one per app and run, in run order:
/// each run is a device-day, as MetricKit delivers one payload a day a device, so that what
/// reads a team's payloads (`memprof field`) reads a simulated fleet the same way. Each
/// payload is what `memprof export REPORT --format metrickit` writes for that run, from
/// runs.csv:
///
/// - exits: per app and MetricKit counter (`exits.<reason>` minus `foregroundExits.<reason>`
///   count on the background side, `foregroundExits.<reason>` on the foreground side, each
///   mapped as `MetricKitExits` maps them);
/// - `peakMemoryUsage`: the run's `peakFootprintBytes`;
/// - `averageSuspendedMemory`: the run's `suspendedMemory` (count, mean, sample deviation);
/// - `applicationTimeMetrics`: time on screen (active and inactive) and running in the background;
/// - `applicationLaunchMetrics`: `launches.cold` in `histogrammedTimeToFirstDrawKey`, one bucket at
///   the app's `launch.time` (each cold launch takes that long to `applicationDidFinishLaunching`),
///   and `resumeLatencyUs.count` in `histogrammedResumeTime`, one bucket from the app's
///   `resumeTime` (the shortest latency a resume has: a warm one; a resume from flash adds the
///   read) to `resumeLatencyUs.max`. runs.csv keeps no smallest latency, so the bucket starts at
///   that bound where a report's starts at its smallest `resume` event. Both times come from the
///   sweep's workload loaded with the cell's overrides; when it cannot be loaded here (a file
///   moved away), the section is left out rather than given times memprof did not run.
public enum FleetMetricKit {
    /// The figures of one cell, before they are written.
    public struct Cell: Sendable, Equatable {
        public var index: Int
        public var label: String
        /// Each run of the cell (a device-day): its seed and its apps' metrics.
        public var days: [Day]
        public var durationUs: Int64
    }

    public struct Day: Sendable, Equatable {
        public var run: Int
        public var seed: UInt64
        public var apps: [MetricKitExport.AppMetrics]
    }

    /// The cells of the fleet result in `path` (its folder, or its fleet.json), with runs.
    public static func cells(_ path: String) throws -> (header: FleetResult.Header, cells: [Cell]) {
        let part = try part(path)
        return (part.result, cells(of: part))
    }

    /// The checked part of the fleet result in `path` (its folder, or its fleet.json).
    static func part(_ path: String) throws -> FleetMerge.Part {
        let url = URL(fileURLWithPath: path)
        return try FleetMerge.readPart(url.lastPathComponent == "fleet.json" ? url.deletingLastPathComponent().path : path)
    }

    /// The cells of a checked part, with runs. `times` gives a cell's app its launch time and resume
    /// time (`launch.time`, `resumeTime`), which its launch metrics need; without them (nil) the
    /// payloads have none.
    static func cells(of part: FleetMerge.Part,
                      times: (_ cell: Int, _ app: String) -> (launchUs: Microseconds, resumeUs: Microseconds)? = { _, _ in nil }) -> [Cell] {
        let names = Array(part.header.dropFirst(RunsCSV.fixedColumns.count))
        var column: [String: Int] = [:]
        for (i, name) in names.enumerated() { column[name] = i }
        let apps = Set(names.compactMap { MetricPath($0).app }).sorted()
        var rowsByCell: [Int: [RunsCSV.Row]] = [:]
        for row in part.rows { rowsByCell[row.cell, default: []].append(row) }
        return part.result.cells.compactMap { cell -> Cell? in
            guard let rows = rowsByCell[cell.index]?.sorted(by: { $0.run < $1.run }), !rows.isEmpty else { return nil }
            func value(_ row: RunsCSV.Row, _ name: String) -> Int64 {
                guard let c = column[name], c < row.values.count else { return 0 }
                return max(row.values[c] ?? 0, 0)
            }
            let days = rows.map { row in
                Day(run: row.run, seed: row.seed, apps: apps.map { app in
                    var m = MetricKitExport.AppMetrics(app: app)
                    for reason in ExitReason.allCases.map(\.rawValue) {
                        let all = value(row, "apps.\(app).exits.\(reason)")
                        let inForeground = min(value(row, "apps.\(app).foregroundExits.\(reason)"), all)
                        m.addExits(reason, foreground: true, count: Int(clamping: inForeground))
                        m.addExits(reason, foreground: false, count: Int(clamping: all - inForeground))
                    }
                    m.peakMemoryBytes = value(row, "apps.\(app).peakFootprintBytes")
                    m.suspended = SuspendedMemory(
                        sampleCount: Int(clamping: value(row, "apps.\(app).suspendedMemory.sampleCount")),
                        averageBytes: value(row, "apps.\(app).suspendedMemory.averageBytes"),
                        standardDeviationBytes: value(row, "apps.\(app).suspendedMemory.standardDeviationBytes"))
                    m.setTimes { value(row, "apps.\(app).timeInStateUs.\($0)") }
                    if let t = times(cell.index, app) {
                        m.launches = MetricKitExport.Launches(
                            timeToFirstDraw: .init(count: Int(clamping: value(row, "apps.\(app).launches.cold")),
                                                   startUs: t.launchUs, endUs: t.launchUs),
                            resumes: .init(count: Int(clamping: value(row, "apps.\(app).resumeLatencyUs.count")),
                                           startUs: t.resumeUs, endUs: value(row, "apps.\(app).resumeLatencyUs.max")))
                    }
                    return m
                })
            }
            // Every app's times in its states add up to the run's duration.
            let duration = apps.first.map { app in
                AppState.allCases.reduce(Int64(0)) { $0 &+ value(rows[0], "apps.\(app).timeInStateUs.\($1.rawValue)") }
            } ?? 0
            return Cell(index: cell.index, label: cell.label, days: days, durationUs: duration)
        }
    }

    /// One file per cell with runs, `cell-<index>.json`: the payloads of its runs, one per app and run.
    public static func files(_ path: String) throws -> [OutputFile] {
        let part = try part(path)
        let header = part.result
        // Each cell's workload, loaded once: its device and its apps' launch and resume times.
        var loaded: [Int: Workload] = [:]
        for cell in header.cells { loaded[cell.index] = workload(header.sweep.workload, overrides: cell.overrides) }
        let cells = cells(of: part) { index, app in
            loaded[index]?.apps.first { $0.id == app }.map { ($0.launchTimeUs, $0.resumeTimeUs) }
        }
        return cells.map { cell in
            let overrides = header.cells.first { $0.index == cell.index }?.overrides ?? []
            let identity = identity(loaded[cell.index], overrides: overrides)
            let days = cell.days.map { day in
                (day.apps, MetricKitExport.Context(durationUs: cell.durationUs,
                                                   build: "\(header.sweep.workload) \(cell.label) seed \(day.seed)", identity: identity))
            }
            return OutputFile(name: "cell-\(cell.index).json", data: Data(MetricKitExport.json(days: days).utf8))
        }
    }

    /// The sweep's workload loaded with a cell's overrides; nil when it cannot be loaded here.
    static func workload(_ workload: String, overrides: [FleetResult.Override]) -> Workload? {
        let changes = overrides.map { WorkloadOverride(keyPath: $0.keyPath, value: $0.value, origin: .init(file: "fleet.json")) }
        return (try? WorkloadSource.thisBuild.load(workload, overrides: changes))?.workload
    }

    /// The device a cell ran on, as reports name it: the cell's workload's (`loaded`);
    /// `memprof-custom` when the workload cannot be loaded here (a file moved away).
    static func identity(_ loaded: Workload?, overrides: [FleetResult.Override]) -> FieldIdentity {
        if let loaded { return FieldIdentity.of(loaded.device) }
        if let name = overrides.last(where: { $0.keyPath == "device" })?.value, let device = Device.preset(named: name) {
            return FieldIdentity.of(device)
        }
        return FieldIdentity(product: "memprof-custom", osVersion: "iPhone OS 16.0")
    }
}
