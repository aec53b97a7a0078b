import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofCore
import MemprofOutput
import MemprofRun
import MemprofSampler
import MemprofWorkload

/// `memprof run [WORKLOAD]`: a thin adapter over ``RunPipeline``.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Simulate a workload and write its report.",
        discussion: "WORKLOAD is a YAML or JSON file, or the name of a built-in workload (memprof list workloads). "
            + "Without one, the built-in default runs. Reports go to Reports/<name>/ under the current directory.")

    @Argument(help: "A workload file or built-in name (default: \(BuiltinWorkloads.defaultName)).")
    var workload: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Folder to write the report into (default: Reports/<name>).",
                                                      valueName: "folder"), transform: OutputPath.named)
    var out: String?

    @Option(help: "Seed for the random parts of the workload, instead of the file's.")
    var seed: UInt64?

    @OptionGroup var overrides: OverrideOptions

    @OptionGroup var sampling: SamplingOptions

    @Option(help: ArgumentHelp(
        "What report.json's event log keeps: all, decisions (compressions, evictions, reclaims, exits, warnings, "
            + "pressure, swap) or none.",
        discussion: "Summary, apps, timeline, jetsamEvents and notifications are always complete, and "
            + "report.html and trace.json are drawn from the whole log."))
    var events: EventLog = .all

    @OptionGroup var workLimits: WorkLimitOptions

    @Flag(help: ArgumentHelp(
        "Print how long each step took to standard error.",
        discussion: "One line per step: 'timing NAME MS ms BYTES bytes' (wall time, and for a file its size) and "
            + "'timing-cpu NAME MS ms' (the CPU time of the thread that did it)."))
    var timings = false

    func run() throws {
        let changes = try WorkloadOverride.list(device: overrides.device, policy: overrides.policy, assignments: overrides.assignments)
        var loaded = try WorkloadSource.thisBuild.load(workload, overrides: changes, limits: try workLimits.limits)
        printWarnings(loaded.warnings)
        if let seed { loaded.workload.seed = seed }
        let progress = ProgressLine(durationUs: loaded.workload.durationUs)
        var request = RunRequest(workload: loaded, sampling: sampling.sampling)
        request.eventLog = events
        request.progress = { progress.update($0) }
        if timings {
            request.timings = { name, ms, bytes in
                StandardStream.error("timing \(name) \(String(format: "%.1f", ms)) ms \(bytes) bytes\n")
            }
            request.cpuTimings = { name, ms in
                StandardStream.error("timing-cpu \(name) \(String(format: "%.1f", ms)) ms\n")
            }
        }
        // The default folder, Reports/<name>/, is listed in Reports/index.html; one given by --out is not.
        let folder = out ?? "Reports/\(loaded.workload.name)"
        let artifacts: RunArtifacts
        do {
            artifacts = try RunPipeline.run(request, writingTo: folder, updatingIndex: out == nil)
            progress.clear()
        } catch {
            progress.clear()
            throw error
        }
        try StandardStream.out(artifacts.summary(folder: folder) + "\n")
    }
}

extension EventLog: ExpressibleByArgument {}
