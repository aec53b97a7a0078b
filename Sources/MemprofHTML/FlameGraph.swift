import MemprofOutput
import MemprofCore
import MemprofProfile
import MemprofReport

/// The flame graphs of a page as data for its script, which lays them out and draws them (click
/// to zoom, search, focus on or hide a function, show or hide memprof's own frames, follow the
/// selected time range). One frame table for all graphs; each stack is written as
/// `[count, workStart, frame, frame, ...]` (root first), where `workStart` is the index of the
/// first frame after memprof's harness (see `HarnessFrames`), so the page can hide
/// everything above the work without knowing frame names. A graph whose samples carry simulated
/// times (``SampleTime``) also has `times`: per stack, `[Δt, count, Δt, count, ...]` (times
/// delta-coded from 0, in µs) or 0, so the page recomputes the graph from the samples inside a
/// selected range; other graphs (allocations) follow the range per handler run (`runs`).
public struct FlameGraphs {
    public struct Graph {
        public var id: String
        public var stacks: [(frames: [String], count: Int)]
        /// The base run's stacks on a compare page: boxes are then coloured by the change in share.
        public var base: [(frames: [String], count: Int)]?
        /// When the handler ran (simulated time), for following the selected range.
        public var runs: [Microseconds]
        /// Per stack (parallel to `stacks`), when its samples were taken; nil: no times.
        public var times: [[SampleTime]?]?
    }

    /// The most `[time, count]` pairs a page carries over all its graphs: past it, times are
    /// rounded to a coarser step (`timeStepUs`) until they fit, so the page stays bounded.
    public static let maxTimePairs = 100_000

    public private(set) var graphs: [Graph] = []
    private var frameIndex: [String: Int] = [:]
    private var frames: [String] = []
    /// The step the page's sample times are rounded to: 1 µs unless ``maxTimePairs`` was reached.
    public private(set) var timeStepUs: Int64 = 1

    public init() {}

    public var isEmpty: Bool { graphs.isEmpty }

    public mutating func add(id: String, stacks: [(frames: [String], count: Int)],
                             base: [(frames: [String], count: Int)]? = nil, runs: [Microseconds] = [],
                             times: [[SampleTime]?]? = nil) {
        for stack in stacks + (base ?? []) {
            for frame in stack.frames where frameIndex[frame] == nil {
                frameIndex[frame] = frames.count
                frames.append(frame)
            }
        }
        let timed = times.flatMap { $0.count == stacks.count && $0.contains { $0 != nil } ? $0 : nil }
        graphs.append(Graph(id: id, stacks: stacks, base: base, runs: runs, times: timed))
    }

    /// Rounds every graph's sample times to the smallest step (1 µs × 4ⁿ) at which the page
    /// carries at most `limit` pairs; a time is rounded down to a multiple of the step, plus half
    /// of it.
    public mutating func boundTimes(limit: Int = FlameGraphs.maxTimePairs) {
        func pairs(_ step: Int64) -> Int {
            graphs.reduce(0) { total, graph in
                total + (graph.times ?? []).reduce(0) { sum, times in
                    guard let times else { return sum }
                    var count = 0, last = Int64.min
                    for time in times {
                        let rounded = time.atUs / step
                        if rounded != last { count += 1; last = rounded }
                    }
                    return sum + count
                }
            }
        }
        var step: Int64 = 1
        while pairs(step) > limit, step < Int64(1) << 40 { step *= 4 }
        guard step > 1 else { return }
        timeStepUs = step
        for g in graphs.indices {
            graphs[g].times = graphs[g].times?.map { times in
                times.map { list in
                    var merged: [SampleTime] = []
                    for time in list {
                        let at = time.atUs / step * step + step / 2
                        if merged.last?.atUs == at { merged[merged.count - 1].count += time.count } else {
                            merged.append(SampleTime(atUs: at, count: time.count))
                        }
                    }
                    return merged
                }
            }
        }
    }

    /// A handler's sample times, parallel to ``stacks(_:in:)``.
    public static func times(_ handler: HandlerProfile) -> [[SampleTime]?] {
        handler.stacks.map(\.times)
    }

    /// A handler's stacks with frame names, from a profile.
    public static func stacks(_ handler: HandlerProfile, in profile: SamplingProfile) -> [(frames: [String], count: Int)] {
        handler.stacks.map { stack in
            (frames: stack.frames.map { $0 >= 0 && $0 < profile.frames.count ? profile.frames[$0].name : "?" },
             count: stack.count)
        }
    }

    /// Handler start times per `app\u{0}handler`, at most one per 1/4000 of the run.
    public static func handlerRuns(_ events: [SimEvent], durationUs: Microseconds) -> [String: [Microseconds]] {
        var times = HandlerRunTimes(durationUs: durationUs)
        for event in events { times.add(event) }
        return times.runs
    }

    public func writeData(into json: inout JSONWriter) {
        json.raw("{")
        json.key("names"); json.array(frames) { $0.string(FrameNames.short($1)) }; json.raw(",")
        json.key("full"); json.array(frames) { $0.string($1) }; json.raw(",")
        json.key("thunk"); json.array(frames) { json, frame in json.int(FrameNames.isThunk(frame) ? 1 : 0) }
        json.raw(","); json.key("graphs"); json.raw("[")
        for (index, graph) in graphs.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{"); json.key("id"); json.string(graph.id)
            json.raw(","); json.key("stacks"); write(graph.stacks, into: &json)
            if let base = graph.base { json.raw(","); json.key("base"); write(base, into: &json) }
            json.raw(","); json.key("runs"); json.array(graph.runs) { $0.int($1) }
            if let times = graph.times {
                json.raw(","); json.key("times"); json.array(times) { json, list in
                    guard let list else { return json.int(0) }
                    var previous: Int64 = 0
                    json.raw("[")
                    for (index, time) in list.enumerated() {
                        if index > 0 { json.raw(",") }
                        json.int(time.atUs - previous); json.raw(","); json.int(Int64(time.count))
                        previous = time.atUs
                    }
                    json.raw("]")
                }
            }
            json.raw("}")
        }
        json.raw("],"); json.key("timeStepUs"); json.int(timeStepUs); json.raw("}")
    }

    private func write(_ stacks: [(frames: [String], count: Int)], into json: inout JSONWriter) {
        json.raw("[")
        for (index, stack) in stacks.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("["); json.int(Int64(stack.count)); json.raw(","); json.int(Int64(HarnessFrames.workStart(stack.frames)))
            for frame in stack.frames { json.raw(","); json.int(Int64(frameIndex[frame] ?? 0)) }
            json.raw("]")
        }
        json.raw("]")
    }

    /// The controls shared by every flame graph of a page.
    public static let controls = "<p class=\"hint flame-controls\">Click a box to zoom into it and select its function; "
        + "click the bottom row or press Escape to zoom out. "
        + "<label>search <input type=\"search\" id=\"flame-search\" placeholder=\"function name\"></label> "
        + "<span id=\"flame-found\"></span> "
        + "<label><input type=\"checkbox\" id=\"flame-all\"> show memprof’s own frames and thunks</label><br>"
        + "<span id=\"flame-selected\">no function selected</span> "
        + "<button type=\"button\" id=\"flame-focus\" disabled>focus on this function</button> "
        + "<button type=\"button\" id=\"flame-hide\" disabled>hide this function</button> "
        + "<button type=\"button\" id=\"flame-reset\" disabled>show every function</button> "
        + "<span id=\"flame-range\"></span></p>\n"
}
