import Foundation
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofSampler
import MemprofTrace
import MemprofWorkload

/// One run of memprof, the one `memprof run` runs: a workload in, the files of its report folder
/// out (spec §11, `memprof run`).
///
/// It simulates (MemprofCore), runs and samples the background work the workload names
/// (MemprofSampler), and writes report.json, report.html, trace.json and, with samples, the stack
/// files into a report folder, replaced whole or not at all:
///
///     let loaded = try WorkloadSource.thisBuild.load("phone-day")
///     let artifacts = try RunPipeline.run(RunRequest(workload: loaded), writingTo: "Reports/phone-day", updatingIndex: true)
///     print(artifacts.summary(folder: "Reports/phone-day"))
public enum RunPipeline {
    /// Simulates `request.workload` and writes its files into the folder at `path` (created when
    /// missing) as the run goes: the
    /// engine's events, jetsam snapshots and memory changes go, in batches, to report.json's,
    /// report.html's and trace.json's sinks (`formats`, each a `RunFileSink`, through
    /// `FanOut`), each on a thread of its own; when the run has ended and its `ReportHead` is
    /// made, each puts its file together, side by side. The
    /// folder is replaced whole or not at all. With `updatingIndex` (the default `Reports/<name>/`,
    /// not `--out`), the `index.html` of the folder's parent, which lists its runs, is rewritten
    /// after; an index that cannot be rewritten is not an error (the run's files are complete).
    ///
    /// - Returns: the report's head (its events, jetsam snapshots and timeline are in the
    ///   files), the stack files, and the names of every file written, in order.
    /// - Throws: `OutputError` when a file cannot be written (nothing of the run remains).
    public static func run(_ request: RunRequest, writingTo path: String, updatingIndex: Bool = false) throws -> RunArtifacts {
        let workload = request.workload.workload
        let folder = URL(fileURLWithPath: path)
        let staged = try StagedFolder(replacing: folder, isOwnFile: fileNames.union(AllocationMetric.allCases.map(\.foldedFileName)).contains)
        do {
            let performer = request.makePerformer()
            let sinks = try makeSinks(workload: workload, eventLog: request.eventLog, sampledWork: performer != nil, folder: staged)
            let fanOut = FanOut(sinks)
            var options = Simulator.Options()
            options.progress = request.progress
            options.performer = performer
            options.sink = fanOut
            var simulator = Simulator(workload: workload, options: options)
            let started = DispatchTime.now()
            let startedCPU = WriterClock.Instant.now
            let result = simulator.run()
            // The simulating thread's CPU time, which other work on the machine does not inflate.
            request.cpuTimings?("simulation", Double(WriterClock.Instant.now.cpu &- startedCPU.cpu) / 1e6)
            // The time the simulation waited for the writers is theirs, not the simulation's.
            let elapsed = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
            let wallMs = Double(elapsed - min(elapsed, fanOut.waitedNs)) / 1e6
            fanOut.finish()

            let profile = performer?.makeProfile()
            let head = ReportHead(result: result, workloadSha256: request.workload.sha256, source: request.workload.source,
                                  host: .current(simulationWallMs: wallMs, processedOccurrences: result.processedOccurrences),
                                  profile: profile)
            // The files side by side (they need nothing of each other); failures and timings in
            // the files' order.
            for written in try finish(sinks[...], head) {
                let file = try written.get()
                request.timings?(file.name, Double(file.clock.wallNs) / 1e6, file.bytes)
                if file.streamed { request.cpuTimings?(file.name, Double(file.clock.cpuNs) / 1e6) }
            }
            var files: [OutputFile] = []
            if let profile { files = try stackFiles(for: profile.mappingStacks(HarnessFrames.work), workload: workload.name) }
            for file in files { try staged.write(file) }
            try staged.commit()
            if updatingIndex { try? RunIndex.write(into: folder.deletingLastPathComponent()) }
            return RunArtifacts(head: head, files: files, profile: profile, orderedApps: workload.apps.map(\.id),
                                sampling: request.sampling, fileNames: formats.map { $0.fileName } + files.map(\.name))
        } catch {
            staged.abort()
            throw error
        }
    }

    /// The formats of a run's files, in the order they are listed: one sink of each is made the
    /// same way, takes the run's batches, and is finished with the run's head.
    static let formats: [any RunFileSink.Type] = [ReportFileSink.self, PageSink.self, TraceFileSink.self]

    /// A sink of each of `formats`, made the same way.
    private static func makeSinks(workload: Workload, eventLog: EventLog, sampledWork: Bool,
                                  folder: StagedFolder) throws -> [any RunFileSink] {
        try formats.map { try $0.init(workload: workload, eventLog: eventLog, sampledWork: sampledWork, folder: folder) }
    }

    /// Finishes each sink on a thread of its own (the first on the calling thread); the results
    /// in the sinks' order.
    private static func finish(_ sinks: ArraySlice<any RunFileSink>, _ head: ReportHead) throws -> [Result<WrittenFile, any Error>] {
        guard let first = sinks.first else { return [] }
        if sinks.count == 1 { return [Result { try first.finish(head) }] }
        let (done, rest) = try inParallel({ Result { try first.finish(head) } }, { try finish(sinks.dropFirst(), head) })
        return [done] + rest
    }

    /// The files a run writes into its folder (and one folded file per allocation metric); anything
    /// else found there is not memprof's and is kept.
    public static let fileNames = Set(formats.map { $0.fileName } + ["stacks.folded", "profile.speedscope.json"])

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
