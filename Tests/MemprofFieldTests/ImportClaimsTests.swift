import MemprofCore
@testable import MemprofField
import MemprofTestSupport
import Testing

/// What `import` says the replay kills is what the replay kills, in its order: on every
/// published report, on the moments where the plan and the model part ways, and on generated
/// reports of every kind of process, band and reason.
@Suite struct ImportClaimsTests {
    typealias P = JetsamFixtures.Process

    /// The claims, held to a run of the written workload of its own (without the importer's sink).
    func check(_ text: String, file: String = "made.ips") throws -> JetsamImport.Result? {
        let report = try JetsamReportReader(file: file).read(text)
        let replay: (kills: [(name: String, reason: String)], imported: JetsamImport.Result, result: SimulationResult)
        do {
            replay = try Field.replay(report, file: file)
        } catch let e as IPSError where e.message.hasPrefix("the report lists no app") || e.message.hasPrefix("every app of the report") {
            return nil
        }
        let (kills, imported) = (replay.kills, replay.imported)
        #expect(imported.expectedKills.map(\.app) == kills.map(\.name), "\(imported.yaml)")
        #expect(imported.expectedKills.map(\.reason) == kills.map(\.reason))
        for (n, kill) in kills.enumerated() {
            #expect(imported.yaml.contains("# replays kill \(n + 1): \(kill.name) (\(kill.reason))\n"))
        }
        return imported
    }

    @Test(arguments: Field.corpus)
    func everyPublishedReportsClaimsAreItsReplay(file: String) throws {
        let imported = try #require(try check(try Field.fixture(file), file: file))
        #expect(imported.differences.isEmpty, "the published moments replay as they say: \(imported.differences)")
    }

    /// Moments the plan cannot make as the report says: the replay's kills are printed, and how
    /// they differ from the report's.
    @Test(arguments: [
        // Two frozen apps killed for page shortage.
        [P(name: "Front", states: ["frontmost"], priority: 100, rpages: 5000),
         P(name: "Maps", states: ["frozen"], priority: 0, rpages: 3000, reason: "vm-pageshortage"),
         P(name: "News", states: ["frozen"], priority: 0, rpages: 2000, reason: "vm-pageshortage")],
        // An audio app killed while a frontmost app lives.
        [P(name: "Front", states: ["frontmost"], priority: 100, rpages: 5000),
         P(name: "Music", states: ["audio"], priority: 40, rpages: 3000, reason: "vm-pageshortage")],
        // Two frontmost apps killed.
        [P(name: "Front", states: ["frontmost"], priority: 100, rpages: 5000, reason: "vm-pageshortage"),
         P(name: "Other", states: ["frontmost"], priority: 100, rpages: 4000, reason: "vm-pageshortage")],
        // A suspended app at band 0 killed beside a daemon at band -2 that survived.
        [P(name: "Mail", states: ["suspended"], priority: 0, rpages: 3000, reason: "vm-pageshortage"),
         P(name: "lowd", states: ["daemon"], priority: -2, rpages: 1000)],
        // Mixed killDelta, highwater and per-process-limit kills.
        [P(name: "Front", states: ["frontmost"], priority: 100, rpages: 5000),
         P(name: "Mail", states: ["suspended"], priority: 0, rpages: 3000, reason: "vm-pageshortage", killDelta: 30),
         P(name: "kbd", states: ["daemon"], priority: 10, rpages: 2000, reason: "highwater", killDelta: 20),
         P(name: "Game", states: ["background"], priority: 30, rpages: 6000, reason: "per-process-limit", killDelta: 10),
         P(name: "tccd", states: ["daemon"], priority: 10, rpages: 500, reason: "per-process-limit", killDelta: 40)],
    ])
    func movedMomentsSayWhatTheReplayDoes(processes: [P]) throws {
        let imported = try #require(try check(JetsamFixtures.report(processes)))
        let reported = processes.filter { $0.reason != nil }.count - imported.facts.count
        if imported.expectedKills.count != reported {
            #expect(!imported.differences.isEmpty, "\(imported.yaml)")
        }
        for d in imported.differences { #expect(imported.yaml.contains("# unlike the report: \(d)\n")) }
    }

    /// Generated moments: every kind of process, band and reason, in any order.
    @Test
    func generatedReportsClaimsAreTheirReplay() throws {
        var rng = SeededGenerator(seed: 40)
        let kinds: [[String]] = [["suspended"], ["frozen"], ["frontmost"], ["audio"], ["daemon"], ["background"], ["daemon", "idle"]]
        let bands = [-2, 0, 0, 10, 40, 100]
        let reasons: [String?] = [nil, nil, "vm-pageshortage", "vm-pageshortage", "highwater", "per-process-limit", "fc-thrashing"]
        var checked = 0
        for report in 0..<40 {
            let count = 2 + Int(rng.next() % 8)
            let processes = (0..<count).map { i in
                P(name: "p\(report)x\(i)", states: kinds[Int(rng.next() % UInt64(kinds.count))],
                  priority: bands[Int(rng.next() % UInt64(bands.count))], rpages: 100 + Int64(rng.next() % 8000),
                  reason: reasons[Int(rng.next() % UInt64(reasons.count))],
                  killDelta: rng.next() % 2 == 0 ? nil : Int(rng.next() % 100))
            }
            if try check(JetsamFixtures.report(processes, free: Int64(rng.next() % 4000))) != nil { checked += 1 }
        }
        #expect(checked > 20)
    }
}
