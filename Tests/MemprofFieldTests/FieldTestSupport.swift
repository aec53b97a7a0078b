import Foundation
import MemprofCore
@testable import MemprofField
import MemprofWorkload

/// The fixtures of this suite and a replay of an imported workload.
enum Field {
    static func fixture(_ name: String) throws -> String {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func read(_ name: String) throws -> JetsamReport {
        try JetsamReportReader(file: name).read(try fixture(name))
    }

    /// Imports `report`, parses the workload the importer wrote, runs it, and returns the exits
    /// of the run (app, reason, at) and the importer's result.
    static func replay(_ report: JetsamReport, file: String = "test.ips")
        throws -> (exits: [(app: String, reason: ExitReason, atUs: Microseconds)], imported: JetsamImport.Result, result: SimulationResult)
    {
        let imported = try JetsamImport(file: file, name: "replay").workload(from: report)
        let workload = try WorkloadParser(file: "replay.yaml").parse(imported.yaml)
        var simulator = Simulator(workload: workload)
        let result = simulator.run()
        let exits = result.events.filter { $0.kind == .exit }.map { ($0.app!, $0.fields.reason!, $0.atUs) }
        return (exits, imported, result)
    }
}
