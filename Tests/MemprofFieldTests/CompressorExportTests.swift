import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import Testing

/// Exported jetsam reports of runs under `xnu` on a phone carry the in-RAM compressor's figures
/// at the moment of each kill; a day of today's phone exports them within the spans the published
/// reports show.
@Suite struct CompressorExportTests {
    /// What the published reports that show the compressor span (the four JSON reports of the
    /// corpus and the two hand-typed from published values; the iOS 7 LowMemory report shows
    /// zeros), read from the fixtures, not typed here.
    struct Published {
        /// `compressorSize`, `uncompressed`, `compressions` and `decompressions`, each from its
        /// lowest to its highest published value (18,296–96,635; 62,277–257,255;
        /// 782,837–43,561,228; 260,779–29,280,103 pages).
        var size, uncompressed, compressions, decompressions: ClosedRange<Int64>
        /// `uncompressed` ÷ `compressorSize`: 62,277 ÷ 18,296 = 3.40, 199,950 ÷ 70,976 = 2.82,
        /// 103,016 ÷ 37,529 = 2.74, 257,255 ÷ 96,635 = 2.66, 105,360 ÷ 39,010 = 2.70, 111,200 ÷
        /// 28,754 = 3.87.
        var ratio: ClosedRange<Double>
        /// Decompressions ÷ compressions: 33% (260,779 of 782,837) to 84% (2,533,158 of 3,009,015).
        var share: ClosedRange<Double>
    }

    static func published() throws -> Published {
        let files = Field.corpus + ["ios11-iphone8-memorytest.ips", "ios18-iphone14-excerpt.ips"]
        var sizes: [Int64] = [], uncompressed: [Int64] = [], compressions: [Int64] = [], decompressions: [Int64] = []
        var ratios: [Double] = [], shares: [Double] = []
        for file in files {
            let s = try Field.read(file).memoryStatus
            if let size = s.compressorSize, let u = s.uncompressed, size > 0 {
                sizes.append(size)
                uncompressed.append(u)
                ratios.append(Double(u) / Double(size))
            }
            if let c = s.compressions, let d = s.decompressions, c > 0 {
                compressions.append(c)
                decompressions.append(d)
                shares.append(Double(d) / Double(c))
            }
        }
        #expect(ratios.count == 6 && shares.count == 5)
        func span<T: Comparable>(_ values: [T]) -> ClosedRange<T> { values.min()!...values.max()! }
        return Published(size: span(sizes), uncompressed: span(uncompressed), compressions: span(compressions),
                         decompressions: span(decompressions), ratio: span(ratios), share: span(shares))
    }

    /// The spans, as the fixtures give them.
    @Test func thePublishedSpans() throws {
        let p = try Self.published()
        #expect(p.size == 18_296...96_635 && p.uncompressed == 62_277...257_255)
        #expect(p.compressions == 782_837...43_561_228 && p.decompressions == 260_779...29_280_103)
        #expect(abs(p.ratio.lowerBound - 257_255.0 / 96_635.0) < 1e-12)
        #expect(abs(p.ratio.upperBound - 111_200.0 / 28_754.0) < 1e-12)
        #expect(abs(p.share.lowerBound - 260_779.0 / 782_837.0) < 1e-12)
        #expect(abs(p.share.upperBound - 2_533_158.0 / 3_009_015.0) < 1e-12)
    }

    /// `phone-day-2026` runs xnu-11417 (iOS 18.5) with the rest of the phone: its kills are all in
    /// the idle band (`idle-exit`, `long-idle-exit`), which xnu takes no jetsam snapshot of, so it
    /// exports no report.
    @Test func phoneDay2026KillsOnlyInTheIdleBandAndExportsNoReport() throws {
        let report = try ReportFixture.builtin("phone-day-2026")
        #expect(report.jetsamEvents.isEmpty && JetsamExport.reports(report).isEmpty)
        let kills = report.summary.terminations.filter { $0.value > 0 }
        #expect(Set(kills.keys) == ["idleExit", "longIdleExit"])
    }

    /// Every exported report's `memoryPages` and the compressor's pages add up to at most the
    /// device's pages (compressed memory counted once), and what the model does not know is left
    /// out, in the JSON and read back.
    @Test(arguments: ["phone-day", "phone-day-xnu", "background-heavy", "ipad-afternoon"])
    func memoryPagesAddUpToTheDevice(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty)
        for file in files {
            let status = file.report.memoryStatus
            let pages = try #require(status.memoryPages)
            let devicePages = report.device.ram / status.pageSize
            #expect(pages.physical + (status.compressorSize ?? 0) <= devicePages, "\(file.name)")
            #expect(pages.wired == report.device.systemReserved / status.pageSize)
            #expect(pages.active > 0 && pages.active == pages.anonymous)
            for key in ["inactive", "speculative", "throttled", "purgeable", "fileBacked"] {
                #expect(!file.text.contains("\"\(key)\""), "\(file.name) writes \(key)")
            }
            let parsed = try JetsamReportReader(file: file.name).read(file.text)
            #expect(parsed.memoryStatus.memoryPages?.free == pages.free)
        }
    }

    /// Every exported report of the day under `xnu`: the pool and the counts are the snapshot's at the
    /// moment (its first kill's), with the published ratio, rising from moment to moment and never
    /// past the run's totals; and they read back as published reports are read. `phone-day-xnu`'s
    /// moment (45 min after boot on a 1 GB iPhone 6 Plus) also has the published share, with a pool
    /// and counts below the published spans, which come from phones in use for longer.
    @Test(arguments: ["phone-day-xnu"])
    func exportedCompressorFiguresAreTheSnapshots(workload: String) throws {
        let published = try Self.published()
        let report = try ReportFixture.builtin(workload)
        let totals = try #require(report.summary.compressor)
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty)
        var last: (c: Int64, d: Int64) = (0, 0)
        for file in files {
            let status = file.report.memoryStatus
            let first = try #require(report.jetsamEvents.first { $0.atUs == file.atUs })
            let pool = try #require(first.compressor)
            let size = try #require(status.compressorSize), uncompressed = try #require(status.uncompressed)
            let c = try #require(status.compressions), d = try #require(status.decompressions)
            #expect(size == pool.pages && uncompressed == pool.uncompressedPages)
            #expect(c == pool.compressions && d == pool.decompressions)
            // Every app of these days compresses at the default ratio, the corpus's lowest. The
            // pool's bytes are rounded up to a page (a page partly filled is taken whole), so its
            // pages may be one more than that ratio gives: held to the range to the page.
            #expect(size > 0 && size < uncompressed)
            let ratio = Double(uncompressed) / Double(size)
            let wholePages = Double(uncompressed) / Double(size - 1)
            #expect(wholePages >= published.ratio.lowerBound && ratio <= published.ratio.upperBound,
                    "\(file.name): ratio \(ratio)")
            #expect(d > 0 && d < c)
            if workload == "phone-day-xnu" {
                #expect(published.share.contains(Double(d) / Double(c)), "\(file.name): \(d) decompressions of \(c) compressions")
            }
            #expect(c >= last.c && d >= last.d && c <= totals.compressions && d <= totals.decompressions)
            last = (c, d)
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
        #expect(report.jetsamEvents.allSatisfy { $0.compressor == nil })
        for file in JetsamExport.reports(report) {
            #expect(file.report.memoryStatus.compressorSize == file.report.memoryStatus.uncompressed)
            #expect(file.report.memoryStatus.compressions == nil)
        }
    }
}
