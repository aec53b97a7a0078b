import MemprofCore
import MemprofReport
import MemprofWorkload

/// Reports of built-in workloads, made in-process, with a fixed `host` so they compare byte for byte.
public enum ReportFixture {
    /// The `host` section every fixture report carries.
    public static let fixedHost = Report.Host(hostname: "test", os: "test", processors: 1,
                                              generatedAt: "2026-01-01T00:00:00Z", simulationWallMs: 0,
                                              processedOccurrences: 0)

    /// The report of the built-in workload `name` (or a workload file), optionally with another seed.
    public static func builtin(_ name: String, seed: UInt64? = nil) throws -> Report {
        try builtinWithApps(name, seed: seed).report
    }

    /// The same, with the workload's app ids in file order (as tables list them).
    public static func builtinWithApps(_ name: String, seed: UInt64? = nil) throws -> (report: Report, orderedApps: [String]) {
        var loaded = try WorkloadLoader.load(name)
        if let seed { loaded.workload.seed = seed }
        return (run(loaded), loaded.workload.apps.map(\.id))
    }

    /// The report of a workload given as text (one of ``WorkloadFixtures``).
    public static func report(text: String, file: String = "fixture.yaml") throws -> Report {
        run(try WorkloadLoader.parse(text, file: file))
    }

    static func run(_ loaded: LoadedWorkload) -> Report {
        var simulator = Simulator(workload: loaded.workload)
        let result = simulator.run()
        var host = fixedHost
        host.processedOccurrences = result.processedOccurrences
        return Report(result: result, workloadSha256: loaded.sha256, source: loaded.source, host: host)
    }
}
