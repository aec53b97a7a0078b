import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofInput
import MemprofOutput
import MemprofRun
import MemprofSampler
import MemprofWorkload

/// `memprof validate FILE...`: the same loading and validation as `memprof run`, without running.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check workload files without running them.")

    @Argument(help: "Workload files (YAML or JSON) or built-in names.")
    var workloads: [String]

    @OptionGroup var workLimits: WorkLimitOptions

    func run() throws {
        var problems: [String] = []
        let limits = try workLimits.limits
        for path in workloads {
            do {
                let loaded = try WorkloadSource.thisBuild.load(path, limits: limits)
                printWarnings(loaded.warnings)
                try StandardStream.out("\(path): ok (\(loaded.workload.name), \(loaded.workload.apps.count) apps, "
                    + "\(loaded.workload.script.count) script entries)\n")
            } catch let error as WorkloadError {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw BadInput(problems.joined(separator: "\nmemprof: ")) }
    }
}

/// Prints a workload's warnings to standard error, one `memprof: warning: …` line each.
func printWarnings(_ warnings: [WorkloadWarning]) {
    for warning in warnings {
        StandardStream.error("memprof: \(warning)\n")
    }
}
