import Foundation
import MemprofCore
import MemprofTestSupport
import Testing
@testable import MemprofReport
@testable import MemprofReportReader

/// Numbers `JSONDecoder` refuses without a place are located with their key, and a snapshot's
/// `unlisted` processes read back as written.
@Suite struct LocatedNumberTests {
    func failure(_ data: Data) -> ReportReadFailure? {
        do {
            _ = try data.withUnsafeBytes { try ReportReader.read($0, options: .everything) }
            return nil
        } catch let failure as ReportReadFailure { return failure } catch { return nil }
    }

    @Test(arguments: [("1.5", "summary.evictions: 1.5 is not a whole number"),
                      ("1e400", "summary.evictions: 1e400 is out of range (a number is at most 2^53)"),
                      ("2.5e-1", "summary.evictions: 2.5e-1 is not a whole number")])
    func aCountThatIsNoWholeNumberIsLocated(value: String, message: String) throws {
        let text = String(decoding: try ReportJSON.encode(try ReportFixture.builtin("phone-day")), as: UTF8.self)
        let range = try #require(text.range(of: "\"evictions\":", range: text.range(of: "\"summary\":")!.upperBound..<text.endIndex))
        let end = text[range.upperBound...].firstIndex { !$0.isNumber }!
        let bad = text[..<range.upperBound] + value + text[end...]
        let f = try #require(failure(Data(bad.utf8)))
        #expect("\(f.error)".contains(message), "\(f)")
        #expect(f.offset == text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound), "at the number")
    }

    /// A snapshot that leaves processes out says how many and their pages, and reads back so;
    /// one out of range is refused with its key.
    @Test func unlistedProcessesReadBack() throws {
        var report = try ReportFixture.builtin("phone-day")
        try #require(!report.jetsamEvents.isEmpty)
        report.jetsamEvents[0].unlisted = JetsamEvent.Unlisted(processes: 3, rpages: 900)
        let data = try ReportJSON.encode(report)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(",\"unlisted\":{\"processes\":3,\"rpages\":900}}"))
        let back = try data.withUnsafeBytes { try ReportReader.read($0, options: .everything) }
        #expect(back.jetsamEvents == report.jetsamEvents)
        let zero = text.replacingOccurrences(of: "\"unlisted\":{\"processes\":3", with: "\"unlisted\":{\"processes\":0")
        let f = try #require(failure(Data(zero.utf8)))
        #expect("\(f.error)".contains("jetsamEvents[0].unlisted.processes: 0 is out of range (1 to 2^31)"), "\(f)")
    }
}
