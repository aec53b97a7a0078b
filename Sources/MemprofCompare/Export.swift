import Foundation
import MemprofProfile
import MemprofReport
import MemprofTrace

/// The export formats; those built on stack samples need a report with a `profile`.
public enum ExportFormat: String, CaseIterable, Sendable {
    case trace, speedscope, folded, pprof

    /// Whether the format is made of stack samples.
    public var needsSamples: Bool { self != .trace }
}

public enum Exporter {
    /// The bytes of `report` in `format`.
    ///
    /// trace is `TraceJSON`, the same writer as the trace.json of `memprof run`;
    /// speedscope and folded come from the report's `profile` (MemprofProfile's writers); a report
    /// without stack samples throws `noStackSamples`. pprof is not written yet: it needs a gzipped
    /// `profile.proto` writer (sample types `samples/count` and `cpu/nanoseconds`, a location and
    /// function per frame, labels `app` and `handler` on every sample), checked with
    /// `go tool pprof -top` in a script; until then it throws `notYetSupported` for reports with
    /// samples.
    public static func export(_ report: Report, format: ExportFormat) throws -> Data {
        if format == .trace { return try TraceJSON.encode(report) }
        guard let profile = report.profile, profile.hasSamples else {
            throw CompareInputError.noStackSamples(format: format.rawValue)
        }
        switch format {
        case .folded: return Data(profile.makeFoldedStacks().utf8)
        case .speedscope: return try profile.makeSpeedscopeJSON(name: "memprof \(report.run.workload)")
        case .pprof, .trace: throw CompareInputError.notYetSupported("pprof export is not written yet; use speedscope or folded")
        }
    }
}
