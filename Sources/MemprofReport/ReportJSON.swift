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
        for part in try parts(of: report.head) {
            switch part {
            case .text(let text): out.raw(text)
            case .events: out.array(report.events) { b, e in b.write(e) }
            case .jetsamEvents: out.array(report.jetsamEvents) { b, j in b.write(j) }
            case .timeline: out.write(report.timeline)
            }
        }
        return Data(out.bytes)
    }

    /// A stretch of report.json: text made from the report's head, or the place of one of the
    /// three large sections, which its writer fills (from the report held whole, ``ReportJSON/encode(_:)``,
    /// or from the streams of a run written as it goes, `ReportFileSink`).
    public enum Part: Equatable {
        case text([UInt8])
        case events
        case jetsamEvents
        case timeline
    }

    /// report.json of a report whose head is `head`, in file order: its members in sorted-key
    /// order, the three large sections as places between the texts, the last text ending the
    /// file with a newline.
    public static func parts(of head: ReportHead) throws -> [Part] {
        let encoder = makeEncoder()
        var parts: [Part] = []
        var out = JSONWriter(capacity: 4096)
        func section(_ value: some Encodable) throws {
            out.raw(try encoder.encode(value))
        }
        func place(_ part: Part) {
            parts.append(.text(out.bytes))
            out.removeAll()
            parts.append(part)
        }
        out.raw("{\"apps\":")
        try section(head.apps)
        out.raw(",\"device\":")
        try section(head.device)
        out.raw(",\"events\":")
        place(.events)
        out.raw(",\"host\":")
        try section(head.host)
        out.raw(",\"jetsamEvents\":")
        place(.jetsamEvents)
        out.raw(",\"notifications\":")
        try section(head.notifications)
        out.raw(",\"policy\":")
        try section(head.policy)
        if let profile = head.profile {
            out.raw(",\"profile\":")
            try section(profile)
        }
        out.raw(",\"run\":")
        try section(head.run)
        out.raw(",\"schema\":")
        out.string(head.schema)
        out.raw(",\"summary\":")
        try section(head.summary)
        out.raw(",\"timeline\":")
        place(.timeline)
        out.raw(",\"tool\":")
        try section(head.tool)
        out.raw("}\n")
        parts.append(.text(out.bytes))
        return parts
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
