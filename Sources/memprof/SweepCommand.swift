import MemprofWorkload
import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofFleet
import MemprofOutput

/// `memprof sweep FILE [--shard K/N]`: a thin adapter over ``SweepPlan`` and ``FleetSweep``.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a fleet sweep: a workload over many seeds and a matrix of devices, policies and keys.",
        discussion: "Writes fleet.json, runs.csv and fleet.html into Reports/<sweep>/ (or --out). "
            + "With --shard K/N, runs the K-th of N parts and writes a partial result for memprof merge. "
            + "A cell's runs take the file's set:, its per: keys, then --device, --policy and --set, then its matrix values. "
            + "The summary's columns (README \"Fleets\" defines each): a day is one run of the workload; "
            + "\"memory kills a day\" is the mean of the apps' memory kills together (apps.APP.memoryKills: "
            + "jetsam ending the app for memory, as memoryPressure, memoryLimit, highwater, idleExit or "
            + "longIdleExit; daemons' kills are not counted), \"days with a memory kill\" the share of runs "
            + "with at least one; the eviction, cold-launch and peak columns read summary.evictions, "
            + "summary.coldLaunches and summary.peakUsedBytes.")

    @Argument(help: "A sweep file (YAML or JSON), or a built-in sweep: phone-fleet, phone-day-200, today-phones.")
    var file: String

    @Option(name: [.short, .long],
            help: ArgumentHelp("Folder to write into (default: Reports/<sweep>, or Reports/<sweep>-shard-K-of-N).",
                               valueName: "folder"), transform: OutputPath.named)
    var out: String?

    @Option(help: "Run only the K-th of N parts of the sweep (1-based), for memprof merge.")
    var shard: String?

    @OptionGroup var overrides: OverrideOptions

    @Option(help: "Threads to run on (default: every core). The result does not depend on it.")
    var threads: Int?

    @Option(name: .customLong("app"), help: ArgumentHelp("Also print this app's figures per cell (repeatable).", valueName: "app"))
    var apps: [String] = []

    func run() throws {
        var parsedShard: SweepPlan.Shard?
        if let shard {
            guard let s = SweepPlan.Shard.parse(shard) else {
                throw BadInput(SweepPlan.Shard.problem(with: shard) ?? "--shard \(shard): expected K/N with 1 ≤ K ≤ N, such as 2/8")
            }
            parsedShard = s
        }
        if let threads, !(1...1024).contains(threads) { throw BadInput("--threads must be between 1 and 1024, not \(threads)") }
        let changes = try WorkloadOverride.list(device: overrides.device, policy: overrides.policy, assignments: overrides.assignments)
        let plan = try SweepPlan(sweep: try SweepFile.load(file), shard: parsedShard, overrides: changes)
        let known = plan.cells.flatMap { $0.workload.workload.apps.map(\.id) }
        for app in apps where !known.contains(app) {
            throw BadInput("--app \(app): no app '\(app)' in the sweep's workload; it has: \(Array(Set(known)).sorted().joined(separator: ", "))")
        }
        let folder = out ?? "Reports/\(plan.sweep.name)" + (parsedShard.map { "-shard-\($0.index)-of-\($0.count)" } ?? "")
        let threadCount = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let result = try FleetSweep.run(plan, threads: threadCount, into: URL(fileURLWithPath: folder))
        try StandardStream.out(FleetSummary.render(result, folder: folder, apps: apps) + "\n")
    }
}
