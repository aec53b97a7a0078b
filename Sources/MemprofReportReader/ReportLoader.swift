import Foundation
import MemprofCore
import MemprofInput
import MemprofOutput
import MemprofReport

/// A report that cannot be read: exit status 2 on the command line.
public enum ReportFileError: MemprofError, Equatable {
    public var exitStatus: Int32 { ExitStatus.badInput }

    case missingFile(String)
    case unreadable(String, String)
    case notAReport(String, ReportReadError)

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .unreadable(let path, let why): "\(path): cannot read it (\(why))"
        case .notAReport(let path, let error): "\(path): \(error.description)"
        }
    }
}

/// Reads reports for compare, check, export and the index of runs: the file mapped into memory and read in one
/// pass by `ReportReader`, keeping what the command needs (`ReportReadOptions`); the pages
/// already read are given back as it goes, so memory does not grow with the report.
public enum ReportLoader {
    /// What compare keeps: the metrics, the decisions its page and its grouping of regressions
    /// show (compressions, evictions, kills, warnings, reclaims, without the candidates), the
    /// kills' snapshots without their process lists, and memory series reduced while reading to
    /// 5 times the chart's resolution (2,000 slices of the run; the page draws 400).
    public static let compareOptions = ReportReadOptions(
        eventKinds: SimEvent.Kind.decisionRowKinds, candidates: false, jetsamProcesses: false, seriesBuckets: 2_000)

    /// A `report.json`, or a folder holding one (as `memprof run --out` writes).
    /// With a `sink`, the events kept are handed to it one by one instead of kept in the report.
    public static func load(_ path: String, options: ReportReadOptions = .everything, sink: ReportEventSink? = nil) throws -> Report {
        try loadWithMetrics(path, options: options, sink: sink).report
    }

    /// A report and its metrics by scope (``ScopedMetrics``), made once: the range check reads
    /// them, and compare and check use them again. `names` numbers the paths; give both reports
    /// of a comparison the same table.
    public static func loadWithMetrics(_ path: String, options: ReportReadOptions = .everything, sink: ReportEventSink? = nil,
                                       names: ScopedMetrics.NameTable = ScopedMetrics.NameTable()) throws
        -> (report: Report, metrics: ScopedMetrics) {
        let url = try file(path)
        let file = try MappedFile(path: url.path, shownAs: path)
        defer { file.close() }
        return try read(file.bytes, path: path, options: options, release: file.release, sink: sink, names: names)
    }

    /// The head of a `report.json` (or of the one in a folder): its counters and sections but
    /// the events, snapshots and series, which are read past, not kept (the runs index reads this).
    public static func loadHead(_ path: String) throws -> ReportHead {
        try load(path, options: ReportReadOptions(eventKinds: [], candidates: false, jetsamProcesses: false,
                                                  seriesBuckets: 1)).head
    }

    /// Reads again the `events` list at `range` of the report at `path`, read before with a sink
    /// (`ReportEventSink.eventsRead`), handing the events of `kinds` to `sink`.
    public static func rereadEvents(_ path: String, at range: Range<Int>, kinds: Set<SimEvent.Kind>,
                                    sink: ReportEventSink) throws {
        let file = try MappedFile(path: try file(path).path, shownAs: path)
        defer { file.close() }
        do { try ReportReader.readEvents(file.bytes, at: range, kinds: kinds, sink: sink) } catch {
            throw ReportFileError.notAReport(path, error.error)
        }
    }

    /// The `report.json` that `path` names: the file, or the one in the folder.
    static func file(_ path: String) throws -> URL {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ReportFileError.missingFile(path)
        }
        if isDirectory.boolValue {
            url = url.appendingPathComponent("report.json")
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ReportFileError.missingFile(url.path)
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw ReportFileError.unreadable(url.path, "it is not a regular file")
        }
        return url
    }

    /// A report from the bytes of a `report.json` read from `path` (named in errors), with every
    /// metric range-checked.
    public static func decode(_ data: Data, path: String, options: ReportReadOptions = .everything,
                              sink: ReportEventSink? = nil) throws -> Report {
        try data.withUnsafeBytes { try read($0, path: path, options: options, release: nil, sink: sink).report }
    }

    static func read(_ bytes: UnsafeRawBufferPointer, path: String, options: ReportReadOptions,
                     release: (@Sendable (Range<Int>) -> Void)?, sink: ReportEventSink? = nil,
                     names: ScopedMetrics.NameTable = ScopedMetrics.NameTable()) throws -> (report: Report, metrics: ScopedMetrics) {
        let report: Report
        do { report = try ReportReader.read(bytes, options: options, release: release, sink: sink) } catch {
            guard let offset = error.offset else { throw ReportFileError.notAReport(path, error.error) }
            let place = JSONScanError.location(of: offset, in: bytes)
            throw ReportFileError.notAReport("\(path):\(place.line):\(place.column)", error.error)
        }
        let metrics = ScopedMetrics(report, names: names)
        try checkRanges(report, metrics: metrics, path: path)
        return (report, metrics)
    }

    /// Every metric of a report is a count, bytes or microseconds: never negative (but the room
    /// left before a limit, `headroom.….spare…`, which is below zero when a declared value cannot
    /// fit), and at most 2^53 in size, the largest whole number compare's arithmetic holds exactly.
    static func checkRanges(_ report: Report, metrics scoped: ScopedMetrics, path: String) throws {
        let signed = MetricExtractor.maySignNegative
        // Most reports are in range: look at their metrics by path only when one is not.
        func inRange(_ scope: ScopedMetrics.Scope) -> Bool {
            zip(scope.values, scope.names.signed).allSatisfy { ($0 >= 0 || $1) && abs($0) <= Quantity.maxExactNumber }
        }
        guard !inRange(scoped.summary) || scoped.apps.values.contains(where: { !inRange($0) }) else { return }
        let metrics = MetricExtractor.metrics(of: report)
        for (metric, value) in metrics.sorted(by: { $0.key < $1.key }) {
            if value < 0 && !signed(metric) {
                throw ReportFileError.notAReport(path, .notAReport("\(metric) is \(MetricKind.count.format(value)); counts, sizes and times are 0 or more"))
            }
            if abs(value) > Quantity.maxExactNumber {
                throw ReportFileError.notAReport(path, .notAReport(
                    "\(metric) is \(MetricKind.count.format(value)), too large; the largest value accepted is 9007199254740992 (2^53)"))
            }
        }
    }
}
