import Foundation
import MemprofCalibrate
import Testing

/// calibration.json as `memprof whatif --calibration` reads it (Fixtures/calibration.json: a
/// calibration of scripts/examples/calibration-day.yaml written by memprof calibrate): every
/// refusal placed at its line, column and key.
struct CalibrationReadTests {
    static func fixture() throws -> String {
        let url = try #require(Bundle.module.url(forResource: "calibration", withExtension: "json", subdirectory: "Fixtures"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The refusal of `text` with `old` replaced by `new`, and the line `old` was on.
    func refusal(_ text: String, _ old: String, _ new: String) throws -> (message: String, line: Int) {
        let range = try #require(text.range(of: old), "\(old)")
        let line = text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
        do {
            _ = try Calibration.decode(Data(text.replacingCharacters(in: range, with: new).utf8), file: "c.json")
            return ("read", line)
        } catch {
            return (error.description, line)
        }
    }

    @Test func theFixtureReadsAndWritesBackTheSame() throws {
        let text = try Self.fixture()
        let c = try Calibration.decode(Data(text.utf8), file: "c.json")
        #expect(c.parameters.map(\.key) == ["device.systemReserved"] && c.parameters[0].fittedText.hasSuffix("B"))
        #expect(String(decoding: try c.encoded(), as: UTF8.self) == text)
        #expect(c.whatIfParameters.parameters.count == 1)
    }

    @Test func aBrokenFileIsPlacedAtItsLineColumnAndKey() throws {
        let text = try Self.fixture()
        var r = try refusal(text, #""fittedText" : "#, #""fittedText" : 7, "x" : "#)
        #expect(r.message.hasPrefix("c.json:\(r.line):") && r.message.contains(": parameters[0].fittedText: expected a string"), "\(r.message)")
        r = try refusal(text, #""schema" : "memprof.calibration/1""#, #""schema" : "memprof.calibration/9""#)
        #expect(r.message == "c.json:\(r.line):14: schema: 'memprof.calibration/9' is not memprof.calibration/1", "\(r.message)")
        r = try refusal(text, #""kind" : "size""#, #""kind" : "colour""#)
        #expect(r.message == "c.json:\(r.line):16: parameters[0].kind: 'colour' is not size, duration or number", "\(r.message)")
        r = try refusal(text, #""outcome" : ""#, #""outcome" : "maybe", "x" : ""#)
        #expect(r.message.hasPrefix("c.json:\(r.line):15: outcome: "), "\(r.message)")
        r = try refusal(text, #""schema" : "#, #""schema" : }"#)
        #expect(r.message.hasPrefix("c.json:\(r.line):14: "), "\(r.message)")
        // A missing key: the object that lacks it.
        r = try refusal(text, #""fittedText" : "#, #""fitted_text" : "#)
        #expect(r.message.contains(": parameters[0].fittedText: missing key 'fittedText'"), "\(r.message)")
        // Numbers read are range-checked: an interval out of order, a value beyond 10^18.
        r = try refusal(text, #""high" : 2097152000"#, #""high" : 1e300"#)
        #expect(r.message.contains(": parameters[0].high: ") && r.message.contains("out of range"), "\(r.message)")
    }
}
