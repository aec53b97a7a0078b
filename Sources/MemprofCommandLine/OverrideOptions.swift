import ArgumentParser
import MemprofWorkload

/// `--device`, `--policy` and `--set`: change a workload's keys for one run, validated exactly as
/// the file is (the same code puts a sweep's matrix into its cells).
public struct OverrideOptions: ParsableArguments {
    public init() {}

    @Option(help: "A device preset instead of the workload's (memprof list devices).")
    public var device: String?

    @Option(help: "A policy instead of the workload's (memprof list policies).")
    public var policy: String?

    @Option(name: .customLong("set"),
            help: ArgumentHelp("Set a workload key, as the file would: apps.mail.launch.footprint=60MB (repeatable).",
                               valueName: "key.path=value"))
    public var assignments: [String] = []

    /// In the order they apply: device, policy, then each `--set` in order (a later one wins).
    public func overrides() throws -> [WorkloadOverride] {
        var out: [WorkloadOverride] = []
        if let device { out.append(.preset("device", device)) }
        if let policy { out.append(.preset("policy", policy)) }
        for assignment in assignments { out.append(try WorkloadOverride.parse(assignment: assignment)) }
        return out
    }
}
