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

    /// Simulates `request.workload` and writes its files into `folder` as the run goes (issue 9):
    /// events, jetsam snapshots and memory changes flow from the simulation into report.json's and
    /// trace.json's text in scratch space beside the folder (`RunStream`), and the files are
    /// put together when the run ends. The folder is replaced whole or not at all.
    ///
    /// - Returns: the report without its events, jetsam snapshots and timeline (they are in the
    ///   files), the stack files, and the names of every file written, in order.
    /// - Throws: `OutputError` when a file cannot be written (nothing of the run remains).
    public static func run(_ request: RunRequest, writingTo folder: ReportFolder) throws -> RunArtifacts {
        let workload = request.workload.workload
        let staged = try folder.stage()
        do {
            let performer = request.makePerformer()
            let stream = RunStream(workload: workload, eventLog: request.eventLog, spill: try staged.makeSpillFile(),
                                   keepsHandlerRuns: performer != nil)
            var options = Simulator.Options()
            options.progress = request.progress
            options.performer = performer
            options.sink = stream
            var simulator = Simulator(workload: workload, options: options)
            let started = DispatchTime.now()
            let result = simulator.run()
            stream.finish()
            // The writers' share of the loop is theirs, not the simulation's.
            let writing = (stream.reportClock + stream.traceClock).wallNs
            let elapsed = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
            let wallMs = Double(elapsed - min(elapsed, writing)) / 1e6
            if let failure = stream.failure { throw failure }

            let profile = performer?.makeProfile()
            stream.addSampledWork(profile)
            let report = Report(result: result, workloadSha256: request.workload.sha256, source: request.workload.source,
                                host: .current(simulationWallMs: wallMs, processedOccurrences: result.processedOccurrences),
                                profile: profile)
            let orderedApps = workload.apps.map(\.id)
            try streamFile("report.json", into: staged, request: request, spent: stream.reportClock) { out, flush in
                try stream.report.write(report, into: &out, flush: flush)
            }
            let html = request.timed("report.html") {
                HTMLReport.data(report, orderedApps: orderedApps, memory: stream.finishMemory(),
                                lanes: stream.finishLanes(), history: stream.finishHistory())
            }
            try staged.write(OutputFile(name: "report.html", data: html))
            try streamFile("trace.json", into: staged, request: request, spent: stream.traceClock) { out, flush in
                try stream.trace.write(into: &out, flush: flush)
            }
            var files: [OutputFile] = []
            if let profile { files = try stackFiles(for: profile.mappingStacks(HarnessFrames.work), workload: workload.name) }
            for file in files { try staged.write(file) }
            try staged.commit()
            folder.updateIndex()
            return RunArtifacts(report: report, files: files, profile: profile, orderedApps: orderedApps,
                                sampling: request.sampling,
                                fileNames: ["report.json", "report.html", "trace.json"] + files.map(\.name))
        } catch {
            staged.abort()
            throw error
        }
    }

    /// Writes a file of the staged folder from `write`, which hands its text to `flush` in pieces;
    /// reports its time (with what was `spent` while the run went) and size to `request.timings`.
    static func streamFile(_ name: String, into staged: StagedFolder, request: RunRequest, spent: WriterClock,
                           _ write: (inout JSONWriter, (inout JSONWriter) throws -> Void) throws -> Void) throws {
        let file = try staged.stream(name)
        var clock = spent
        let start = WriterClock.Instant.now
        var out = JSONWriter(capacity: 1 << 21)
        var bytes = 0
        try write(&out) { out in
            bytes += out.bytes.count
            try file.append(out.bytes[...])
            out.bytes.removeAll(keepingCapacity: true)
        }
        clock.add(start, .now)
        try file.finish()
        request.timings?(name, Double(clock.wallNs) / 1e6, bytes)
        request.cpuTimings?(name, Double(clock.cpuNs) / 1e6)
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
