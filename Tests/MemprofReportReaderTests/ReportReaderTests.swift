import Foundation
import MemprofCore
import MemprofTestSupport
import Testing
@testable import MemprofReport
@testable import MemprofReportReader

/// The one-pass report reader: it reads back exactly what the writer wrote, keeps only what it is
/// asked to keep, and refuses what is not a report at its place.
@Suite struct ReportReaderTests {
    func read(_ data: Data, _ options: ReportReadOptions = .everything) throws -> Report {
        try data.withUnsafeBytes { try ReportReader.read($0, options: options) }
    }

    func failure(_ text: String) -> ReportReadFailure? {
        do { _ = try read(Data(text.utf8)); return nil } catch let failure as ReportReadFailure { return failure } catch { return nil }
    }

    @Test(arguments: ["background-heavy", "observer-leaks", "phone-day", "phone-day-xnu"])
    func readsBackEverythingTheWriterWrote(name: String) throws {
        let report = try ReportFixture.builtin(name)
        let data = try ReportJSON.encode(report)
        let back = try read(data)
        // Equal models write equal bytes.
        #expect(try ReportJSON.encode(back) == data)
        #expect(back.events == report.events)
        #expect(back.timeline == report.timeline)
        #expect(back.jetsamEvents == report.jetsamEvents)
    }

    @Test func keepsOnlyWhatItIsAskedFor() throws {
        let report = try ReportFixture.builtin("background-heavy")
        let data = try ReportJSON.encode(report)
        let kinds: Set<SimEvent.Kind> = [.eviction, .exit, .reclaim]
        let options = ReportReadOptions(eventKinds: kinds, candidates: false, jetsamProcesses: false, seriesBuckets: 3)
        let part = try read(data, options)
        #expect(part.summary == report.summary)
        #expect(part.apps == report.apps)
        let expected = report.events.filter { kinds.contains($0.kind) }.map { e -> SimEvent in
            guard case .reclaim(var r) = e.payload else { return e }
            r.candidates = []
            return SimEvent(atUs: e.atUs, app: e.app, .reclaim(r))
        }
        #expect(part.events == expected)
        #expect(!part.events.isEmpty)
        #expect(part.jetsamEvents.map(\.atUs) == report.jetsamEvents.map(\.atUs))
        #expect(part.jetsamEvents.allSatisfy { $0.processes.isEmpty })
        // Series reduced to a few points, every peak kept.
        #expect(report.timeline.usedBytes.count > 12)
        #expect(part.timeline.usedBytes.count <= 12)
        #expect(part.timeline.usedBytes.map { $0[1] }.max() == report.timeline.usedBytes.map { $0[1] }.max())
        for (app, series) in report.timeline.appBytes {
            #expect(part.timeline.appBytes[app]?.map { $0[1] }.max() == series.map { $0[1] }.max())
            #expect(part.timeline.appBytes[app]?.map { $0[1] }.min() == series.map { $0[1] }.min())
        }
        #expect(part.timeline.levels == report.timeline.levels)
    }

    @Test func reducerKeepsPeaksAndIsBounded() {
        var reducer = SeriesReducer(buckets: 50)
        var values: [Int64] = []
        for t in 0..<100_000 {
            let v = Int64((t * 7_919) % 1_000)  + (t == 77_777 ? 5_000 : 0) - (t == 12_345 ? 2_000 : 0)
            values.append(v)
            reducer.add(Int64(t), v)
            #expect(reducer.points.count <= 200 + 1)
        }
        let kept = reducer.finish()
        #expect(kept.count <= 100)
        #expect(kept.contains([77_777, values[77_777]]))
        #expect(kept.contains([12_345, values[12_345]]))
        #expect(kept.map { $0[0] } == kept.map { $0[0] }.sorted())
    }

    /// A run with the in-RAM compressor: each jetsam snapshot's `compressor` and the timeline's
    /// `compressorBytes` read back; counts out of range or inconsistent are refused at the place.
    @Test func readsTheCompressorsFiguresWithRangeChecks() throws {
        let report = try ReportFixture.builtin("phone-day-xnu")
        #expect(report.jetsamEvents.allSatisfy { $0.compressor != nil })
        #expect(report.timeline.compressorBytes?.isEmpty == false)
        let text = String(decoding: try ReportJSON.encode(report), as: UTF8.self)
        let back = try read(Data(text.utf8))
        #expect(back.jetsamEvents.map(\.compressor) == report.jetsamEvents.map(\.compressor))
        #expect(back.timeline.compressorBytes == report.timeline.compressorBytes)
        let c = try #require(report.jetsamEvents.first?.compressor)
        let written = #""compressor":{"compressions":\#(c.compressions),"decompressions":\#(c.decompressions),"#
            + #""pages":\#(c.pages),"uncompressedPages":\#(c.uncompressedPages)}"#
        #expect(text.contains(written))
        func refusal(_ replacement: String) -> String? {
            let bad = text.replacingOccurrences(of: written, with: replacement)
            #expect(bad != text)
            return failure(bad).map { "\($0.error)" }
        }
        let negative = written.replacingOccurrences(of: "\"pages\":\(c.pages)", with: "\"pages\":-1")
        #expect(refusal(negative)?.contains("jetsamEvents[0].compressor.pages: -1 is out of range (0 to 2^52 pages)") == true)
        let huge = written.replacingOccurrences(of: "\"compressions\":\(c.compressions)",
                                                with: "\"compressions\":\(Int64(1) << 53)")
        #expect(refusal(huge)?.contains("compressor.compressions: 9007199254740992 is out of range") == true)
        let more = written.replacingOccurrences(of: "\"decompressions\":\(c.decompressions)",
                                                with: "\"decompressions\":\(c.compressions + 1)")
        #expect(refusal(more)?.contains("compressor.decompressions: \(c.compressions + 1) is more than compressions") == true)
        let bigger = written.replacingOccurrences(of: "\"pages\":\(c.pages)", with: "\"pages\":\(c.uncompressedPages + 1)")
        #expect(refusal(bigger)?.contains("compressor.pages: \(c.uncompressedPages + 1) is more than uncompressedPages") == true)
        let missing = written.replacingOccurrences(of: ",\"uncompressedPages\":\(c.uncompressedPages)", with: "")
        #expect(refusal(missing)?.contains("jetsamEvents[0].compressor: missing key 'uncompressedPages'") == true)
        // A report of a run without the compressor has neither.
        let seed = try read(try ReportJSON.encode(try ReportFixture.builtin("phone-day")))
        #expect(seed.jetsamEvents.allSatisfy { $0.compressor == nil } && seed.timeline.compressorBytes == nil)
    }

    @Test func refusesAtThePlace() throws {
        let report = try ReportFixture.builtin("observer-leaks")
        let text = String(decoding: try ReportJSON.encode(report), as: UTF8.self)
        // A bad event kind is named with its path and located at its value.
        let badKind = text.replacingOccurrences(of: "\"kind\":\"launch\"", with: "\"kind\":\"lunch\"")
        let kind = try #require(failure(badKind))
        let at = try #require(kind.offset)
        #expect(badKind.utf8.dropFirst(at).starts(with: "\"lunch\"".utf8))
        guard case .notAReport(let why) = kind.error else { Issue.record("\(kind)"); return }
        #expect(why.hasPrefix("does not match memprof.report/1: events["))
        #expect(why.contains("].kind: 'lunch' is not an event kind (transition, callback"))
        // A missing key, a string for a number, a key twice in an event.
        let noKind = text.replacingOccurrences(of: ",\"kind\":\"launch\"", with: "")
        #expect(failure(noKind).map { "\($0.error)" }?.contains(": missing key 'kind'") == true)
        let first = try #require(text.range(of: #""atUs":\d+"#, options: .regularExpression))
        let stringTime = text.replacingCharacters(in: first, with: #""atUs":"soon""#)
        #expect(failure(stringTime).map { "\($0.error)" }?.contains("].atUs: expected a whole number, found '\"'") == true)
        let twice = text.replacingCharacters(in: first, with: text[first] + "," + text[first])
        #expect(failure(twice).map { "\($0.error)" }?.contains("duplicate key 'atUs'") == true)
        // The schema is checked before the shape of the large sections.
        let future = badKind.replacingOccurrences(of: "\"memprof.report/1\"", with: "\"memprof.report/9\"")
        #expect(failure(future)?.error == .unknownSchema("memprof.report/9"))
        // The small sections keep JSONDecoder's words.
        let noName = text.replacingOccurrences(of: "\"tool\":{\"name\":\"memprof\",", with: "\"tool\":{")
        #expect(failure(noName)?.error == .notAReport("does not match memprof.report/1: tool: missing key 'name'"))
        #expect(failure("")?.error == .notAReport("the file is empty"))
        #expect(failure("[1]")?.error == .notAReport("not a JSON object"))
        #expect(failure("\n  [1]")?.offset == 3, "located where the value starts")
        #expect(failure(#"{"a":1}"#)?.error == .notAReport("no 'schema' key"))
    }
}
