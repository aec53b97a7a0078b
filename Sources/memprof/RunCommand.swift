import MemprofOutput
import ArgumentParser
import Foundation
import MemprofCore
import MemprofHTML
import MemprofReport
import MemprofSampler
import MemprofTrace
import MemprofWorkload

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Simulate a workload and write its report.",
        discussion: "WORKLOAD is a YAML or JSON file, or the name of a built-in workload (memprof list workloads). "
            + "Without one, the built-in default runs. Reports go to Reports/<name>/ under the current directory.")

    @Argument(help: "A workload file or built-in name (default: \(BuiltinWorkloads.defaultName)).")
    var workload: String?

    @Option(help: "Folder to write the report into (default: Reports/<name>).")
    var out: String?

    @Option(help: "Seed for the random parts of the workload, instead of the file's.")
    var seed: UInt64?

    @OptionGroup var sampling: SamplingOptions

    func run() throws {
        var loaded: LoadedWorkload
        do {
            loaded = try WorkloadLoader.load(workload, knownKernels: Set(WorkRegistry.names))
        } catch let error as WorkloadError {
            throw BadInput(description: error.description)
        }
        if let seed { loaded.workload.seed = seed }
        let progress = ProgressLine(durationUs: loaded.workload.durationUs)
        var options = Simulator.Options()
        if progress.isEnabled {
            options.progress = { progress.update($0) }
        }
        let performer = sampling.makePerformer(for: loaded.workload)
        options.performer = performer
        var simulator = Simulator(workload: loaded.workload, options: options)
        let started = DispatchTime.now()
        let result = simulator.run()
        let wallMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        progress.clear()

        let profile = performer?.makeProfile()
        let report = Report(result: result, workloadSha256: loaded.sha256, source: loaded.source,
                            host: .current(simulationWallMs: wallMs, processedOccurrences: result.processedOccurrences),
                            profile: profile)
        let stacks = try profile.map { try stackFiles(for: $0, workload: loaded.workload.name) } ?? []
        let folder = out ?? "Reports/\(loaded.workload.name)"
        let directory = URL(fileURLWithPath: folder)
        let orderedApps = loaded.workload.apps.map(\.id)
        try AtomicFiles.write([
            ("report.json", try ReportJSON.encode(report)),
            ("report.html", timed("report.html") { HTMLReport.data(report, orderedApps: orderedApps) }),
            ("trace.json", try timed("trace.json") { try TraceJSON.encode(report) }),
        ] + stacks, into: directory)
        if out == nil { try? RunIndex.write(into: directory.deletingLastPathComponent()) }

        print(TerminalSummary.render(report, orderedApps: loaded.workload.apps.map(\.id)))
        print("")
        print("report     \(folder)/report.json")
        print("html       \(folder)/report.html")
        print("trace      \(folder)/trace.json")
        if let line = profileLine(profile, sampling: sampling) { print(line) }
        for file in stacks { print("stacks     \(folder)/\(file.name)") }
    }
}

/// Runs `make`; with MEMPROF_TIMINGS set, prints how long it took and how large the result is
/// on stderr (scripts/bench-html.sh reads these lines).
func timed(_ name: String, _ make: () throws -> Data) rethrows -> Data {
    guard ProcessInfo.processInfo.environment["MEMPROF_TIMINGS"] != nil else { return try make() }
    let start = DispatchTime.now().uptimeNanoseconds
    let data = try make()
    let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    FileHandle.standardError.write(Data("timing \(name) \(Format.oneDecimal(ms)) ms \(data.count) bytes\n".utf8))
    return data
}

/// A one-line progress display on stderr, only when stderr is a terminal.
final class ProgressLine: @unchecked Sendable {
    let durationUs: Microseconds
    let isEnabled = isatty(STDERR_FILENO) == 1
    private var shown = false

    init(durationUs: Microseconds) {
        self.durationUs = durationUs
    }

    func update(_ now: Microseconds) {
        let percent = durationUs > 0 ? Int(now * 100 / durationUs) : 100
        FileHandle.standardError.write(Data("\rsimulating \(Format.duration(now)) of \(Format.duration(durationUs)) (\(percent)%)".utf8))
        shown = true
    }

    func clear() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
