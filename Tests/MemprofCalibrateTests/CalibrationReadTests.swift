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

    /// Fixtures/calibration-per-cell.json: calibration-day.yaml calibrated on a field of two
    /// devices whose suspended footprints differ, with a third device the field has no day of.
    /// Each cell's measured values read back; a calibration.json without them (the fixture
    /// above) reads too.
    @Test func perCellMeasuredValuesReadAndWriteBackTheSame() throws {
        let url = try #require(Bundle.module.url(forResource: "calibration-per-cell", withExtension: "json", subdirectory: "Fixtures"))
        let text = try String(contentsOf: url, encoding: .utf8)
        let c = try Calibration.decode(Data(text.utf8), file: "c.json")
        #expect(String(decoding: try c.encoded(), as: UTF8.self) == text)
        let suspended = c.cells.map { $0.measured?.first { $0.key == "apps.team.averageSuspendedMemory" }?.value }
        #expect(suspended == ["157286000B", "241172000B", "199229000B"])
        #expect(c.cells[2].role == .noField && c.measured.last?.value == "199229000B")
        #expect(c.text.contains("  device.preset=iphone-13-pro (no field: pooled)     0           400 MB                  190 MB\n"), "\(c.text)")
        #expect(try Calibration.decode(Data(Self.fixture().utf8), file: "c.json").cells.allSatisfy { $0.measured == nil })
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
        // The seeds' ratio the summary prints as a percentage: a huge one is refused, not printed
        // (before, 1e300 read and then stopped memprof converting it for the summary).
        r = try refusal(text, #""ratio" : "#, #""ratio" : 1e300, "x" : "#)
        #expect(r.message.contains(": seeds.ratio: ") && r.message.contains("out of range"), "\(r.message)")
        // An interval's ends, which a what-if re-runs at: within 10^18 too (before, 1e19 read
        // and stopped memprof writing the re-run's value).
        r = try refusal(text, #""high" : 1881938872.8706086"#, #""high" : 1e19"#)
        #expect(r.message.contains(": parameters[0].interval.high: ") && r.message.contains("out of range"), "\(r.message)")
    }

    /// Every seeds ratio the reader accepts (0 to 1e6) is printed in the summary as a percentage;
    /// beyond it the file is refused (the fuzz target once stopped memprof with a ratio of about
    /// 1e17, which read and then could not be printed).
    @Test func theSummaryOfAnyFileThatReadsIsPrinted() throws {
        let text = try Self.fixture()
        for ratio in ["0", "0.33", "999999"] {
            let changed = text.replacing(#/"ratio" : [0-9.e+-]+/#, with: "\"ratio\" : \(ratio)")
            let c = try Calibration.decode(Data(changed.utf8), file: "c.json")
            #expect(c.text.contains("simulated intervals at most"), "\(ratio)")
        }
    }

    /// The summary and the page print a figure alike (`FieldSummary.number`): a half away from
    /// zero, a whole number without decimals (before, the summary printed 5062.5 as 5062 and 0 as
    /// 0.00 where the page printed 5063 and 0).
    @Test func theSummaryAndThePagePrintAFigureAlike() throws {
        let text = try Self.fixture()
            .replacingOccurrences(of: #""perDay" : 5.166666666666667"#, with: #""perDay" : 5.0625"#)
            .replacingOccurrences(of: #""low" : 4.416666666666667"#, with: #""low" : 0"#)
        let c = try Calibration.decode(Data(text.utf8), file: "c.json")
        #expect(c.text.contains(" 5063  0 – 5917 "), "\(c.text)")
        #expect(CalibrationHTML.page(c).contains("5063 (0 – 5917)"))
    }
}
