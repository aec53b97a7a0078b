import MemprofCore
import MemprofInput
import Testing
@testable import MemprofWorkload

/// A workload's name fits the folders named after it, and its page size is one a jetsam report
/// carries: what validates also writes, exports and imports.
@Suite struct NameAndPageSizeTests {
    @Test func aNameFitsItsFolders() throws {
        let longest = String(repeating: "a", count: Workload.maxNameLength)
        #expect(try parse(minimal.replacingOccurrences(of: "name: commute", with: "name: \(longest)")).name == longest)
        let e = error(of: minimal.replacingOccurrences(of: "name: commute", with: "name: \(longest)b"))
        #expect(e?.keyPath == "name" && e?.line == 2)
        #expect(e?.message.hasPrefix("the name is 201 characters long; a workload's name is at most 200") == true, "\(String(describing: e))")
    }

    @Test(arguments: ["3KB", "2MB", "1GB", "256B", "0B", "12KB"])
    func pageSizesNoReportCarriesAreRefused(size: String) {
        let text = minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: {preset: iphone-6-plus, pageSize: \(size)}")
        let e = error(of: text)
        #expect(e?.keyPath == "device.pageSize", "\(String(describing: e))")
        #expect(e?.message.contains("is not a power of two from 512B to 1MB") == true)
    }

    @Test(arguments: [("512B", Int64(512)), ("4KB", 4096), ("16KB", 16_384), ("64KB", 65_536), ("1MB", 1 << 20)])
    func pageSizesReportsCarryAreKept(size: String, bytes: Int64) throws {
        let text = minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: {preset: iphone-6-plus, pageSize: \(size)}")
        #expect(try parse(text).device.pageSize == bytes)
    }
}
