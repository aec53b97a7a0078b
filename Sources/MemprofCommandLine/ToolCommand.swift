import ArgumentParser

/// The commands that `memprof-tools` runs for `memprof`: their names and help, held once, for the
/// commands themselves (in `memprof-tools`) and for the entries in `memprof`'s command list that
/// hand the command line over to them.
public struct ToolCommand: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String

    /// The configuration of the command itself.
    public var configuration: CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, discussion: discussion)
    }

    /// The configuration of its entry in `memprof`: the same help in the command list, and no help
    /// flags of its own, so `memprof NAME --help` reaches the command.
    public var passthroughConfiguration: CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, discussion: discussion, helpNames: [])
    }

    /// Every command `memprof-tools` runs, in the order `memprof --help` lists them.
    public static let all: [ToolCommand] = [sweep, merge, compare, check, export, `import`]

    public static let sweep = ToolCommand(
        name: "sweep",
        abstract: "Run a fleet sweep: a workload over many seeds and a matrix of devices, policies and keys.",
        discussion: "Writes fleet.json, runs.csv and fleet.html into Reports/<sweep>/ (or --out). "
            + "With --shard K/N, runs the K-th of N parts and writes a partial result for memprof merge.")

    public static let merge = ToolCommand(
        name: "merge",
        abstract: "Combine the shards of a sweep (memprof sweep --shard K/N) into one result.",
        discussion: "Refuses parts of different sweeps, a shard given twice, a missing shard (unless --partial) "
            + "and folders that are not memprof.fleet/1 results.")

    public static let compare = ToolCommand(
        name: "compare",
        abstract: "Compare two reports metric by metric; exit 1 when something got worse.",
        discussion: """
            BASE and NEW are report.json files or folders holding one. Counts (evictions, kills, launches, \
            warnings) fail on any rise by default, because the simulation is deterministic; sizes and \
            durations fail beyond --threshold (default 5%). Exit 0 when nothing is worse, 1 when something \
            is, 2 for bad input.
            """)

    public static let check = ToolCommand(
        name: "check",
        abstract: "Check a report against absolute budgets; exit 1 when one is broken.",
        discussion: """
            The budget file maps metrics to limits, e.g.
              apps:
                mail: {evictions: {max: 1}, exits.memoryLimit: {max: 0}, peakFootprintBytes: {max: 150MB}}
              summary:
                backgroundTasks.expiredKilled: {max: 0}
            Each broken budget prints what was allowed, what happened and the events behind it.
            """)

    public static let export = ToolCommand(
        name: "export",
        abstract: "Rewrite a report for another viewer: trace, speedscope, folded, pprof, benchmark, jetsam or metrickit.",
        discussion: "trace opens in ui.perfetto.dev or chrome://tracing. speedscope, folded and pprof need "
            + "stack samples in the report. benchmark is the report's metrics for github-action-benchmark "
            + "(customSmallerIsBetter). jetsam writes one JetsamEvent .ips file per moment of memory kills into "
            + "the folder -o names; metrickit writes MXMetricPayload-shaped JSON, one payload per app; "
            + "of a fleet result (its folder or fleet.json), metrickit writes one such file per cell, "
            + "cell-<index>.json, into the folder -o names, its runs aggregated.")

    public static let `import` = ToolCommand(
        name: "import",
        abstract: "Turn a JetsamEvent .ips report into a workload that replays the kill under the xnu policy.",
        discussion: "Device RAM comes from the report's product (or its memory pages), every app process becomes "
            + "an app with its resident size and state, daemons become reserved memory. Run the workload with "
            + "`memprof run`; the killed process dies again for the reason the report names.")
}
