import MemprofReportReader
import MemprofCompare
import MemprofProfile
import MemprofReport
import Testing

/// `memprof compare` flags a rise of a handler's measured peak or leaked bytes (spec §8.1).
@Suite struct ProgramMemoryCompareTests {
    func report(peak: Int64, leaked: Int64, program: Bool = true) -> Report {
        makeReport { report in
            var handler = HandlerProfile(
                app: "mail", handler: "fetch", kernel: "sync", runs: 1, sizeBytes: 0, wallMicroseconds: 1000,
                cpuMicroseconds: 900, droppedSamples: 0, stacks: [])
            handler.allocations = AllocationProfile(
                allocatedBytes: peak * 2, allocations: 10, peakBytes: peak, leakedBytes: leaked, leakedBlocks: 1,
                stacks: [])
            if program {
                handler.program = ProgramSummary(
                    command: ["sync"], exitStatus: 0, signal: nil, failedRuns: 0, crashedRuns: 0, timedOutRuns: 0,
                    stderrTail: "", lostEvents: 0, recorderStarted: true)
            }
            report.profile = SamplingProfile(sampler: .off, handlers: []).with(handler)
        }
    }

    @Test func aHigherPeakOrLeakIsARegression() throws {
        let base = report(peak: 40 << 20, leaked: 5 << 20)
        #expect(MetricExtractor.metrics(of: base)["apps.mail.handlers.fetch.peakBytes"] == Double(40 << 20))

        let heavier = try Comparer.compare(base: base, new: report(peak: 60 << 20, leaked: 5 << 20))
        #expect(row(heavier, "apps.mail.handlers.fetch.peakBytes")?.verdict == .worse)
        #expect(row(heavier, "apps.mail.handlers.fetch.leakedBytes")?.verdict == .same)

        let leakier = try Comparer.compare(base: base, new: report(peak: 40 << 20, leaked: 9 << 20))
        #expect(row(leakier, "apps.mail.handlers.fetch.leakedBytes")?.verdict == .worse)

        let lighter = try Comparer.compare(base: base, new: report(peak: 20 << 20, leaked: 0))
        #expect(row(lighter, "apps.mail.handlers.fetch.peakBytes")?.verdict == .better)
    }

    /// A kernel's allocations (tracked in-process) vary a little from run to run: not metrics.
    @Test func aKernelsAllocationsAreNotMetrics() {
        let kernel = report(peak: 40 << 20, leaked: 5 << 20, program: false)
        #expect(MetricExtractor.metrics(of: kernel).keys.allSatisfy { !$0.contains(".handlers.") })
    }
}

extension SamplingProfile {
    fileprivate func with(_ handler: HandlerProfile) -> SamplingProfile {
        var profile = self
        profile.handlers = [handler]
        return profile
    }
}
