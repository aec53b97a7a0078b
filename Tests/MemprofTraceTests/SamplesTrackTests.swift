import Foundation
import MemprofCore
import MemprofProfile
import MemprofReport
import MemprofTestSupport
import Testing
@testable import MemprofTrace

@Suite struct SamplesTrackTests {
    /// background-heavy: `news` fetches (sort work) every 10 minutes and `uploader` runs a
    /// 4-minute background task (compress work). Give the report a hand-made profile whose runs
    /// are in the order the simulation started those handlers.
    @Test func everyRunOfWorkSitsOverItsHandlerOnTheSamplesTrack() throws {
        var report = try ReportFixture.builtin("background-heavy")
        let starts = report.events.filter { $0.kind == .handlerStart && ["fetch", "backgroundTask"].contains($0.fields.handler ?? "")
            && ["news", "uploader"].contains($0.app ?? "") }
        let runs = starts.enumerated().map { index, event in
            WorkRun(app: event.app!, handler: event.fields.handler!, kernel: event.app == "news" ? "sort" : "compress",
                    samples: 10 + index, wallMicroseconds: 1000, cpuMicroseconds: 900)
        }
        #expect(runs.count >= 3)
        report.profile = SamplingProfile(sampler: .off, handlers: [], runs: runs)
        let object = try #require(try JSONSerialization.jsonObject(with: TraceJSON.encode(report)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let slices = events.filter { ($0["tid"] as? Int) == Int(TraceJSON.samplesTid) && $0["ph"] as? String == "X" }
        #expect(slices.count == runs.count)
        for (slice, (run, start)) in zip(slices.sorted { ($0["ts"] as! Int) < ($1["ts"] as! Int) }, zip(runs, starts)) {
            #expect(slice["ts"] as? Int == Int(start.atUs))
            #expect(slice["name"] as? String == "work: \(run.kernel)")
            #expect((slice["dur"] as? Int ?? -1) >= 0)
            #expect((slice["args"] as? [String: Any])?["samples"] as? Int == run.samples)
        }
        let names = events.filter { $0["name"] as? String == "thread_name" && ($0["tid"] as? Int) == Int(TraceJSON.samplesTid) }
        #expect(names.count == 2, "one samples track per app with work")
    }

    @Test func noProfileNoSamplesTrack() throws {
        let report = try ReportFixture.builtin("background-heavy")
        let object = try #require(try JSONSerialization.jsonObject(with: TraceJSON.encode(report)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(!events.contains { ($0["tid"] as? Int) == Int(TraceJSON.samplesTid) })
    }
}
