import MemprofCore
import Testing
@testable import MemprofInput

@Suite struct QuantityTests {
    @Test(arguments: [
        ("250ms", Int64(250_000)), ("30s", 30_000_000), ("2m", 120_000_000), ("1h", 3_600_000_000),
        ("1m30s", 90_000_000), ("500us", 500), ("1.2s", 1_200_000), ("0s", 0),
    ])
    func durations(text: String, expected: Int64) throws {
        #expect(try Quantity.duration(text).get() == expected)
    }

    @Test(arguments: ["30", "1.5", "5 parsecs", "1x", "s", ""])
    func badDurations(text: String) {
        #expect(throws: QuantityError.self) { try Quantity.duration(text).get() }
    }

    @Test func bareNumberSaysWhatIsMissing() {
        guard case .failure(let e) = Quantity.duration("30") else { Issue.record("accepted a bare number"); return }
        #expect(e.message.contains("has no unit"))
    }

    @Test(arguments: [
        ("45MB", Int64(45 * 1_048_576)), ("1.5GB", 1_610_612_736), ("512KiB", 524_288), ("100B", 100),
        ("16MiB", 16_777_216), ("1GiB", 1_073_741_824),
    ])
    func sizes(text: String, expected: Int64) throws {
        #expect(try Quantity.size(text).get() == expected)
    }

    @Test(arguments: ["-5MB", "12", "3 furlongs", "MB"])
    func badSizes(text: String) {
        #expect(throws: QuantityError.self) { try Quantity.size(text).get() }
    }

    @Test func rates() throws {
        // 2 MB per minute: 2 × 1,048,576 bytes every 60,000,000 µs.
        #expect(try Quantity.rate("2MB/min").get() == Rate(bytes: 2_097_152, perUs: 60_000_000))
        #expect(try Quantity.rate("512KB/s").get() == Rate(bytes: 524_288, perUs: 1_000_000))
        #expect(try Quantity.rate("40MB/h").get() == Rate(bytes: 41_943_040, perUs: 3_600_000_000))
        #expect(throws: QuantityError.self) { try Quantity.rate("2MB").get() }
        #expect(throws: QuantityError.self) { try Quantity.rate("2MB/fortnight").get() }
    }
}
