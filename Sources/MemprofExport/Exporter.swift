import Foundation
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofReportReader
import MemprofTrace
import MemprofField

/// The export formats; those built on stack samples need a report with a `profile`.
public enum ExportFormat: String, CaseIterable, Sendable {
    case trace, speedscope, folded, pprof
    /// The report's metrics for github-action-benchmark (`customSmallerIsBetter`).
    case benchmark
    /// One JetsamEvent `.ips` file per moment of memory kills, into a folder.
    case jetsam
    /// `MXMetricPayload`-shaped JSON, one payload per app.
    case metrickit

    /// Whether the format is made of stack samples.
    public var needsSamples: Bool { [.speedscope, .folded, .pprof].contains(self) }

    /// Whether the format is a folder of files rather than one file.
    public var isFolder: Bool { self == .jetsam }

    /// Whether the format is binary (not for a terminal).
    public var isBinary: Bool { self == .pprof }
}

/// A report that holds nothing for the format asked: exit status 2 on the command line.
public enum ExportError: MemprofError, Equatable {
    public var exitStatus: Int32 { ExitStatus.badInput }

    case noStackSamples(format: String)

    public var description: String {
        switch self {
        case .noStackSamples(let format):
            "this report has no stack samples, so there is nothing to export as \(format) "
                + "(stack samples are recorded when background work runs with the sampler)"
        }
    }
}

public enum Exporter {
    /// The bytes of `report` in `format`.
    ///
    /// trace is `TraceJSON`, the same writer as the trace.json of `memprof run`;
    /// speedscope, folded and pprof (a gzipped `profile.proto`, labelled by app, handler and
    /// kernel) come from the report's `profile`; a report without stack samples throws
    /// `noStackSamples`.
    public static func export(_ report: Report, format: ExportFormat) throws -> Data {
        switch format {
        case .trace: return try TraceJSON.encode(report)
        case .benchmark: return try BenchmarkJSON.encode(report)
        case .metrickit: return Data(MetricKitExport.json(report).utf8)
        case .jetsam:
            throw BadInput("jetsam writes one .ips file per moment of memory kills: name a folder with -o DIR")
        case .folded: return Data(try sampledProfile(report, format).makeFoldedStacks().utf8)
        case .speedscope: return try sampledProfile(report, format).makeSpeedscopeJSON(name: "memprof \(report.run.workload)")
        case .pprof: return try Gzip.compress(try sampledProfile(report, format).makePProfProto())
        }
    }

    /// The report's profile, for the formats made of samples; a report without any throws.
    static func sampledProfile(_ report: Report, _ format: ExportFormat) throws -> SamplingProfile {
        guard let profile = report.profile, profile.hasSamples || profile.hasAllocations else {
            throw ExportError.noStackSamples(format: format.rawValue)
        }
        return profile
    }

    /// The files of a folder format (`jetsam`): one `.ips` file per moment of memory kills.
    public static func exportFiles(_ report: Report, format: ExportFormat) -> [OutputFile] {
        guard format == .jetsam else { return [] }
        return JetsamExport.reports(report).map { OutputFile(name: $0.name, data: Data($0.text.utf8)) }
    }
}
