import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofCore
import MemprofReport
import MemprofReportReader
import MemprofTestSupport
import Testing

/// The readers of a report besides the run's own outputs (compare's decisions, the causes `check`
/// and budgets list) read every event kind as ``SimEvent/Kind/outputs`` declares it, and nothing else.
@Suite struct EventKindReadersTests {
    /// report.json of a run whose events are one example of every kind.
    static func everyKind() throws -> Data {
        var report = try ReportFixture.builtin("phone-day")
        report.events = SimEvent.Kind.allCases.enumerated().map { SimEvent.example(of: $1, atUs: Int64($0) * 1_000_000) }
        return try ReportJSON.encode(report)
    }

    @Test func compareKeepsTheKindsThatMakeDecisionRows() throws {
        let read = try ReportLoader.decode(try Self.everyKind(), path: "r.json", options: ReportLoader.compareOptions)
        let declared = SimEvent.Kind.allCases.filter { $0.outputs.decisionRow != nil }
        #expect(read.events.map(\.kind) == declared)
        #expect(Set(declared) == [.compression, .eviction, .exit, .memoryWarning, .reclaim])
    }

    /// Every metric family a kind can be the cause of is one of the report's metrics.
    @Test(arguments: SimEvent.Kind.Metrics.named.map(\.name))
    func everyFamilyIsAMetric(name: String) {
        #expect(MetricDirections.table.contains { $0.pattern == name || $0.pattern.hasPrefix(name + ".") })
        #expect(Evidence.eventKinds(for: [MetricPath("summary.\(name)"), MetricPath("apps.mail.\(name).x")])
            == SimEvent.Kind.allCases.filter { $0.outputs.causeOf.contains(SimEvent.Kind.Metrics(named: name)!) }.reduce(into: []) { $0.insert($1) })
    }

    /// A metric of each family, as budgets name them: an app's, and the whole run's.
    static let metrics = ["coldLaunches", "launches.cold", "backgroundLaunches", "coldRelaunchesAfterKill", "warmResumes",
                          "compressedResumes", "resumeLatencyUs.max", "evictions", "exits.memoryPressure",
                          "terminations.memoryPressure", "compressions", "memoryWarnings", "timeAtPressureUs.warning",
                          "fetches.started", "fetches.completed"]

    /// The causes budgets list for a metric come only from the kinds that declare themselves its
    /// causes: an example of every kind, alone.
    @Test(arguments: SimEvent.Kind.allCases)
    func causesComeOnlyFromDeclaredKinds(kind: SimEvent.Kind) throws {
        let report = try ReportFixture.builtin("phone-day")
        for scope in ["apps.mail.", "summary."] {
            let paths = Self.metrics.map { MetricPath(scope + $0) }
            let digest = Evidence.Digest(paths: paths, limit: 5)
            digest.add(SimEvent.example(of: kind))
            let causes = try digest.causes(of: paths, report: report) { _, _ in }
            for path in paths where !(causes[path.full] ?? []).isEmpty {
                let family = try #require(SimEvent.Kind.Metrics(named: path.relative.split(separator: ".")[0]))
                #expect(!kind.outputs.causeOf.isDisjoint(with: family), "\(kind) is a cause of \(path.full)")
                #expect(Evidence.eventKinds(for: [path]).contains(kind))
            }
        }
    }
}
