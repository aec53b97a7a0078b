import Foundation
import MemprofCore
import MemprofOutput
@testable import MemprofReport
import MemprofTestSupport
import Testing
@testable import MemprofTrace

/// trace.json merged round by round while a run goes is the file one merge at the end
/// writes, byte for byte, when each round stops before the earliest time a later record can have.
@Suite struct LiveMergeTests {
    /// A run's records made up: counters at the clock, instants at the clock, and each app's state
    /// intervals and handler runs written when they close (dated at their start, in the past).
    /// `holder`'s first state stays open for most of the run, so the merge's limit stays behind
    /// and every stream's records pile up, into the scratch file, while waiting.
    private struct MadeUpRun {
        var trace: TraceStreams
        var generator: SeededGenerator
        let apps: Int
        var clock: Int64 = 0
        var stateStart: [Int64]
        var handlerStart: [Int64]
        let holder = 0

        init(spill: SpillFile?, apps: Int, seed: UInt64) {
            var names: [String: String] = [:]
            for i in 0..<apps { names["app\(i)"] = "App \(i)" }
            trace = TraceStreams(header: .init(tool: "memprof test", workload: "made-up", device: "phone", policy: "seed2015",
                                               seed: seed),
                                 names: names, spill: spill)
            generator = SeededGenerator(seed: seed)
            self.apps = apps
            stateStart = Array(repeating: 0, count: apps)
            handlerStart = Array(repeating: 0, count: apps)
        }

        /// The earliest time a record still to come can have.
        var limit: Int64 { min(clock, stateStart.min() ?? clock, handlerStart.min() ?? clock) }

        /// One more record (or two); `holdsUntil` is the clock at which `holder` closes its first state.
        mutating func step(holdsUntil: Int64) throws {
            clock += Int64(generator.next() % 4) * 1000
            let app = Int(generator.next() % UInt64(apps))
            switch generator.next() % 6 {
            case 0: try trace.counter(.used, at: clock, Int64(generator.next() % 1_000_000))
            case 1: try trace.counter(.footprint(app), at: clock, Int64(generator.next() % 1_000_000))
            case 2:
                try trace.instant(SimEvent(atUs: clock, app: "app\(app)", .memoryWarning(.pressure, freedBytes: 4096)),
                                  app: app)
            case 3:
                guard app != holder || clock >= holdsUntil, clock > stateStart[app] else { return }
                try trace.state(app, StateInterval(startUs: stateStart[app], endUs: clock, state: .suspended))
                stateStart[app] = clock
            case 4:
                try trace.handler(app, HandlerInterval(startUs: handlerStart[app], endUs: clock, handler: "fetch",
                                                       outcome: "completed"))
                handlerStart[app] = clock
            default: try trace.pressure(at: clock, generator.next() % 2 == 0 ? .warning : .normal)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func mergedRoundByRoundItIsTheFileOneMergeWrites() throws {
        let directory = try Scratch.makeDirectory("live-merge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let liveSpill = try SpillFile(in: directory, for: directory)
        var live = MadeUpRun(spill: liveSpill, apps: 20, seed: 7)
        var whole = MadeUpRun(spill: try SpillFile(in: directory, for: directory), apps: 20, seed: 7)
        let steps = 150_000
        var out = JSONWriter()
        var liveBytes: [UInt8] = []
        var writtenBeforeTheEnd = 0
        let flush: (inout JSONWriter) throws -> Void = { out in
            liveBytes += out.bytes
            out.removeAll()
        }
        for n in 0..<steps {
            try live.step(holdsUntil: 60_000_000)
            try whole.step(holdsUntil: 60_000_000)
            if n % 1000 == 999 { try live.trace.merge(before: live.limit, into: &out, flush: flush) }
        }
        writtenBeforeTheEnd = liveBytes.count + out.count
        // The records held back while `holder`'s state was open went through the scratch file.
        #expect(liveSpill.size > 0)
        try live.trace.merge(before: nil, into: &out, flush: flush)
        try live.trace.finish(into: &out, flush: flush)

        var wholeOut = JSONWriter()
        var wholeBytes: [UInt8] = []
        try whole.trace.write(into: &wholeOut) { out in
            wholeBytes += out.bytes
            out.removeAll()
        }
        #expect(liveBytes.count == wholeBytes.count)
        #expect(liveBytes == wholeBytes)
        #expect(writtenBeforeTheEnd > liveBytes.count / 2, "most records are written while the run goes")
        let object = try JSONSerialization.jsonObject(with: Data(liveBytes)) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        #expect(events.count > steps / 2)
    }

    /// A merge that stops too late (past a record still to come) would write that record out of
    /// order: the test above would see it. Here, the limit is honoured: nothing at or after it.
    @Test func aRoundWritesNothingDatedAtOrAfterItsLimit() throws {
        var run = MadeUpRun(spill: nil, apps: 3, seed: 11)
        for _ in 0..<2000 { try run.step(holdsUntil: 0) }
        var out = JSONWriter()
        try run.trace.merge(before: 500_000, into: &out) { _ in }
        let text = String(decoding: out.bytes, as: UTF8.self)
        let times = text.split(separator: "\n").dropFirst().compactMap { line -> Int64? in
            guard let range = line.range(of: "\"ts\":") else { return nil }
            return Int64(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 < 500_000 })
        #expect(times == times.sorted())
    }
}
