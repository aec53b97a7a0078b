import Foundation
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofSampler
import MemprofTrace
import MemprofWorkload

/// One run of memprof: a workload in, a report and its files out (spec §11, `memprof run`).
///
/// The pipeline loads nothing and writes nothing: it simulates, runs and samples the background
/// work the workload names, builds the `Report` (MemprofReport) and renders every file of a report folder.
/// ``ReportFolder`` writes them; `memprof run` is a thin adapter over the two.
///
///     let loaded = try WorkloadSource.load("phone-day")
///     let artifacts = try RunPipeline.run(RunRequest(workload: loaded))
///     try ReportFolder(path: "Reports/phone-day").write(artifacts)
public enum RunPipeline {
    /// Simulates `request.workload` and renders its files.
    ///
    /// - Returns: the report, the files of its folder in the order they are listed, and the
    ///   sampling profile when background work ran.
    /// - Throws: an encoding error of a file format (not expected for a valid report).
    public static func run(_ request: RunRequest) throws -> RunArtifacts {
        let workload = request.workload.workload
        var options = Simulator.Options()
        options.progress = request.progress
        let performer = request.makePerformer()
        options.performer = performer
        var simulator = Simulator(workload: workload, options: options)
        let started = DispatchTime.now()
        let result = simulator.run()
        let wallMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6

        let profile = performer?.makeProfile()
        let report = Report(result: result, workloadSha256: request.workload.sha256, source: request.workload.source,
                            host: .current(simulationWallMs: wallMs, processedOccurrences: result.processedOccurrences),
                            profile: profile)
        let orderedApps = workload.apps.map(\.id)
        // report.json keeps what was asked of the log; report.html and trace.json draw all of it.
        var logged = report
        if request.eventLog != .all { logged.events.removeAll { !request.eventLog.keeps($0.kind) } }
        var files = [
            OutputFile(name: "report.json", data: try request.timed("report.json") { try ReportJSON.encode(logged) }),
            OutputFile(name: "report.html",
                       data: request.timed("report.html") { HTMLReport.data(report, orderedApps: orderedApps) }),
            OutputFile(name: "trace.json", data: try request.timed("trace.json") { try TraceJSON.encode(report) }),
        ]
        // Stack files start at the work: memprof's own frames above a kernel are left out.
        if let profile { files += try stackFiles(for: profile.mappingStacks(HarnessFrames.work), workload: workload.name) }
        return RunArtifacts(report: logged, files: files, profile: profile, orderedApps: orderedApps,
                            sampling: request.sampling)
    }

    /// The stack files of a profile: written only when samples were collected or a program's
    /// allocations tracked; one folded file per allocation metric (spec §8.1).
    static func stackFiles(for profile: SamplingProfile, workload: String) throws -> [OutputFile] {
        guard profile.hasSamples || profile.hasAllocations else { return [] }
        var files: [OutputFile] = []
        if profile.hasSamples {
            files.append(OutputFile(name: "stacks.folded", data: Data(profile.makeFoldedStacks().utf8)))
        }
        if profile.hasAllocations {
            files += AllocationMetric.allCases.map { metric in
                OutputFile(name: metric.foldedFileName, data: Data(profile.makeFoldedStacks(of: metric).utf8))
            }
        }
        files.append(OutputFile(name: "profile.speedscope.json",
                                data: try profile.makeSpeedscopeJSON(name: "memprof \(workload)")))
        return files
    }
}
