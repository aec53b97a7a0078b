import MemprofCore
import Testing
@testable import MemprofHTML
import MemprofReport

@Suite struct LaneTests {
    func transition(_ at: Int64, _ app: String, _ from: AppState, _ to: AppState) -> SimEvent {
        var e = SimEvent(atUs: at, kind: .transition, app: app)
        e.from = from
        e.to = to
        return e
    }

    var events: [SimEvent] {
        var launch = SimEvent(atUs: 0, kind: .launch, app: "a")
        launch.detail = "cold"
        var compression = SimEvent(atUs: 50, kind: .compression, app: "a")
        compression.bytes = 10
        var exit = SimEvent(atUs: 80, kind: .exit, app: "a")
        exit.reason = .memoryPressure
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
        // Causes come from events at the same instant, before or after the transition.
        #expect(a[0].cause == "launch cold")
        #expect(a[2].cause == "compressed")
        #expect(a[3].cause == "exit memoryPressure")
        #expect(intervals["b"]!.map(\.state) == [.notRunning, .inactive])
        #expect(intervals["c"]! == [StateInterval(startUs: 0, endUs: 100, state: .notRunning)])
    }

    @Test func handlerRunsPairStartsWithEnds() {
        var start = SimEvent(atUs: 5, kind: .handlerStart, app: "a")
        start.handler = "fetch"
        var end = SimEvent(atUs: 35, kind: .handlerEnd, app: "a")
        end.handler = "fetch"
        end.detail = "completed"
        var open = SimEvent(atUs: 60, kind: .handlerStart, app: "a")
        open.handler = "backgroundTask"
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
        intervals.append(StateInterval(startUs: 1_000, endUs: 5_000, state: .background, cause: "x"))
        let segments = Lanes.segments(intervals, minLengthUs: 100)
        #expect(segments.count == 11)
        #expect(segments.last == LaneSegment(startUs: 1_000, endUs: 5_000, state: .background, cause: "x"))
        #expect(segments.dropLast().allSatisfy { $0.state == .suspended && $0.merged == 100 })
        // Still contiguous.
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.endUs == $1.startUs })
        #expect(segments.first?.startUs == 0)
    }

    @Test func longIntervalsAreKeptExactly() {
        let intervals = [StateInterval(startUs: 0, endUs: 500, state: .active),
                         StateInterval(startUs: 500, endUs: 900, state: .suspended)]
        let segments = Lanes.segments(intervals, minLengthUs: 100)
        #expect(segments.map(\.merged) == [1, 1])
        #expect(segments.map(\.endUs) == [500, 900])
    }

    @Test func decisionsListKillsButNotQuits() {
        var quit = SimEvent(atUs: 1, kind: .exit, app: "a")
        quit.reason = .userQuit
        var kill = SimEvent(atUs: 2, kind: .exit, app: "a")
        kill.reason = .memoryLimit
        var reclaim = SimEvent(atUs: 3, kind: .reclaim, app: "b")
        reclaim.neededBytes = 10
        reclaim.freedBytes = 20
        let rows = Decisions.rows([quit, kill, reclaim, SimEvent(atUs: 4, kind: .eviction, app: "c")])
        #expect(rows.map(\.kind) == ["kill", "reclaim", "eviction"])
        #expect(rows[0].detail == "memoryLimit")
        #expect(rows[1].neededBytes == 10 && rows[1].freedBytes == 20)
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

@Suite struct FlameLayoutTests {
    @Test func boxesNestInsideTheirParents() {
        let boxes = FlameLayout.boxes([
            (frames: ["main", "a", "x"], count: 3),
            (frames: ["main", "b"], count: 2),
            (frames: ["main", "a"], count: 1),
            (frames: ["main", "a", "x"], count: 4),
        ])
        let byName = Dictionary(uniqueKeysWithValues: boxes.map { ($0.name, $0) })
        #expect(byName["main"] == FlameBox(name: "main", depth: 0, start: 0, count: 10, selfCount: 0))
        #expect(byName["a"] == FlameBox(name: "a", depth: 1, start: 0, count: 8, selfCount: 1))
        #expect(byName["x"] == FlameBox(name: "x", depth: 2, start: 0, count: 7, selfCount: 7))
        #expect(byName["b"] == FlameBox(name: "b", depth: 1, start: 8, count: 2, selfCount: 2))
    }

    @Test func narrowBoxesAreLeftOutButStillTakeTheirSpace() {
        let boxes = FlameLayout.boxes([(frames: ["main", "tiny"], count: 1), (frames: ["main", "wide"], count: 99)], minCount: 2)
        #expect(boxes.map(\.name) == ["main", "wide"])
        #expect(boxes[1].start == 1)
    }
}
