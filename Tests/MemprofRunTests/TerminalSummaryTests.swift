import MemprofCore
import MemprofRun
import MemprofTestSupport
import Testing

/// What `memprof run` prints when the run ends.
@Suite struct TerminalSummaryTests {
    /// The freezer's line gives every figure of report.json's `summary.freezer`: freezes, bytes
    /// written of the day's budget, what is left, when it ran out, and each skip reason counted.
    @Test func theFreezersLineGivesEveryFigure() throws {
        let (report, apps) = try ReportFixture.builtinWithApps("phone-day-2026")
        let f = try #require(report.summary.freezer)
        let line = try #require(TerminalSummary.render(report.head, orderedApps: apps).split(separator: "\n")
            .first { $0.hasPrefix("freezer    ") })
        let spent = try #require(f.firstExhaustedAtUs)
        let written = "freezer    \(Format.count(f.freezes, "freeze")), \(Format.bytes(f.bytesWritten)) written of "
            + "\(Format.bytes(f.dailyBudgetBytes)) a day, \(Format.bytes(f.budgetRemainingBytes)) left; budget spent at "
            + "\(Format.duration(spent)); "
        let skipped: String = "skipped \(f.skips.outOfBudget) out of budget, \(f.skips.outOfSlots) out of slots, "
            + "\(f.skips.belowMinPages) below the minimum, \(f.skips.noSwapSpace) for want of swap space, "
            + "\(f.skips.noCompressorSpace) for want of compressor space"
        #expect(line == written + skipped)
        #expect(f.skips.noSwapSpace == 0 && f.skips.noCompressorSpace == 0 && f.skips.outOfBudget == 76,
                "phone-day-2026's skips, as its baseline has them")
        // A seed-2015 run has no freezer budget, and no such line.
        let (seed, seedApps) = try ReportFixture.builtinWithApps("phone-day")
        #expect(!TerminalSummary.render(seed.head, orderedApps: seedApps).contains("freezer    "))
    }
}
