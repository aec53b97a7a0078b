import Foundation

/// The JSON form of a report: sorted keys, and a reader that checks the schema before anything else.
public enum ReportJSON {
    public static func encode(_ report: Report) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(report)
        data.append(0x0A)
        return data
    }

    /// Decodes a report, refusing files that are not reports or are of a schema this version does not know.
    public static func decode(_ data: Data) throws -> Report {
        struct Header: Decodable { var schema: String? }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw ReportReadError.notAReport("not a JSON object")
        }
        guard let schema = header.schema else { throw ReportReadError.notAReport("no 'schema' key") }
        guard schema == Report.schemaName else { throw ReportReadError.unknownSchema(schema) }
        do {
            return try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw ReportReadError.notAReport("does not match \(Report.schemaName): \(error)")
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
