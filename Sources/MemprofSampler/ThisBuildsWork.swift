import MemprofWorkload

extension WorkloadSource {
    /// Workloads checked against what this build of memprof runs as work: the kernels registered
    /// in ``WorkRegistry`` (when the workload is loaded) and programs that ``ProgramFile`` finds
    /// runnable (they must exist, be executable and be dynamically linked ELF programs, spec §8.1).
    public static var thisBuild: WorkloadSource {
        WorkloadSource(knownKernels: Set(WorkRegistry.names), checkProgram: { ProgramFile.problem(with: $0) })
    }
}
