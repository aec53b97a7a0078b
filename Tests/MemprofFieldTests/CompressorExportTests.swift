import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import Testing

/// Exported jetsam reports of runs under `xnu` on a phone carry the in-RAM compressor's figures
/// in the ranges the corpus's published reports show.
@Suite struct CompressorExportTests {
    /// The corpus's six reports (`compressorSize`, `uncompressed`, `compressions`,
    /// `decompressions`): ratios 62,277 ÷ 18,296 = 3.40, 199,950 ÷ 70,976 = 2.82, 103,016 ÷
    /// 37,529 = 2.74, 257,255 ÷ 96,635 = 2.66, 105,360 ÷ 39,010 = 2.70, 111,200 ÷ 28,754 = 3.87;
    /// decompressions 33% (260,779 of 782,837) to 84% (2,533,158 of 3,009,015) of compressions.
    ///
    /// The counts are the run's totals. phone-day-2026 decompresses 88% of what it compresses
    /// (16 hours of resumes, one kill, and a freezer whose budget is spent by 4h51m, so few pages
    /// leave the pool without being decompressed): above the corpus's highest share, which is
    /// stated here rather than hidden; its decompressions stay below its compressions.
    @Test(arguments: [("phone-day-xnu", true), ("phone-day-2026", false)])
    func exportedCompressorFiguresAreInThePublishedRanges(workload: String, shareInRange: Bool) throws {
        let report = try ReportFixture.builtin(workload)
        let compressor = try #require(report.summary.compressor)
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty)
        for file in files {
            let status = file.report.memoryStatus
            let size = try #require(status.compressorSize), uncompressed = try #require(status.uncompressed)
            // Every app of these days compresses at the default ratio, 2.662: the pool holds its
            // pages at that ratio, less rounding each app's share up to a whole page (at most
            // one page in several hundred here).
            #expect(size > 0 && size < uncompressed)
            let ratio = Double(uncompressed) / Double(size)
            #expect(ratio >= 2.65 && ratio <= 3.87, "\(file.name): ratio \(ratio)")
            #expect(status.compressions == compressor.compressions && status.decompressions == compressor.decompressions)
            let c = try #require(status.compressions), d = try #require(status.decompressions)
            #expect(d > 0 && d < c)
            let share = Double(d) / Double(c)
            #expect((share >= 0.33 && share <= 0.84) == shareInRange, "\(file.name): \(d) of \(c)")
            // Read back as published reports are read.
            let parsed = try JetsamReportReader(file: file.name).read(file.text)
            #expect(parsed.memoryStatus.compressions == c && parsed.memoryStatus.decompressions == d)
            #expect(parsed.memoryStatus.compressorSize == size && parsed.memoryStatus.uncompressed == uncompressed)
        }
    }

    /// Under `seed-2015` there is no in-RAM compressor: the compressor's pages are the flash
    /// store's, the same both ways, and no counts are written.
    @Test func seed2015ExportsTheFlashStore() throws {
        let report = try ReportFixture.builtin("phone-day")
        #expect(report.summary.compressor == nil)
        for file in JetsamExport.reports(report) {
            #expect(file.report.memoryStatus.compressorSize == file.report.memoryStatus.uncompressed)
            #expect(file.report.memoryStatus.compressions == nil)
        }
    }
}
