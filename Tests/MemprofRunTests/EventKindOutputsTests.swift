import Foundation
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofReport
import MemprofTestSupport
import MemprofTrace
import Testing

/// Every event kind, handed to every output, does what ``SimEvent/Kind/outputs`` declares for it
/// and nothing else (the steps of the "Adding an event kind" article end here: a new kind gets an
/// example event, `SimEvent.example(of:)`, and this test holds each output to its declaration).
@Suite struct EventKindOutputsTests {
    static let apps = ["mail", "maps"]
    static let durationUs: Microseconds = 10_000_000

    @Test(arguments: SimEvent.Kind.allCases)
    func reportJSONWritesEveryKindAndReadsItBack(kind: SimEvent.Kind) throws {
        let event = SimEvent.example(of: kind)
        var out = JSONWriter(capacity: 256)
        out.write(event)
        let text = Data(out.bytes)
        #expect(try JSONDecoder().decode(SimEvent.self, from: text) == event)
        #expect(String(decoding: text, as: UTF8.self).contains("\"kind\":\"\(kind.rawValue)\""))
        #expect(EventLog.all.keeps(kind))
        #expect(!EventLog.none.keeps(kind))
        #expect(EventLog.decisions.keeps(kind) == kind.outputs.isDecision)
    }

    @Test(arguments: SimEvent.Kind.allCases)
    func traceJSONDrawsAnInstantWhereDeclared(kind: SimEvent.Kind) throws {
        let event = SimEvent.example(of: kind)
        var trace = TraceStreams(header: .init(tool: "memprof test", workload: "kinds", device: "test", policy: "test", seed: 1),
                                 names: ["mail": "Mail", "maps": "Maps"], spill: nil)
        try trace.instant(event)
        var out = JSONWriter(capacity: 1 << 12)
        try trace.write(into: &out) { _ in }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.bytes)) as? [String: Any])
        let records = try #require(object["traceEvents"] as? [[String: Any]])
        let instants = records.filter { $0["ph"] as? String == "i" }
        switch kind.outputs.traceInstant {
        case nil:
            #expect(instants.isEmpty)
        case .device?:
            #expect(instants.count == 1)
            #expect(instants.first?["pid"] as? Int64 == TraceJSON.devicePid)
        case .app?:
            #expect(instants.count == 1)
            #expect(instants.first?["pid"] as? Int64 == trace.pid("mail"))
        }
    }

    @Test(arguments: SimEvent.Kind.allCases)
    func stateIntervalsAndHandlerRunsCloseWhereDeclared(kind: SimEvent.Kind) {
        let event = SimEvent.example(of: kind)
        let outputs = kind.outputs
        var states = StateIntervals.Builder(apps: Self.apps, durationUs: Self.durationUs)
        #expect((states.add(event, app: 0) != nil) == outputs.changesState)

        // A run starts: it waits to be handed out.
        var fresh = StateIntervals.HandlerRuns()
        fresh.add(event, app: 0) { _, _ in }
        #expect((fresh.earliestWaitingStart != nil) == (outputs.handlerRun == .start))
        // A fetch running since 1 s ends.
        var running = StateIntervals.HandlerRuns()
        running.add(SimEvent.example(of: .handlerStart, atUs: 1_000_000), app: 0) { _, _ in }
        var ended: [HandlerInterval] = []
        running.add(event, app: 0) { _, run in ended.append(run) }
        #expect(ended.count == (outputs.handlerRun == .end ? 1 : 0))
    }

    @Test(arguments: SimEvent.Kind.allCases)
    func reportHTMLMarksLanesAndListsDecisionsWhereDeclared(kind: SimEvent.Kind) {
        let event = SimEvent.example(of: kind)
        let outputs = kind.outputs
        var lanes = LaneDigest(apps: Self.apps, durationUs: Self.durationUs)
        if LaneDigest.reads(kind) { lanes.event(event, row: 0) }
        #expect(lanes.finish().marks[0].count == (outputs.laneMark ? 1 : 0))

        var history = HistoryDigest(durationUs: Self.durationUs, keepsHandlerRuns: true)
        history.event(event)
        let drawn = history.finish()
        #expect((drawn.decisions > 0) == (outputs.decisionRow != nil))
        #expect(!drawn.handlerRuns.isEmpty == (outputs.handlerRun == .start))
    }

    /// The level the pressure strip, the timeline and trace.json's counter read is the event's own.
    @Test(arguments: SimEvent.Kind.allCases)
    func onlyEventsWithALevelSetThePressureLevel(kind: SimEvent.Kind) {
        #expect(kind.outputs.setsPressureLevel == (SimEvent.example(of: kind, app: nil).fields.level != nil))
    }

    /// A kind with values of its own that outputs draw is added in four code files (the event,
    /// its keys, its outputs, the engine step that records it), as the "Adding an event kind"
    /// article says: a process's kill and launch, whose reason, kind, band and bytes report.json
    /// writes, trace.json draws on the device's track and `--events decisions` keeps, are named
    /// in code nowhere else (comments aside; `MemprofTestSupport`'s example event is for tests).
    @Test(arguments: [SimEvent.Kind.processExit, .processLaunch])
    func aKindWithValuesOfItsOwnLivesInFourFiles(kind: SimEvent.Kind) throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let word = try Regex("\\b\(kind.rawValue)\\b")
        var naming: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let path as String in files where path.hasSuffix(".swift") && !path.hasPrefix("MemprofTestSupport/") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if code.contains(where: { $0.contains(word) }) { naming.append(path) }
        }
        #expect(naming.sorted() == ["MemprofCore/Engine/Processes.swift", "MemprofCore/SimEvent+JSON.swift",
                                    "MemprofCore/SimEvent+Outputs.swift", "MemprofCore/SimEvent.swift"])
    }
}
