import MemprofHTML
import MemprofProfile
import MemprofReport
import MemprofTestSupport
import Testing

/// report.html draws allocation flame graphs beside the CPU one for handlers that ran a program
/// (spec §8.1): bytes allocated and bytes in use at the peak, boxes named with file:line.
@Suite struct AllocationFlameGraphTests {
    @Test func aProgramsAllocationsGetTwoFlameGraphs() throws {
        var report = try ReportFixture.builtin("ipad-afternoon")
        let main = Frame(name: "main", module: "sync", file: "/src/main.c", line: 10)
        let hold = Frame(name: "hold", module: "sync", file: "/src/main.c", line: 20)
        var input = SamplingProfile.HandlerInput(app: "mail", handler: "fetch", kernel: "sync", stacks: [])
        input.allocations = .init(
            totals: AllocationProfile(allocatedBytes: 4096, allocations: 2, peakBytes: 4096, leakedBytes: 0,
                                      leakedBlocks: 0, stacks: []),
            stacks: [([main, hold], AllocationStack(frames: [], allocatedBytes: 4096, allocations: 2, peakBytes: 4096,
                                                   leakedBytes: 0, leakedBlocks: 0))])
        report.profile = SamplingProfile(sampler: .off, handlers: [input])
        let html = HTMLReport.render(report)
        #expect(html.contains("id=\"flame-0-allocatedBytes\"") && html.contains("id=\"flame-0-peakBytes\""))
        #expect(!html.contains("id=\"flame-0\""))  // no CPU samples, no CPU graph
        #expect(html.contains("hold main.c:20"))
        #expect(html.contains("bytes in use at the peak: 4 KB"))
    }
}
