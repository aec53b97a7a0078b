import ArgumentParser
import Foundation
import MemprofWorkload

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check workload files without running them.")

    @Argument(help: "Workload files (YAML or JSON) or built-in names.")
    var workloads: [String]

    func run() throws {
        var problems: [String] = []
        for path in workloads {
            do {
                let loaded = try WorkloadLoader.load(path)
                print("\(path): ok (\(loaded.workload.name), \(loaded.workload.apps.count) apps, "
                    + "\(loaded.workload.script.count) script entries)")
            } catch let error as WorkloadError {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw BadInput(description: problems.joined(separator: "\nmemprof: ")) }
    }
}
