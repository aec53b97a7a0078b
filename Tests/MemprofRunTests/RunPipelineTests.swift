import Foundation
import MemprofCore
import MemprofInput
import MemprofOutput
import MemprofRun
import MemprofSampler
import MemprofTestSupport
import MemprofWorkload
import Testing

@Suite struct RunPipelineTests {
    /// The pipeline gives what the committed baselines hold (everything but `host` and
    /// `profile`), for every built-in workload: the same contract scripts/check-baselines.sh
    /// checks through the binary.
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func everyBuiltinMatchesItsBaseline(name: String) throws {
        let run = try ScratchRun(RunRequest(workload: try WorkloadSource.thisBuild.load(name), sampling: .unsampled))
        let json = try #require(run.files["report.json"])
        let baseline = try Data(contentsOf: Repository.baseline(name))
        let difference = try Snapshot.difference(json, baseline)
        #expect(difference == nil, "\(name): \(difference ?? "")")
    }

    @Test func aRunWithoutWorkWritesTheThreeFilesInOrder() throws {
        let run = try ScratchRun(RunRequest(workload: try WorkloadSource.thisBuild.load("ipad-afternoon")))
        #expect(run.artifacts.fileNames == ["report.json", "report.html", "trace.json"])
        #expect(run.listing == ["report.html", "report.json", "trace.json"])
        #expect(run.artifacts.profile == nil)
        let summary = run.artifacts.summary(folder: "out")
        #expect(summary.hasPrefix("ipad-afternoon: "))
        #expect(summary.hasSuffix("report     out/report.json\nhtml       out/report.html\ntrace      out/trace.json"))
    }

    @Test func timingsAreReportedPerFile() throws {
        nonisolated(unsafe) var seen: [String] = []
        var request = RunRequest(workload: try WorkloadSource.thisBuild.load("ipad-afternoon"))
        request.timings = { name, ms, bytes in
            #expect(ms >= 0 && bytes > 0)
            seen.append(name)
        }
        _ = try ScratchRun(request)
        #expect(seen == ["report.json", "report.html", "trace.json"])
    }

    /// `validate` and `run` load through ``WorkloadSource``: work naming a kernel this build does
    /// not have is refused by both, located.
    @Test func unknownKernelsAreBadInputWhereverWorkloadsAreRead() throws {
        let file = try Scratch.write("""
            memprof: 1
            name: k
            duration: 1m
            device: iphone-6-plus
            apps:
              mail:
                launch: {footprint: 40MB}
                modes: [fetch]
                fetch: {interval: 15m, time: 1s, work: {kernel: upload}}
            script:
              - {at: 0s, open: mail}
            """, name: "k.yaml")
        #expect {
            _ = try WorkloadSource.thisBuild.load(file.path)
        } throws: { error in
            let e = error as? WorkloadError
            return e?.line == 9 && e?.exitStatus == ExitStatus.badInput && (e?.message.contains("upload") ?? false)
        }
    }
}

/// `--events`: what report.json keeps of the log; everything else is complete.
@Suite struct EventLogTests {
    func run(_ log: EventLog) throws -> (report: [String: Any], files: [String: Data]) {
        // A workload without real work: its report.html and trace.json hold no measured times.
        var request = RunRequest(workload: try WorkloadSource.thisBuild.load("ipad-afternoon"), sampling: .unsampled)
        request.eventLog = log
        let files = try ScratchRun(request).files
        let json = try JSONSerialization.jsonObject(with: try #require(files["report.json"])) as? [String: Any]
        return (try #require(json), files)
    }

    /// The page without its `generated` wall-clock time (host facts are not deterministic).
    func withoutGeneratedTime(_ data: Data?) -> String {
        let page = String(decoding: data ?? Data(), as: UTF8.self)
        return page.replacing(/<dt>generated<\/dt><dd>[^<]*<\/dd>/, with: "")
    }

    @Test func decisionsAndNoneKeepEverythingButTheLog() throws {
        let all = try run(.all)
        let allEvents = try #require(all.report["events"] as? [[String: Any]])
        for log in [EventLog.decisions, .none] {
            let cut = try run(log)
            let events = try #require(cut.report["events"] as? [[String: Any]])
            let kinds = Set(events.compactMap { $0["kind"] as? String })
            if log == .none {
                #expect(events.isEmpty)
            } else {
                #expect(!events.isEmpty && events.count < allEvents.count)
                #expect(kinds.allSatisfy { SimEvent.Kind(rawValue: $0)?.outputs.isDecision == true })
                let expected = allEvents.filter { SimEvent.Kind(rawValue: $0["kind"] as? String ?? "")?.outputs.isDecision == true }
                #expect(events.count == expected.count)
            }
            for key in ["summary", "apps", "timeline", "jetsamEvents", "notifications", "run", "device", "policy"] {
                let a = try JSONSerialization.data(withJSONObject: all.report[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
                let b = try JSONSerialization.data(withJSONObject: cut.report[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
                #expect(a == b, "\(log): \(key) differs")
            }
            #expect(withoutGeneratedTime(cut.files["report.html"]) == withoutGeneratedTime(all.files["report.html"]))
            #expect(cut.files["trace.json"] == all.files["trace.json"])
        }
    }
}
