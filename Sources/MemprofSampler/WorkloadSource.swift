import MemprofWorkload

/// Where every command that reads workloads gets them, so `validate`, `run` and sweeps accept
/// and refuse exactly the same files.
public enum WorkloadSource {
    /// Loads a workload file or built-in name (nil: the built-in default), checking the kernels
    /// its `work` names against the ones this build of memprof has, and the programs it names
    /// (they must exist, be executable and be dynamically linked ELF programs, spec §8.1).
    ///
    /// Refuses one that describes more work than `limits` allow (`WorkEstimate`, MemprofWorkload).
    ///
    /// `overrides` change keys before validation (`--device`, `--policy`, `--set`, a sweep's matrix).
    ///
    /// - Throws: `WorkloadError` (MemprofInput), naming file, line, column and key, for bad input.
    public static func load(_ argument: String?, overrides: [WorkloadOverride] = [],
                            limits: WorkEstimate.Limits = .default) throws -> LoadedWorkload {
        let loaded = try WorkloadLoader.load(argument, knownKernels: Set(WorkRegistry.names), overrides: overrides,
                                             checkProgram: { ProgramFile.problem(with: $0) })
        try WorkEstimate(loaded.workload).check(limits, file: loaded.source)
        return loaded
    }
}
