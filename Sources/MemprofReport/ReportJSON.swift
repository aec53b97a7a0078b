import MemprofOutput
import Foundation

/// The JSON form of a report: sorted keys, and a reader that checks the schema before anything else.
public enum ReportJSON {
    /// The report as JSON with sorted keys and a final newline.
    ///
    /// The large sections (events, timeline, jetsam snapshots) are written by hand for speed;
    /// the rest goes through `JSONEncoder`. The result equals `referenceEncode(_:)` byte for byte.
    public static func encode(_ report: Report) throws -> Data {
        var out = JSONWriter(capacity: 256 * report.events.count + 4096)
        try write(report, into: &out, flush: { _ in },
                  events: { out in out.array(report.events) { b, e in b.write(e) } },
                  jetsamEvents: { out in out.array(report.jetsamEvents) { b, j in b.write(j) } },
                  timeline: { out in out.write(report.timeline) })
        return Data(out.bytes)
    }

    /// Writes report.json with its three large sections written by the caller (from
    /// the streams of a run, see `ReportFileSink`), everything else from `report`, handing `out`
    /// to `flush` between sections (a streaming writer empties it into its file there).
    public static func write(_ report: Report, into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void,
                             events: (inout JSONWriter) throws -> Void,
                             jetsamEvents: (inout JSONWriter) throws -> Void,
                             timeline: (inout JSONWriter) throws -> Void) throws {
        let encoder = makeEncoder()
        func section(_ value: some Encodable) throws {
            out.raw(try encoder.encode(value))
        }
        out.raw("{\"apps\":")
        try section(report.apps)
        out.raw(",\"device\":")
        try section(report.device)
        out.raw(",\"events\":")
        try flush(&out)
        try events(&out)
        out.raw(",\"host\":")
        try section(report.host)
        out.raw(",\"jetsamEvents\":")
        try flush(&out)
        try jetsamEvents(&out)
        out.raw(",\"notifications\":")
        try section(report.notifications)
        out.raw(",\"policy\":")
        try section(report.policy)
        if let profile = report.profile {
            out.raw(",\"profile\":")
            try section(profile)
        }
        out.raw(",\"run\":")
        try section(report.run)
        out.raw(",\"schema\":")
        out.string(report.schema)
        out.raw(",\"summary\":")
        try section(report.summary)
        out.raw(",\"timeline\":")
        try flush(&out)
        try timeline(&out)
        out.raw(",\"tool\":")
        try section(report.tool)
        out.raw("}\n")
        try flush(&out)
    }

    /// The same JSON written entirely by `JSONEncoder`: the reference `encode(_:)` is held to.
    public static func referenceEncode(_ report: Report) throws -> Data {
        var data = try makeEncoder().encode(report)
        data.append(0x0A)
        return data
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

public enum ReportReadError: Error, CustomStringConvertible, Equatable {
    case notAReport(String)
    case unknownSchema(String)

    public var description: String {
        switch self {
        case .notAReport(let why): "not a memprof report (\(why))"
        case .unknownSchema(let s): "report schema '\(s)' is not one this memprof reads (it reads \(Report.schemaName))"
        }
    }
}
