/// Where every command that reads workloads gets them, so `validate`, `run` and sweeps accept
/// and refuse exactly the same files.
///
/// The workload format knows no kernels and no programs: what a build of memprof can run as work
/// is given to a source when it is made. MemprofSampler gives its own as
/// `WorkloadSource.thisBuild` (the kernels of its `WorkRegistry`, programs checked by `ProgramFile`).
public struct WorkloadSource: Sendable {
    /// The kernel names a workload's `work` may use.
    public var knownKernels: Set<String>
    /// Why a program a workload names cannot run, or nil when it can.
    public var checkProgram: ProgramCheck

    public init(knownKernels: Set<String>, checkProgram: @escaping ProgramCheck) {
        self.knownKernels = knownKernels
        self.checkProgram = checkProgram
    }

    /// Loads a workload file or built-in name (nil: the built-in default), checking the kernels
    /// its `work` names and the programs it names against this source's.
    ///
    /// Refuses one that describes more work than `limits` allow (``WorkEstimate``).
    ///
    /// `overrides` change keys before validation (`--device`, `--policy`, `--set`, a sweep's matrix).
    ///
    /// - Throws: `WorkloadError` (MemprofInput), naming file, line, column and key, for bad input.
    public func load(_ argument: String?, overrides: [WorkloadOverride] = [],
                     limits: WorkEstimate.Limits = .default) throws -> LoadedWorkload {
        let loaded = try WorkloadLoader.load(argument, knownKernels: knownKernels, overrides: overrides,
                                             checkProgram: checkProgram)
        try WorkEstimate(loaded.workload).check(limits, file: loaded.source)
        return loaded
    }
}
