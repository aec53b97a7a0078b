import MemprofCore
import MemprofReport
import MemprofWorkload

/// A report of a built-in workload, made in-process.
func makeReport(_ name: String, seed: UInt64? = nil) throws -> (Report, [String]) {
    var loaded = try WorkloadLoader.load(name)
    if let seed { loaded.workload.seed = seed }
    var simulator = Simulator(workload: loaded.workload, options: Simulator.Options())
    let result = simulator.run()
    let host = Report.Host(hostname: "test", os: "test", processors: 1, generatedAt: "2026-01-01T00:00:00Z",
                           simulationWallMs: 0, processedOccurrences: result.processedOccurrences)
    return (Report(result: result, workloadSha256: loaded.sha256, source: loaded.source, host: host),
            loaded.workload.apps.map(\.id))
}
