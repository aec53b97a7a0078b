import Foundation
import MemprofCore
import MemprofReport
import MemprofRun
import MemprofSampler
import MemprofTestSupport
import MemprofWorkload
import Testing

/// A run written as it goes (`RunPipeline.run(_:writingTo:updatingIndex:)`, what `memprof run` does) writes
/// the files each format's whole-report writer makes of the same run held in memory, byte for
/// byte apart from wall-clock facts (`host`, the page's `generated` time) and measured work.
@Suite struct StreamedRunTests {
    static func withoutHost(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).replacing(/"host":\{[^}]*\}/, with: "")
    }

    static func withoutGeneratedTime(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).replacing(/<dt>generated<\/dt><dd>[^<]*<\/dd>/, with: "")
    }

    /// Every built-in workload, with each event log: report.json, report.html and trace.json
    /// equal the whole run's (workloads whose work runs measure its time: their profile and
    /// samples track differ from run to run and are left out of the comparison).
    @Test(arguments: BuiltinWorkloads.all.map(\.name), EventLog.allCases)
    func streamedFilesEqualTheWholeRunsFiles(name: String, log: EventLog) throws {
        var request = RunRequest(workload: try WorkloadSource.thisBuild.load(name), sampling: .unsampled)
        request.eventLog = log
        _ = try Self.expectStreamedEqualsWhole(request)
    }

    /// A long run (two days of generated use by twelve apps: tens of thousands of events and
    /// memory changes, so many chunks of the relay, blocks of every scratch stream, and jetsam
    /// snapshots kept as numbers) writes the whole run's files too, under both policies.
    @Test(arguments: ["seed-2015", "xnu"])
    func aLongStreamedRunWritesTheWholeRunsFiles(policy: String) throws {
        let dir = try Scratch.makeDirectory("long-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("long.yaml")
        try Self.longWorkload(policy: policy).write(to: file, atomically: true, encoding: .utf8)
        let request = RunRequest(workload: try WorkloadSource.thisBuild.load(file.path), sampling: .unsampled)
        let whole = try Self.expectStreamedEqualsWhole(request)
        #expect(whole.events.count > 40_000)
        #expect(whole.jetsamEvents.count > 100)
    }

    /// A workload with processes that are not apps (spec §5): their memory changes, a highwater
    /// kill, a process killed by band and their jetsam snapshots come out the same streamed.
    @Test func processesStreamTheSame() throws {
        let dir = try Scratch.makeDirectory("processes-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("processes.yaml")
        try WorkloadFixtures.processes.write(to: file, atomically: true, encoding: .utf8)
        let whole = try Self.expectStreamedEqualsWhole(RunRequest(workload: try WorkloadSource.thisBuild.load(file.path),
                                                                  sampling: .unsampled))
        // The apps compress at a ratio of 1, so suspended ones keep their footprints in RAM.
        // 30 s: wifianalyticsd (7 MB over its 6 MB mark) dies under pressure. 40 s: maps needs
        // 100 MB more: the idle band goes first, NewsTag (a process, band 0, there from the start)
        // before mail (band 0 since its suspension).
        #expect(whole.jetsamEvents.map { "\($0.killed) \($0.exitReason.rawValue)" }.prefix(2)
            == ["wifianalyticsd highwater", "NewsTag memoryPressure"])
        #expect(whole.summary.terminations["highwater"] == 1)
    }

    /// Twelve apps of 40 to 260 MB on an iPhone 6 Plus for 48 hours, switched every 20 s.
    static func longWorkload(policy: String) -> String {
        var text = "memprof: 1\nname: long\nseed: 7\nduration: 48h\ndevice: iphone-6-plus\npolicy: \(policy)\napps:\n"
        for i in 0..<12 {
            text += """
                  app\(i):
                    launch: {footprint: \(40 + 20 * i)MB, time: 800ms}
                    onBackground: {release: \(5 + i)MB, time: 1s}
                    onMemoryWarning: {release: 4MB}

                """
            if i % 3 == 0 { text += "    modes: [fetch]\n    fetch: {interval: 15m, time: 3s, allocates: 2MB}\n" }
        }
        text += "script:\n  - {at: 0s, open: app0}\ngenerate:\n  switchEvery: 20s\n  homeEvery: 10m\n"
        return text
    }

    /// Runs `request` whole in memory and streamed, expects the same files; returns the whole run's report.
    static func expectStreamedEqualsWhole(_ request: RunRequest) throws -> Report {
        let whole = try WholeRun(request)
        let streamed = try ScratchRun(request)
        let names = ["report.json", "report.html", "trace.json"] + streamed.artifacts.files.map(\.name)
        #expect(streamed.artifacts.fileNames == names)
        #expect(streamed.listing == names.sorted())
        let measured = whole.profile?.runs.isEmpty == false
        func written(_ name: String) throws -> Data { try #require(streamed.files[name]) }
        if measured {
            let profile = /,"profile":\{.*\},"run":/
            #expect(Self.withoutHost(try written("report.json")).replacing(profile, with: "")
                == Self.withoutHost(try #require(whole.files["report.json"])).replacing(profile, with: ""))
        } else {
            #expect(Self.withoutHost(try written("report.json")) == Self.withoutHost(try #require(whole.files["report.json"])))
            #expect(try written("trace.json") == whole.files["trace.json"])
            #expect(Self.withoutGeneratedTime(try written("report.html"))
                == Self.withoutGeneratedTime(try #require(whole.files["report.html"])))
        }
        return whole.report
    }
}
