import MemprofCore
@testable import MemprofField
import MemprofTestSupport
import Testing

/// What a report can make memprof do is bounded: a snapshot lists at most
/// ``JetsamEvent/listLimit`` processes however many apps a replay kills, impossible totals and
/// moments without an app are refused at import with the key, and CRLF text reports read.
@Suite struct ImportBoundsTests {
    /// 600 suspended apps each killed for page shortage: every kill's snapshot lists the 512
    /// largest processes and the killed one, and counts the others and their pages.
    /// The fixture's report on iOS 18.3 (xnu-11215): from iOS 18.4 (xnu-11417) kills in the idle
    /// band take no jetsam snapshot (`memorystatus_idle_snapshot`), and these tests are about
    /// the snapshots of such kills.
    static func onIOS183(_ text: String) -> String { text.replacingOccurrences(of: "18.5 (22F76)", with: "18.3 (22D63)") }

    @Test
    func snapshotsOfAThousandAppsAreBounded() throws {
        let count = 600
        let report = try JetsamReportReader(file: "many.ips").read(Self.onIOS183(JetsamFixtures.suspendedAppsKilled(count)))
        let (kills, _, result) = try Field.replay(report)
        #expect(kills.count >= count, "every app is killed")
        let bounded = result.jetsamEvents.filter { $0.unlisted != nil }
        #expect(!bounded.isEmpty, "the first kills have more than 512 processes in memory")
        for event in result.jetsamEvents {
            #expect(event.processes.count <= JetsamEvent.listLimit)
            #expect(event.processes.contains { $0.name == event.killed }, "the killed process is listed")
            #expect(event.processes.first?.name == event.largestProcess)
            let listed = event.processes.map(\.rpages)
            #expect(zip(listed, listed.dropFirst().dropLast()).allSatisfy { $0 >= $1 }, "largest first")
            if let rest = event.unlisted {
                #expect(event.processes.count == JetsamEvent.listLimit && rest.processes > 0)
                // Each unlisted app has its 64 pages, and memprof-demand, the smallest, its one.
                #expect(rest.rpages == Int64(rest.processes - 1) * 64 + 1)
            }
        }
        // The first kill sees every app, the demanding process and nothing else.
        let first = try #require(result.jetsamEvents.first)
        #expect(first.processes.count + (first.unlisted?.processes ?? 0) == count + 1)
    }

    /// What import prints of a report of hundreds of kills names the first 20 and counts the
    /// rest, on a few lines; the workload's comments keep every difference.
    @Test func theSummaryOfManyKillsIsBounded() throws {
        let report = try JetsamReportReader(file: "many.ips").read(Self.onIOS183(JetsamFixtures.suspendedAppsKilled(600)))
        let result = try JetsamImport(file: "many.ips", name: "many").workload(from: report)
        #expect(result.expectedKills.count > 500)
        let summary = result.summary()
        let lines = summary.split(separator: "\n")
        #expect(lines[0].hasPrefix("under xnu it kills "))
        #expect(lines[0].components(separatedBy: " (").count - 1 == 21, "20 kills named and the count: \(lines[0])")
        #expect(lines[0].hasSuffix(" and \(result.expectedKills.count - 20) more (\(result.expectedKills.count) kills)"))
        #expect(lines.count <= 1 + 2 * 21 && summary.utf8.count < 8_000, "\(summary.utf8.count) bytes")
        for d in result.differences { #expect(result.yaml.contains("# unlike the report: \(d)\n")) }
        // A few kills: every one named, nothing counted.
        let few = try JetsamImport(file: "few.ips", name: "few")
            .workload(from: try JetsamReportReader(file: "few.ips").read(Self.onIOS183(JetsamFixtures.suspendedAppsKilled(3))))
        #expect(!few.summary().contains(" more"))
        #expect(few.summary().split(separator: "\n")[0].components(separatedBy: " (").count - 1 == few.expectedKills.count)
    }

    /// A snapshot of at most 512 processes lists them all and says nothing of the rest.
    @Test
    func smallSnapshotsListEveryProcess() throws {
        let report = try JetsamReportReader(file: "few.ips").read(Self.onIOS183(JetsamFixtures.suspendedAppsKilled(40)))
        let (_, _, result) = try Field.replay(report)
        #expect(!result.jetsamEvents.isEmpty)
        #expect(result.jetsamEvents.allSatisfy { $0.unlisted == nil })
        #expect(result.jetsamEvents.first.map { $0.processes.count == 41 } == true)
    }

    /// Five daemons of 67,108,864 pages of 16 KB (1 TB each) need more RAM than a workload
    /// describes: refused with the key of the largest, not grown 512 MB at a time.
    @Test func impossibleTotalsAreRefused() throws {
        let daemons = (0..<5).map {
            JetsamFixtures.Process(name: "huge\($0)", states: ["daemon"], priority: 10, rpages: 67_108_864)
        }
        let app = JetsamFixtures.Process(name: "Mail", states: ["suspended"], priority: 0, rpages: 100)
        let report = try JetsamReportReader(file: "huge.ips").read(JetsamFixtures.report(daemons + [app]))
        do {
            _ = try JetsamImport(file: "huge.ips", name: "huge").workload(from: report)
            Issue.record("imported")
        } catch {
            #expect(error.file == "huge.ips" && error.line == 15 && error.keyPath == "processes[0].rpages", "\(error)")
            #expect(error.message.contains("a workload describes (the largest, huge0, has 67108864 pages)"), "\(error)")
        }
        // Short of the limit: grown once, with one note.
        let big = (0..<2).map {
            JetsamFixtures.Process(name: "big\($0)", states: ["daemon"], priority: 10, rpages: 16_777_216)
        }
        let grown = try JetsamImport(file: "big.ips", name: "big")
            .workload(from: try JetsamReportReader(file: "big.ips").read(JetsamFixtures.report(big + [app])))
        #expect(grown.yaml.split(separator: "\n").count { $0.hasPrefix("#") } < 12, "\(grown.yaml.prefix(2000))")
    }

    /// A moment of daemons only is refused: a workload has at least one app.
    @Test func aMomentWithoutAnAppIsRefused() throws {
        let daemons = [JetsamFixtures.Process(name: "kbd", states: ["daemon"], priority: 10, rpages: 100, reason: "highwater")]
        let report = try JetsamReportReader(file: "d.ips").read(JetsamFixtures.report(daemons))
        #expect(throws: IPSError.self) { try JetsamImport(file: "d.ips", name: "d").workload(from: report) }
        do { _ = try JetsamImport(file: "d.ips", name: "d").workload(from: report) } catch {
            #expect(error.keyPath == "processes" && error.message.hasPrefix("the report lists no app"), "\(error)")
        }
    }

    /// The published iOS 7 LowMemory report with CRLF line ends reads as the original.
    @Test func aCRLFTextReportReads() throws {
        let text = try Field.fixture(Field.corpus[0])
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf.utf8.count > text.utf8.count)
        let original = try Field.read(Field.corpus[0])
        let read = try JetsamReportReader(file: "crlf.txt").read(Array(crlf.utf8))
        #expect(read.processes.map(\.name) == original.processes.map(\.name))
        #expect(read.processes.map(\.rpages) == original.processes.map(\.rpages))
        #expect(read.memoryStatus.memoryPages == original.memoryStatus.memoryPages)
        #expect(read.processes.first?.line == original.processes.first?.line)
    }
}
