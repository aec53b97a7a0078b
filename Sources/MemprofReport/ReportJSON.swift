import MemprofOutput
import Foundation

/// The JSON form of a report: sorted keys, and a reader that checks the schema before anything else.
public enum ReportJSON {
    /// The report as JSON with sorted keys and a final newline.
    ///
    /// The large sections (events, timeline, jetsam snapshots) are written by hand for speed;
    /// the rest goes through `JSONEncoder`. The result equals `referenceEncode(_:)` byte for byte.
    public static func encode(_ report: Report) throws -> Data {
        let encoder = makeEncoder()
        var out = JSONWriter(capacity: 256 * report.events.count + 4096)
        func section(_ value: some Encodable) throws {
            out.raw(try encoder.encode(value))
        }
        out.raw("{\"apps\":")
        try section(report.apps)
        out.raw(",\"device\":")
        try section(report.device)
        out.raw(",\"events\":")
        out.array(report.events) { b, e in b.write(e) }
        out.raw(",\"host\":")
        try section(report.host)
        out.raw(",\"jetsamEvents\":")
        out.array(report.jetsamEvents) { b, j in b.write(j) }
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
        out.write(report.timeline)
        out.raw(",\"tool\":")
        try section(report.tool)
        out.raw("}\n")
        return Data(out.bytes)
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

    /// Decodes a report, refusing files that are not reports or are of a schema this version does
    /// not know (`ReportReader`, keeping everything).
    public static func decode(_ data: Data) throws -> Report {
        do {
            return try data.withUnsafeBytes { try ReportReader.read($0) }
        } catch let failure as ReportReadFailure {
            throw failure.error
        }
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

/// A decoding error in words, with the key path where it happened: "summary: missing key 'evictions'".
func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
    func place(_ keys: [any CodingKey]) -> String { keys.isEmpty ? "the top" : path(keys) }
    switch error {
    case .keyNotFound(let key, let context):
        return "\(place(context.codingPath)): missing key '\(key.stringValue)'"
    case .typeMismatch(let type, let context):
        return "\(place(context.codingPath)): expected \(words(type)), found something else"
    case .valueNotFound(let type, let context):
        return "\(place(context.codingPath)): expected \(words(type)), found null"
    case .dataCorrupted(let context):
        return "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

private func words(_ type: Any.Type) -> String {
    switch type {
    case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: "a whole number"
    case is Double.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
    }
}
