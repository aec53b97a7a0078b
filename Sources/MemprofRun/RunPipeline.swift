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

    /// Simulates `request.workload` and writes its files into `folder` as the run goes:
    /// events, jetsam snapshots and memory changes flow from the simulation into report.json's and
    /// trace.json's text in scratch space beside the folder (`RunStream`); trace.json is written
    /// as the run goes (unless work is sampled: its samples track comes after the run), and the
    /// other files are put together when the run ends. The folder is replaced whole or not at all.
    ///
    /// - Returns: the report without its events, jetsam snapshots and timeline (they are in the
    ///   files), the stack files, and the names of every file written, in order.
    /// - Throws: `OutputError` when a file cannot be written (nothing of the run remains).
    public static func run(_ request: RunRequest, writingTo folder: ReportFolder) throws -> RunArtifacts {
        let workload = request.workload.workload
        let staged = try folder.stage()
        do {
            let performer = request.makePerformer()
            // report.json, trace.json and what report.html draws each on a thread of its own, the
            // files spilling into a scratch file of their own.
            let reportStream = RunStream(workload: workload, eventLog: request.eventLog, spill: try staged.makeSpillFile(),
                                         keepsHandlerRuns: false, parts: .report)
            let pageStream = RunStream(workload: workload, eventLog: request.eventLog, spill: try staged.makeSpillFile(),
                                       keepsHandlerRuns: performer != nil, parts: .page)
            // trace.json is written as the run goes, unless the run's work is sampled (the samples
            // track is made after the run).
            let traceStream = RunStream(workload: workload, eventLog: request.eventLog, spill: try staged.makeSpillFile(),
                                        keepsHandlerRuns: performer != nil, parts: .trace,
                                        traceFile: performer == nil ? try staged.stream("trace.json", direct: true) : nil)
            var options = Simulator.Options()
            options.progress = request.progress
            options.performer = performer
            // The text is made on other threads while the simulation goes on.
            let relay = SinkRelay([reportStream, traceStream, pageStream])
            options.sink = relay
            var simulator = Simulator(workload: workload, options: options)
            let started = DispatchTime.now()
            let startedCPU = WriterClock.Instant.now
            let result = simulator.run()
            // The simulating thread's CPU time, which other work on the machine does not inflate.
            request.cpuTimings?("simulation", Double(WriterClock.Instant.now.cpu &- startedCPU.cpu) / 1e6)
            // The time the simulation waited for the writers is theirs, not the simulation's.
            let elapsed = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
            let wallMs = Double(elapsed - min(elapsed, relay.waitedNs)) / 1e6
            relay.finish { [reportStream, traceStream, pageStream] in [reportStream, traceStream, pageStream][$0].finish() }
            if let failure = reportStream.failure ?? traceStream.failure ?? pageStream.failure { throw failure }

            let profile = performer?.makeProfile()
            traceStream.addSampledWork(profile)
            let report = Report(result: result, workloadSha256: request.workload.sha256, source: request.workload.source,
                                host: .current(simulationWallMs: wallMs, processedOccurrences: result.processedOccurrences),
                                profile: profile)
            let orderedApps = workload.apps.map(\.id)
            let assembly = FileAssembly(reportStream: reportStream, traceStream: traceStream, pageStream: pageStream,
                                        staged: staged, report: report, orderedApps: orderedApps)
            assembly.writeAll()
            // Failures and timings in the files' order, as when they were written one by one.
            for written in [assembly.reportJSON, assembly.reportHTML, assembly.traceJSON] {
                let file = try written.get()
                request.timings?(file.name, Double(file.clock.wallNs) / 1e6, file.bytes)
                if file.streamed { request.cpuTimings?(file.name, Double(file.clock.cpuNs) / 1e6) }
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

    /// report.json, report.html and (when it was not written as the run went) trace.json of a
    /// streamed run, put together side by side once the run has ended (they need nothing of each
    /// other; on two cores this part of a long run, reading the scratch back and writing the
    /// files, takes half the time). report.json is written in two halves side by side
    /// (``PartedFile``): up to the end of its `events`, and the rest.
    ///
    /// Unchecked: each part reads its own streams of the run (the scratch files with `pread`),
    /// writes its own file or part and sets its own result; the run's streams are not changed
    /// meanwhile except by report.html's part (the digests), which nothing else reads.
    private final class FileAssembly: @unchecked Sendable {
        let reportStream: RunStream
        let traceStream: RunStream
        let pageStream: RunStream
        let staged: StagedFolder
        let report: Report
        let orderedApps: [String]
        var reportJSON: Result<WrittenFile, any Error> = .failure(CancellationError())
        var reportHTML: Result<WrittenFile, any Error> = .failure(CancellationError())
        var traceJSON: Result<WrittenFile, any Error> = .failure(CancellationError())

        init(reportStream: RunStream, traceStream: RunStream, pageStream: RunStream, staged: StagedFolder, report: Report,
             orderedApps: [String]) {
            self.reportStream = reportStream
            self.traceStream = traceStream
            self.pageStream = pageStream
            self.staged = staged
            self.report = report
            self.orderedApps = orderedApps
        }

        /// report.json's text around its streamed sections, and its file in two parts.
        private var reportFile: Result<(skeleton: ReportStreams.Skeleton, file: PartedFile), any Error>
            = .failure(CancellationError())
        /// What writing each part of report.json took, or its failure (each set by its own thread).
        private var firstPart: Result<WriterClock, any Error> = .failure(CancellationError())
        private var secondPart: Result<WriterClock, any Error> = .failure(CancellationError())

        /// Writes the files side by side: trace.json (unless it was written as the run went) and
        /// report.json's two halves on threads of their own (much of their time is the disk's:
        /// they are written past the page cache), report.html on the caller's meanwhile.
        /// (`concurrentPerform` would run no more parts than there are cores: the page waited for
        /// one of the others.)
        func writeAll() {
            reportFile = Result {
                let skeleton = try ReportStreams.Skeleton(report)
                let file = try staged.stream("report.json", direct: true,
                                             partsAt: [0, reportStream.report.firstPartLength(skeleton)])
                return (skeleton, file)
            }
            let done = DispatchGroup()
            for part in 0..<3 where part != 0 || traceStream.writtenTrace == nil {
                done.enter()
                let thread = Thread { [self] in
                    write(part: part)
                    done.leave()
                }
                thread.name = "memprof assembly"
                thread.stackSize = 1 << 22
                thread.start()
            }
            write(part: 3)
            done.wait()
            if let written = traceStream.writtenTrace { traceJSON = .success(written) }
            reportJSON = Result {
                let file = try reportFile.get().file
                var clock = reportStream.reportClock
                let parts = [try firstPart.get(), try secondPart.get()]
                clock.wallNs += parts.map(\.wallNs).max() ?? 0
                clock.cpuNs += parts.reduce(0) { $0 + $1.cpuNs }
                let start = WriterClock.Instant.now
                try file.finish()
                clock.add(start, .now)
                return WrittenFile(name: "report.json", clock: clock,
                                   bytes: Int(file.parts.reduce(0) { $0 + $1.appended }), streamed: true)
            }
        }

        /// Writes part `k` of report.json (0: up to the end of `events`, 1: the rest) and
        /// finishes it; the time it took.
        private func reportPart(_ k: Int) -> Result<WriterClock, any Error> {
            Result {
                let (skeleton, file) = try reportFile.get()
                let clock = try streamPart(file.parts[k]) { out, flush in
                    if k == 0 {
                        try reportStream.report.writeFirstPart(skeleton, into: &out, flush: flush)
                    } else {
                        try reportStream.report.writeSecondPart(skeleton, into: &out, flush: flush)
                    }
                }
                try file.parts[k].finish()
                return clock
            }
        }

        /// Writes a file, or a part of report.json.
        func write(part: Int) {
            switch part {
            case 0:
                traceJSON = Result {
                    try streamFile("trace.json", into: staged, spent: traceStream.traceClock) { out, flush in
                        try traceStream.writeTrace(into: &out, flush: flush)
                    }
                }
            case 1:
                firstPart = reportPart(0)
            case 2:
                secondPart = reportPart(1)
            default:
                reportHTML = Result {
                    var clock = WriterClock()
                    let start = WriterClock.Instant.now
                    let html = HTMLReport.data(report, orderedApps: orderedApps, memory: pageStream.finishMemory(),
                                               lanes: pageStream.finishLanes(), history: pageStream.finishHistory())
                    clock.add(start, .now)
                    try staged.write(OutputFile(name: "report.html", data: html))
                    return WrittenFile(name: "report.html", clock: clock, bytes: html.count, streamed: false)
                }
            }
        }
    }

    /// A file written into the staged folder: the time its writer took (for a streamed file, with
    /// what it spent while the run went) and its size.
    struct WrittenFile {
        var name: String
        var clock: WriterClock
        var bytes: Int
        /// Whether its text was made while the run went (report.json, trace.json).
        var streamed: Bool
    }

    /// Writes a file of the staged folder from `write`, which hands its text to `flush` in pieces;
    /// returns its time (with what was `spent` while the run went) and size.
    static func streamFile(_ name: String, into staged: StagedFolder, spent: WriterClock,
                           _ write: (inout JSONWriter, (inout JSONWriter) throws -> Void) throws -> Void) throws -> WrittenFile {
        let file = try staged.stream(name, direct: true)
        var clock = try streamPart(file, write)
        clock.wallNs += spent.wallNs
        clock.cpuNs += spent.cpuNs
        try file.finish()
        return WrittenFile(name: name, clock: clock, bytes: Int(file.appended), streamed: true)
    }

    /// Writes `file` (or a part of a file) from `write`, which hands its text to `flush` in
    /// pieces; returns the time it took (not finished: the caller finishes it).
    static func streamPart(_ file: StreamedFile,
                           _ write: (inout JSONWriter, (inout JSONWriter) throws -> Void) throws -> Void) throws -> WriterClock {
        var clock = WriterClock()
        let start = WriterClock.Instant.now
        var out = JSONWriter(capacity: 1 << 21)
        try write(&out) { try file.append(emptying: &$0) }
        clock.add(start, .now)
        return clock
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
