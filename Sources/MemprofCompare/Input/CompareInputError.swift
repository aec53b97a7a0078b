import MemprofOutput

/// Bad input to compare or check (a report that cannot be read is a `ReportFileError`): exit status 2 on the command line.
public enum CompareInputError: MemprofError, Equatable {
    public var exitStatus: Int32 { ExitStatus.badInput }

    case differentWorkloads(base: String, new: String)
    case badThresholds(String)
    case badBudget(String)

    public var description: String {
        switch self {
        case .differentWorkloads(let a, let b):
            "the reports are of different workloads ('\(a)' and '\(b)'); pass --allow-different to compare them anyway"
        case .badThresholds(let why): "thresholds: \(why)"
        case .badBudget(let why): "budget: \(why)"
        }
    }
}
