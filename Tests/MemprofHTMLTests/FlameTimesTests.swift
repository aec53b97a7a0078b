import MemprofHTML
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofTestSupport
import Testing

/// report.html carries each CPU stack's sample times so a selected range recomputes the flame
/// graph from its samples; the page's share of them is bounded.
@Suite struct FlameTimesTests {
    static let frames = [Frame(name: "main", module: "m"), Frame(name: "work", module: "m")]

    static func page(_ times: [Int64: Int], count: Int) throws -> String {
        var report = try ReportFixture.builtin("ipad-afternoon")
        var input = SamplingProfile.HandlerInput(app: "mail", handler: "fetch", kernel: "json",
                                                 stacks: [(frames: Self.frames, count: count)])
        input.sampleTimes = [Self.frames: times]
        report.profile = SamplingProfile(sampler: .off, handlers: [input])
        return HTMLReport.render(report)
    }

    @Test func stacksCarryTheirSampleTimesDeltaCoded() throws {
        let html = try Self.page([1_000_000: 2, 1_000_500: 1, 3_000_000: 4], count: 7)
        #expect(html.contains("\"times\":[[1000000,2,500,1,1999500,4]]"))
        #expect(html.contains("\"timeStepUs\":1"))
    }

    @Test func aPageOverItsBudgetRoundsTimesToACoarserStep() {
        var graphs = FlameGraphs()
        let times = (0..<1_000).map { SampleTime(atUs: Int64($0) * 10, count: 1) }
        graphs.add(id: "g", stacks: [(frames: ["main"], count: 1_000)], times: [times])
        graphs.boundTimes(limit: 100)
        #expect(graphs.timeStepUs == 256)  // 1 µs × 4ⁿ: 10,000 µs in steps of 256 → 40 pairs
        let bounded = graphs.graphs[0].times?[0] ?? []
        #expect(bounded.count <= 100)
        #expect(bounded.map(\.count).reduce(0, +) == 1_000)
        #expect(bounded.allSatisfy { ($0.atUs - 128) % 256 == 0 })
        var json = JSONWriter()
        graphs.writeData(into: &json)
        #expect(String(decoding: json.bytes, as: UTF8.self).contains("\"timeStepUs\":256"))
    }
}
