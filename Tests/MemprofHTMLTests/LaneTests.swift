import Foundation
import MemprofCore
import MemprofOutput
import MemprofProfile
import MemprofReport
import Testing
@testable import MemprofHTML

@Suite struct LaneTests {
    func transition(_ at: Int64, _ app: String, _ from: AppState, _ to: AppState) -> SimEvent {
        SimEvent(atUs: at, app: app, .transition(from: from, to: to, cause: nil))
    }

    var events: [SimEvent] {
        let launch = SimEvent(atUs: 0, app: "a", .launch(.cold, bytes: 10, wake: nil))
        let compression = SimEvent(atUs: 50, app: "a", .compression(bytes: 10, compressedBytes: 10, freezer: nil))
        let exit = SimEvent(atUs: 80, app: "a", .exit(.memoryPressure, from: .compressed))
        return [
            transition(0, "a", .notRunning, .inactive), launch,
            transition(10, "a", .inactive, .active),
            transition(50, "a", .active, .inactive), transition(50, "a", .inactive, .background),
            transition(50, "a", .background, .suspended), transition(50, "a", .suspended, .compressed), compression,
            exit, transition(80, "a", .compressed, .notRunning),
            transition(20, "b", .notRunning, .inactive),
        ]
    }

    @Test func intervalsTileTheRunAndDropZeroLengthStates() {
        let intervals = StateIntervals.make(events: events, apps: ["a", "b", "c"], durationUs: 100)
        let a = intervals["a"]!
        #expect(a.map(\.state) == [.inactive, .active, .compressed, .notRunning])
        #expect(a.map(\.startUs) == [0, 10, 50, 80])
        #expect(a.map(\.endUs) == [10, 50, 80, 100])
        #expect(a.reduce(0) { $0 + $1.lengthUs } == 100)
        // report.json records no causes: rebuilt from it, intervals have none (a run's come from the engine).
        #expect(a.allSatisfy { $0.cause == nil })
        #expect(intervals["b"]!.map(\.state) == [.notRunning, .inactive])
        #expect(intervals["c"]! == [StateInterval(startUs: 0, endUs: 100, state: .notRunning)])
    }

    @Test func handlerRunsPairStartsWithEnds() {
        let start = SimEvent(atUs: 5, app: "a", .handlerStart(.fetch, bytes: 1, inForeground: false))
        let end = SimEvent(atUs: 35, app: "a", .handlerEnd(.fetch, outcome: .completed))
        let open = SimEvent(atUs: 60, app: "a", .handlerStart(.backgroundTask, bytes: 1, inForeground: false))
        let runs = StateIntervals.handlers(events: [start, end, open], durationUs: 100)["a"]!
        #expect(runs.count == 2)
        #expect(runs[0].startUs == 5 && runs[0].endUs == 35 && runs[0].outcome == "completed")
        #expect(runs[1].startUs == 60 && runs[1].endUs == 100 && runs[1].outcome == "running")
    }

    @Test func shortIntervalsMergeIntoBoundedSegments() {
        // 1,000 alternating 1 µs states, then a long one.
        var intervals: [StateInterval] = []
        for i in 0..<1_000 {
            intervals.append(StateInterval(startUs: Int64(i), endUs: Int64(i + 1), state: i % 4 == 0 ? .active : .suspended))
        }
        intervals.append(StateInterval(startUs: 1_000, endUs: 5_000, state: .background, cause: .woken(for: .fetch)))
        let segments = Lanes.segments(intervals, minLengthUs: 100)
        #expect(segments.count == 11)
        #expect(segments.last == LaneSegment(startUs: 1_000, endUs: 5_000, state: .background, cause: "fetch started"))
        #expect(segments.dropLast().allSatisfy { $0.state == .suspended && $0.merged == 100 })
        // Still contiguous.
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.endUs == $1.startUs })
        #expect(segments.first?.startUs == 0)
        // No interval is lost: a merged segment lists every state it held.
        #expect(segments.dropLast().allSatisfy { $0.states == [.active, .suspended] })
        // Neighbouring merged segments with the same states become one for drawing.
        let drawn = LaneChart.coalesce(segments)
        #expect(drawn.count == 2)
        #expect(drawn[0].startUs == 0 && drawn[0].endUs == 1_000 && drawn[0].merged == 1_000)
    }

    /// Every interval of a busy lane shows in the segment that covers it.
    @Test func everyStateHeldShowsInItsColumn() {
        var generator = SeededGenerator(seed: 74)  // seeded: a failure replays
        var intervals: [StateInterval] = []
        var t: Int64 = 0
        let states: [AppState] = [.inactive, .active, .background, .suspended, .compressed]
        while t < 100_000 {
            let length = Int64.random(in: 1...(Bool.random(using: &generator) ? 40 : 3_000), using: &generator)
            intervals.append(StateInterval(startUs: t, endUs: t + length, state: states.randomElement(using: &generator)!))
            t += length
        }
        let segments = LaneChart.coalesce(Lanes.segments(intervals, minLengthUs: 500))
        for interval in intervals {
            let covering = segments.filter { $0.startUs < interval.endUs && $0.endUs > interval.startUs }
            #expect(covering.contains { $0.states.contains(interval.state) }, "\(interval) not shown")
        }
    }

    @Test func longIntervalsAreKeptExactly() {
        let intervals = [StateInterval(startUs: 0, endUs: 500, state: .active),
                         StateInterval(startUs: 500, endUs: 900, state: .suspended)]
        let segments = Lanes.segments(intervals, minLengthUs: 100)
        #expect(segments.map(\.merged) == [1, 1])
        #expect(segments.map(\.endUs) == [500, 900])
    }

    @Test func decisionsListKillsButNotQuits() {
        let quit = SimEvent(atUs: 1, app: "a", .exit(.userQuit, from: .active))
        let kill = SimEvent(atUs: 2, app: "a", .exit(.memoryLimit, from: .active))
        let reclaim = SimEvent(atUs: 3, app: "b", .reclaim(.init(neededBytes: 10, freedBytes: 20, usedBytes: 0, candidates: [])))
        let rows = Decisions.rows([quit, kill, reclaim, SimEvent(atUs: 4, app: "c", .eviction(bytes: 0))])
        #expect(rows.map(\.kind) == [.exit, .reclaim, .eviction])
        #expect(rows[0].detail == "memoryLimit" && rows[0].exitReason == .memoryLimit)
        #expect(rows[1].neededBytes == 10 && rows[1].freedBytes == 20 && rows[1].taken.isEmpty)
    }

    /// An eviction is three events (eviction, exit, reclaim) and one decision; the warnings of one
    /// rise are one row, those that freed nothing folded together; kills link to their snapshot.
    @Test func oneRowPerDecision() throws {
        let warnA = SimEvent(atUs: 5, app: "a", .memoryWarning(.pressure, freedBytes: 0))
        let warnB = SimEvent(atUs: 5, app: "b", .memoryWarning(.pressure, freedBytes: 40))
        let warnC = SimEvent(atUs: 5, app: "c", .memoryWarning(.pressure, freedBytes: 0))
        let eviction = SimEvent(atUs: 5, app: "m", .eviction(bytes: 100))
        let exit = SimEvent(atUs: 5, app: "m", .exit(.memoryPressure, from: .suspended))
        let eviction2 = SimEvent(atUs: 5, app: "n", .eviction(bytes: 50))
        let exit2 = SimEvent(atUs: 5, app: "n", .exit(.memoryPressure, from: .suspended))
        let reclaim = SimEvent(atUs: 5, app: "g", .reclaim(.init(neededBytes: 120, freedBytes: 150, usedBytes: 0, candidates: [])))
        let jetsam = try JSONDecoder().decode([JetsamEvent].self, from: Data("""
            [{"atUs": 5, "killed": "m", "exitReason": "memoryPressure", "largestProcess": "m", "pageSize": 16384, "processes": []},
             {"atUs": 5, "killed": "n", "exitReason": "memoryPressure", "largestProcess": "m", "pageSize": 16384, "processes": []}]
            """.utf8))
        let rows = Decisions.rows([warnA, warnB, warnC, eviction, exit, eviction2, exit2, reclaim], jetsam: jetsam)
        #expect(rows.map(\.kind) == [.memoryWarning, .eviction])
        #expect(rows[0].warned == [.init(app: "b", bytes: 40)])
        #expect(rows[0].freedNothing == ["a", "c"])
        #expect(rows[0].freedBytes == 40)
        #expect(rows[1].app == "g")
        #expect(rows[1].taken.map(\.app) == ["m", "n"])
        #expect(rows[1].neededBytes == 120 && rows[1].freedBytes == 150)
        #expect(rows[1].jetsam == [0, 1])
        #expect(Set(rows[1].involved) == ["g", "m", "n"])
        #expect(Decisions.marks([warnA, eviction, exit, reclaim]).map(\.kind) == [.memoryWarning, .eviction])
    }

    @Test func headTailKeepsBothEnds() {
        let short = HeadTail(Array(0..<5), limit: 10)
        #expect(Array(short.head) == [0, 1, 2, 3, 4] && short.omitted == 0 && short.tail.isEmpty)
        let long = HeadTail(Array(0..<100), limit: 10)
        #expect(Array(long.head) == [0, 1, 2, 3, 4])
        #expect(Array(long.tail) == [95, 96, 97, 98, 99])
        #expect(long.omitted == 90)
    }
}

@Suite struct FlameTests {
    @Test func namesAreShortened() {
        #expect(FrameNames.short("static MemprofSampler.ChecksumKernel.crc32Update(_:_:)") == "ChecksumKernel.crc32Update(_:_:)")
        #expect(FrameNames.short("(extension in Swift):Swift.MutableCollection.sort(by:)") == "MutableCollection.sort(by:)")
        #expect(FrameNames.short("closure #4 in variable initialization expression of static MemprofSampler.WorkRegistry.builtIn : Swift.Array<MemprofSampler.WorkKernel>")
            == "closure #4 in WorkRegistry.builtIn")
        #expect(FrameNames.short("generic specialization <Swift.Int> of Swift.Array.append(_:)") == "specialized Array.append(_:)")
        #expect(FrameNames.short("MyApp.Parser.parse()") == "MyApp.Parser.parse()")
        #expect(FrameNames.short("libc.so.6+0x1098eb") == "libc.so.6+0x1098eb")
    }

    @Test func harnessFramesEndWhereTheWorkStarts() {
        let stack = ["libc.so.6+0x1098eb", "Foundation.NSThreadStart(_:)", "MemprofSampler.WorkerThread.loop()",
                     "partial apply forwarder for closure #1 in MemprofSampler.SamplingSession.performLocked(kernel:sizeBytes:app:handler:)",
                     "closure #2 in variable initialization expression of static MemprofSampler.WorkRegistry.builtIn : Swift.Array<MemprofSampler.WorkKernel>",
                     "static MemprofSampler.CompressKernel.run(bytes:)", "partial apply forwarder for closure #1 in static MemprofSampler.CompressKernel.run(bytes:)",
                     "static MemprofSampler.CompressKernel.compressBlock(_:table:into:)"]
        #expect(HarnessFrames.workStart(stack) == 5)
        #expect(HarnessFrames.workStart(["main", "work"]) == 0)
        #expect(FrameNames.isThunk(stack[6]))
        #expect(FrameNames.isThunk("lazy protocol witness table accessor for type Swift.UInt64 and conformance Swift.UInt64 : Swift.BinaryInteger in Swift"))
        #expect(!FrameNames.isThunk(stack[7]))
    }

    @Test func dataNamesEachFrameOnceAndMarksTheWork() throws {
        var graphs = FlameGraphs()
        graphs.add(id: "f0", stacks: [(frames: ["MemprofSampler.WorkerThread.loop()", "work", "leaf"], count: 3)],
                   base: [(frames: ["work"], count: 1)], runs: [10, 20])
        var json = JSONWriter(capacity: 256)
        graphs.writeData(into: &json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(object["names"] as? [String] == ["WorkerThread.loop()", "work", "leaf"])
        let graph = try #require((object["graphs"] as? [[String: Any]])?.first)
        #expect(graph["stacks"] as? [[Int]] == [[3, 1, 0, 1, 2]])
        #expect(graph["base"] as? [[Int]] == [[1, 0, 1]])
        #expect(graph["runs"] as? [Int] == [10, 20])
    }
}

@Suite struct PaletteTests {
    @Test func neighbouringAppsDifferEnough() {
        for index in 0..<60 {
            let distance = Palette.distance(Palette.app(index), Palette.app(index + 1))
            #expect(distance >= Palette.minimumAdjacentDistance, "apps \(index) and \(index + 1): ΔE \(distance)")
        }
        #expect(abs(Palette.contrast("#000000", "#ffffff") - 21) < 0.01)
    }
}
