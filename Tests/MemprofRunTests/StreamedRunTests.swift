import Foundation
import MemprofCore
import MemprofRun
import MemprofTestSupport
import MemprofWorkload
import Testing

/// A run written as it goes (issue 9: `RunPipeline.run(_:writingTo:)`, what `memprof run` does)
/// writes the same files as the run held whole in memory (`RunPipeline.run(_:)`), byte for byte
/// apart from wall-clock facts (`host`, the page's `generated` time) and measured work.
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
        var request = RunRequest(workload: try WorkloadSource.load(name), sampling: .unsampled)
        request.eventLog = log
        let whole = try RunPipeline.run(request)
        let dir = try Scratch.makeDirectory("streamed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("run")
        let streamed = try RunPipeline.run(request, writingTo: ReportFolder(path: folder.path))
        #expect(streamed.fileNames == whole.files.map(\.name))
        #expect(Scratch.listing(folder) == whole.files.map(\.name).sorted())
        let files = Dictionary(uniqueKeysWithValues: whole.files.map { ($0.name, $0.data) })
        func written(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        let measured = whole.profile?.runs.isEmpty == false
        if measured {
            let profile = /,"profile":\{.*\},"run":/
            #expect(Self.withoutHost(try written("report.json")).replacing(profile, with: "")
                == Self.withoutHost(try #require(files["report.json"])).replacing(profile, with: ""))
        } else {
            #expect(Self.withoutHost(try written("report.json")) == Self.withoutHost(try #require(files["report.json"])))
            #expect(try written("trace.json") == files["trace.json"])
            #expect(Self.withoutGeneratedTime(try written("report.html"))
                == Self.withoutGeneratedTime(try #require(files["report.html"])))
        }
    }
}
