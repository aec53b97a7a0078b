import Foundation
import MemprofCore
@testable import MemprofField
import MemprofWorkload

/// The fixtures of this suite and a replay of an imported workload.
enum Field {
    static func fixture(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
        return Array(try Data(contentsOf: url))
    }

    static func read(_ name: String) throws -> JetsamReport {
        try JetsamReportReader(file: name).read(try bytes(name))
    }

    /// The published reports of `Fixtures/corpus` (SOURCES.md names their sources).
    static let corpus = ["corpus/ios7.0.4-ipad2-5-lowmemory.txt", "corpus/ios10.1.1-iphone7-2-highwater.ips",
                         "corpus/ios11.3.1-iphone7-2-vnode-limit.ips", "corpus/ios12.4-iphone11-6-proc-thrashing.ips",
                         "corpus/ios14.2-iphone12-1-highwater.ips"]

    /// Imports `report`, parses the workload the importer wrote, runs it, and returns the memory
    /// kills of the run in order (the name report.json gives the killed process, the jetsam reason).
    static func replay(_ report: JetsamReport, file: String = "test.ips")
        throws -> (kills: [(name: String, reason: String)], imported: JetsamImport.Result, result: SimulationResult)
    {
        let imported = try JetsamImport(file: file, name: "replay").workload(from: report)
        let workload = try WorkloadParser(file: "replay.yaml").parse(imported.yaml)
        var simulator = Simulator(workload: workload)
        let result = simulator.run()
        let kills = result.jetsamEvents.map { ($0.killed, $0.exitReason.jetsamReason ?? $0.exitReason.rawValue) }
        return (kills, imported, result)
    }
}
