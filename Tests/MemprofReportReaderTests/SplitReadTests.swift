import Foundation
import MemprofCore
import MemprofInput
import MemprofTestSupport
import Testing
@testable import MemprofReport
@testable import MemprofReportReader

/// A report read by two threads (`SplitRead`) reads as it does by one: the same report, the same
/// events in the same order, and for a broken report the same message at the same place.
@Suite struct SplitReadTests {
    /// What reading gives: the report written again, or the failure.
    enum Outcome: Equatable {
        case read(Data)
        case failed(ReportReadFailure)
    }

    /// The share of the bytes from the events list on that the first reader reads, for the split
    /// point to be in the events of these small reports (whose jetsam snapshots and timeline
    /// weigh more than a long run's).
    static let share = 0.2

    func outcome(_ data: Data, split: Bool, options: ReportReadOptions = .everything) -> Outcome {
        do {
            let report = try data.withUnsafeBytes {
                try ReportReader.read($0, options: options, release: nil, sink: nil, splitShare: split ? Self.share : nil)
            }
            return .read(try ReportJSON.encode(report))
        } catch let failure as ReportReadFailure {
            return .failed(failure)
        } catch {
            Issue.record("\(error)")
            return .failed(ReportReadFailure(offset: nil, error: .notAReport("\(error)")))
        }
    }

    /// Whether the second reader's work is taken (the split point is an event of the list).
    func taken(_ data: Data) throws -> Bool {
        try data.withUnsafeBytes { bytes in
            let split = try #require(SplitRead(bytes, share: Self.share, options: .everything, release: nil, sink: nil))
            defer { split.join() }
            var reader = Reader(JSONScanner(bytes), options: .everything, release: nil)
            _ = try reader.report(split: split)
            return split.taken != nil
        }
    }

    static let fixtures = ["background-heavy", "observer-leaks", "phone-day"]

    @Test(arguments: fixtures)
    func readsTheSameReport(name: String) throws {
        let data = try ReportJSON.encode(try ReportFixture.builtin(name))
        #expect(try taken(data))
        #expect(outcome(data, split: true) == .read(data))
        let part = ReportReadOptions(eventKinds: [.eviction, .exit, .reclaim], candidates: false, jetsamProcesses: false, seriesBuckets: 3)
        #expect(outcome(data, split: true, options: part) == outcome(data, split: false, options: part))
    }

    /// Collects what a sink is handed.
    final class Collect: ReportEventSink {
        var events: [SimEvent] = []
        var range: Range<Int>?
        func add(_ event: SimEvent) { events.append(event) }
        func eventsRead(at range: Range<Int>) { self.range = range }
    }

    @Test func handsASinkTheEventsInOrder() throws {
        let report = try ReportFixture.builtin("phone-day")
        let data = try ReportJSON.encode(report)
        let one = Collect(), two = Collect()
        try data.withUnsafeBytes { bytes in
            _ = try ReportReader.read(bytes, options: .everything, release: nil, sink: one, splitShare: nil)
            _ = try ReportReader.read(bytes, options: .everything, release: nil, sink: two, splitShare: Self.share)
        }
        #expect(one.events == report.events)
        #expect(two.events == report.events)
        #expect(one.range != nil && two.range == one.range)
    }

    /// A second reader that keeps more events for the sink than it may hold hands them on itself
    /// once the first has reached the split point: the sink still gets them all, in order, and
    /// when the first never reaches the split point, the second gives up and the first reads on.
    @Test(arguments: [share, 0.26])
    func handsOverTheSink(share: Double) throws {
        let report = try ReportFixture.builtin("phone-day")
        let data = try ReportJSON.encode(report)
        let sink = Collect()
        let taken = try data.withUnsafeBytes { bytes in
            let split = try #require(SplitRead(bytes, share: share, options: .everything, release: nil, sink: sink, held: 2))
            defer { split.join() }
            var reader = Reader(JSONScanner(bytes), options: .everything, release: nil)
            reader.sink = sink
            _ = try reader.report(split: split)
            return split.taken != nil
        }
        // At 0.26 the split point is past the events (in the jetsam snapshots).
        #expect(taken == (share == Self.share))
        #expect(sink.events == report.events)
    }

    /// Broken reports, broken after the split point (where the second reader reads): every
    /// failure is the one reader's, message and place.
    @Test(arguments: fixtures)
    func failsAsOneReaderDoes(name: String) throws {
        let text = String(decoding: try ReportJSON.encode(try ReportFixture.builtin(name)), as: UTF8.self)
        let data = Data(text.utf8)
        let point = try #require(data.withUnsafeBytes { SplitRead.point(in: $0, share: Self.share) })
        let after = text.utf8.index(text.startIndex, offsetBy: point)
        func afterSplit(_ old: String, _ new: String) -> String {
            guard let r = text.range(of: old, range: after..<text.endIndex) else { return text }
            return text.replacingCharacters(in: r, with: new)
        }
        let broken = [
            afterSplit("\"kind\":\"", "\"kind\":\"x"),                       // an event of the second part
            afterSplit("\"atUs\":", "\"atUs\":\"soon\","),                     // not JSON's shape of an event
            afterSplit(",\"jetsamEvents\":", ",\"apps\":{},\"jetsamEvents\":"), // a key given twice
            afterSplit(",\"jetsamEvents\":[", ",\"jetsamEvents\":[{}"),           // a jetsam snapshot without keys
            afterSplit("\"timeline\":{", "\"timeline\":{\"x\":[}"),                // broken JSON after the events
            afterSplit("\"schema\":\"memprof.report/1\"", "\"schema\":\"memprof.report/7\""),
            afterSplit(",\"schema\":\"memprof.report/1\"", ""),
            text + " x",
            String(text.dropLast(2)),
            // A problem before the split point, and one after it.
            text.replacingOccurrences(of: "\"kind\":\"launch\"", with: "\"kind\":\"lunch\""),
            // The split point is not an element of the events list.
            afterSplit("},{\"", "}]},{\"x\":[{\""),
        ]
        for (n, text) in broken.enumerated() {
            let data = Data(text.utf8)
            let two = outcome(data, split: true)
            #expect(two == outcome(data, split: false), "case \(n)")
            if case .read = two { Issue.record("case \(n) was read: \(text.count) vs \(data.count)") }
        }
    }

    /// A byte changed at random: the two ways of reading agree on every one. (One byte: with two
    /// broken entries of a map in the small sections, which JSONDecoder names first depends on
    /// the map's hashing, not on the reader.)
    @Test func agreesOnRandomDamage() throws {
        let data = try ReportJSON.encode(try ReportFixture.builtin("observer-leaks"))
        var random = SeededGenerator(seed: 15)
        let bytes: [UInt8] = Array("{}[]\",:0-9aex \\".utf8)
        var disagreements = 0
        for _ in 0..<1000 {
            var copy = data
            copy[Int(random.next() % UInt64(copy.count))] = bytes[Int(random.next() % UInt64(bytes.count))]
            let a = outcome(copy, split: true), b = outcome(copy, split: false)
            if a != b {
                disagreements += 1
                func show(_ o: Outcome) -> String { if case .failed(let f) = o { return "\(f)" } else { return "read" } }
                Issue.record("split: \(show(a)); one: \(show(b))")
            }
        }
        #expect(disagreements == 0)
    }
}
