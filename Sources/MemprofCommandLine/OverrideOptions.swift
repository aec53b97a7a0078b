import ArgumentParser

/// `--device`, `--policy` and `--set`: change a workload's keys for one run, validated exactly as
/// the file is (the same code puts a sweep's matrix into its cells). The options as given; the
/// workload layer makes them overrides (`WorkloadOverride.list(device:policy:assignments:)`), so
/// the executables that take no workload (`memprof-serve`) do not link the workload format.
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
}
