import Foundation
import MemprofCore
import MemprofOutput
import MemprofTestSupport
import Testing
@testable import MemprofReport
@testable import MemprofReportReader

/// The plain decoder of a report's small sections gives what `JSONDecoder` gives, or gives up
/// (and the reader then uses `JSONDecoder`): it never gives another value.
@Suite struct PlainDecoderTests {
    func plain<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        Array(text.utf8).withUnsafeBufferPointer { PlainJSONDecoder.decode(T.self, from: $0) }
    }

    func foundation<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test(arguments: ["background-heavy", "observer-leaks", "phone-day"])
    func decodesReportsAsJSONDecoderDoes(name: String) throws {
        var report = try ReportFixture.builtin(name)
        report.host.simulationWallMs = 1234.5
        let data = try ReportJSON.encode(report)
        let decoded = try #require(data.withUnsafeBytes { PlainJSONDecoder.decode(Report.self, from: $0.bindMemory(to: UInt8.self)) })
        #expect(try ReportJSON.encode(decoded) == ReportJSON.encode(JSONDecoder().decode(Report.self, from: data)))
        // And the reader, which decodes the small sections with it, reads the same report.
        let read = try data.withUnsafeBytes { try ReportReader.read($0) }
        #expect(try ReportJSON.encode(read) == data)
    }

    struct Sample: Codable, Equatable {
        var int: Int
        var int64: Int64?
        var seed: UInt64?
        var small: UInt8?
        var double: Double?
        var text: String?
        var flag: Bool?
        var counts: [String: Int]?
        var list: [[Int64]]?
        var state: AppState?
    }

    /// Values of every kind, written plainly and not: where the plain decoder gives a value, it is
    /// `JSONDecoder`'s.
    @Test func givesJSONDecodersValueOrGivesUp() {
        let values = ["0", "-0", "1", "-1", "255", "256", "1.0", "1.5", "1e2", "-1e400", "1e-400", "0.1", "-2.50",
                      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                      "18446744073709551615", "18446744073709551616", "123456789012345678901234567890.5",
                      #""x""#, #""a\"b\\c\/d\n\u00e9\ud83d\ude00""#, #""caf\u0065\u0301""#, "\"\u{00e9}\"", "true", "false", "null",
                      "[]", "[[1,2],[3,4]]", "[[1,2.0]]", "[null]", "{}", #"{"a":1,"b":2}"#, #"{"a":null}"#, #"{"\u0061":1}"#,
                      #""suspended""#, #""nope""#]
        let keys = ["int", "int64", "seed", "small", "double", "text", "flag", "counts", "list", "state"]
        var decoded = 0
        for key in keys {
            for value in values {
                let text = key == "int" ? #"{"int": \#(value)}"# : #"{"int":7 , "\#(key)" : \#(value) }"#
                guard let got = plain(Sample.self, text) else { continue }
                decoded += 1
                #expect(got == foundation(Sample.self, text), "\(text)")
            }
        }
        #expect(decoded > 20)
        // What it gives up on: other number forms, escaped or non-ASCII keys, errors.
        for text in [#"{"int":1.0}"#, #"{"int":1e2}"#, #"{"int":-0}"#, #"{"int":99999999999999999999}"#,
                     #"{"\u0069nt":1}"#, #"{"int":1,"\u212A":2}"#, #"{"int":null}"#, #"{}"#, #"{"int":"1"}"#,
                     #"{"int":1,"double":1e2}"#, #"{"int":1,"state":"nope"}"#, "[]"] {
            #expect(plain(Sample.self, text) == nil, "\(text)")
        }
    }
}
