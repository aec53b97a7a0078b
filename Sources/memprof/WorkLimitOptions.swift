import ArgumentParser
import MemprofInput
import MemprofOutput
import MemprofRun
import MemprofWorkload

/// `--max-occurrences` and `--max-work`: the limits on how much work one workload may describe
/// (``WorkEstimate``), shared by `run` and `validate` so both accept the same workloads.
struct WorkLimitOptions: ParsableArguments {
    @Option(help: "Refuse workloads that schedule more occurrences than this (default 5000000).")
    var maxOccurrences: Int?

    @Option(help: "Refuse workloads whose kernels would process more than this in all (default 64GB).")
    var maxWork: String?

    var limits: WorkEstimate.Limits {
        get throws {
            var limits = WorkEstimate.Limits.default
            if let maxOccurrences {
                guard maxOccurrences > 0 else { throw BadInput("--max-occurrences: expected a number above 0") }
                limits.occurrences = maxOccurrences
            }
            if let maxWork {
                switch Quantity.size(maxWork) {
                case .success(let bytes): limits.workBytes = bytes
                case .failure(let e): throw BadInput("--max-work: \(e.message)")
                }
            }
            return limits
        }
    }
}
