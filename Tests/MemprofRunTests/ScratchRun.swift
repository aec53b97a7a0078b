import Foundation
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofReportReader
@testable import MemprofRun
import MemprofTestSupport
import MemprofTrace
import Testing

/// `memprof run`'s pipeline (``RunPipeline/run(_:writingTo:updatingIndex:)``) into a scratch folder, and what
/// it wrote there.
struct ScratchRun {
    let artifacts: RunArtifacts
    /// Every file of the folder, by name.
    let files: [String: Data]
    /// The folder's listing, sorted.
    let listing: [String]

    init(_ request: RunRequest) throws {
        let dir = try Scratch.makeDirectory("run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("report")
        artifacts = try RunPipeline.run(request, writingTo: folder.path)
        listing = Scratch.listing(folder)
        var files: [String: Data] = [:]
        for name in listing { files[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
        self.files = files
    }

    /// report.json read back whole (with the events, jetsam snapshots and timeline the returned
    /// report leaves to the file).
    func report() throws -> Report { try ReportJSON.decode(try #require(files["report.json"])) }
}

/// The same run held whole in memory and written by each format's whole-report writer
/// (`ReportJSON.encode`, `HTMLReport.data`, `TraceJSON.encode`): what the files written as the run
/// goes must equal.
struct WholeRun {
    let report: Report
    let profile: SamplingProfile?
    /// report.json (what its log keeps), report.html and trace.json.
    let files: [String: Data]

    init(_ request: RunRequest) throws {
        let workload = request.workload.workload
        var options = Simulator.Options()
        let performer = request.makePerformer()
        options.performer = performer
        var simulator = Simulator(workload: workload, options: options)
        let result = simulator.run()
        profile = performer?.makeProfile()
        let whole = Report(result: result, workloadSha256: request.workload.sha256, source: request.workload.source,
                           host: .current(simulationWallMs: 0, processedOccurrences: result.processedOccurrences),
                           profile: profile)
        var logged = whole
        logged.events.removeAll { !request.eventLog.keeps($0.kind) }
        report = logged
        files = ["report.json": try ReportJSON.encode(logged),
                 "report.html": HTMLReport.data(whole, orderedApps: workload.apps.map(\.id)),
                 "trace.json": try TraceJSON.encode(whole)]
    }
}
