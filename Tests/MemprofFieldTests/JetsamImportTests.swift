import Foundation
import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import MemprofWorkload
import Testing

/// Imported reports replay their kills under `xnu`, and exported reports round-trip through
/// `memprof import`. The replays need the workload parser to read `processes:`.
@Suite struct JetsamImportTests {
    /// Each published report's modelled kills, replayed in the report's order: the frontmost app
    /// too (iOS 7.0.4's KKBOX, iOS 12.4's Apollo), daemons by band, highwater daemons and SpringBoard.
    @Test(arguments: Field.corpus)
    func publishedReportsReplayTheirKills(file: String) throws {
        let report = try Field.read(file)
        let (kills, imported, result) = try Field.replay(report, file: file)
        #expect(kills.map(\.name) == imported.expectedKills.map(\.app), "\(imported.yaml)")
        #expect(kills.map(\.reason) == imported.expectedKills.map(\.reason))
        #expect(result.workload.device.osVersion == report.build, "the era's numbers")
    }

    /// The hand-made per-process-limit reports kill their app again, and only it.
    @Test(arguments: [
        ("ios11-iphone8-memorytest.ips", "memorytest", Int64(89600) * 16384),
        ("ios-iphone6plus-memorylimittest.ips", "memorylimittest", Int64(166400) * 4096),
        ("ios13-ipad-apple-documentation.ips", "mycoolapp", Int64(92802) * 16384),
    ])
    func perProcessLimitReportsReplayToTheSameKill(file: String, app: String, limit: Int64) throws {
        let report = try Field.read(file)
        let (kills, imported, result) = try Field.replay(report, file: file)
        #expect(imported.expectedKills.map(\.app) == [app])
        #expect(kills.map(\.name) == [app], "\(imported.yaml)")
        #expect(kills.map(\.reason) == ["per-process-limit"])
        #expect(result.workload.device.appLimit == limit, "the limit is the victim's resident pages")
    }

    @Test func theIPhone8ReportTakesItsRAMFromTheProduct() throws {
        let imported = try JetsamImport(file: "i.ips", name: "i").workload(from: try Field.read("ios11-iphone8-memorytest.ips"))
        #expect(imported.notes.first == "RAM 2 GB: iPhone 8 (iPhone10,1)")
        #expect(imported.yaml.contains("  appLimit: \(89600 * 16)KB\n"))
    }

    /// A moment without a kill imports as the moment: no demand, nothing expected.
    @Test func aReportWithoutAKillImportsWithoutADemand() throws {
        let imported = try JetsamImport(file: "x.ips", name: "x").workload(from: try Field.read("ios18-iphone14-excerpt.ips"))
        #expect(imported.expectedKills.isEmpty && imported.facts.isEmpty)
        #expect(!imported.yaml.contains("allocate: memprof-demand"))
    }

    /// Every moment of memory kills of a built-in run, exported in its era and imported again,
    /// kills the same apps for the same reasons.
    @Test(arguments: ["phone-day", "phone-day-xnu", "ipad-afternoon"])
    func exportedReportsRoundTripToTheSameKills(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty || report.jetsamEvents.isEmpty)
        #expect(Set(files.map(\.name)).count == files.count)
        for file in files {
            let parsed = try JetsamReportReader(file: file.name).read(file.text)
            // A text report of the era before iOS 10 has no pid or lifetime maximum.
            func kept(_ r: JetsamReport) -> [String] { r.processes.map { "\($0.name) \($0.states) \($0.rpages) \($0.reason ?? "")" } }
            #expect(kept(parsed) == kept(file.report), "the reader reads back what the writer wrote")
            let moment = report.jetsamEvents.filter { $0.atUs == file.atUs }
            let (kills, imported, result) = try Field.replay(parsed, file: file.name)
            #expect(kills.map(\.name) == moment.map(\.killed), "\(file.name)\n\(imported.yaml)")
            #expect(kills.map(\.reason) == moment.map { $0.exitReason.jetsamReason ?? "" })
            #expect(result.workload.device.osVersion == parsed.build, "the era survives the round trip")
            // Apps frozen at the moment are frozen (on flash) when the replay's first kill comes.
            let frozen = Set(parsed.processes.filter { $0.states.contains("frozen") }.map(\.name))
            let replayFrozen = Set(result.jetsamEvents.first?.processes.filter { $0.states.contains("frozen") }.map(\.name) ?? [])
            #expect(replayFrozen == frozen, "\(file.name)")
        }
    }

    /// The layout of each era, from the corpus: text before iOS 10; `.ips` after, `priority` from
    /// iOS 14, `resume` beside `frontmost` before it; the killed in their band's place.
    @Test(arguments: [("iOS 8.4.1 (12H321)", JetsamReport.Format.lowMemoryText, false, true),
                      ("iOS 12.4 (16G77)", .ips, false, true), ("iOS 14.2 (18B92)", .ips, true, false),
                      ("iOS 17.0 (21A329)", .ips, true, false)])
    func exportFollowsTheDevicesEra(os: String, format: JetsamReport.Format, priority: Bool, resume: Bool) throws {
        var report = try ReportFixture.builtin("phone-day-xnu")
        report.device.osVersion = os
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty)
        for file in files {
            #expect(file.report.format == format)
            #expect(file.name.hasPrefix(format == .ips ? "JetsamEvent-" : "LowMemory-"))
            #expect(file.report.processes.allSatisfy { ($0.priority != nil) == priority })
            let front = file.report.processes.filter { $0.states.contains("frontmost") }
            #expect(front.allSatisfy { $0.states.contains("resume") == resume })
            let parsed = try JetsamReportReader(file: file.name).read(file.text)
            #expect(parsed.format == format && parsed.killed.map(\.name) == file.report.killed.map(\.name))
            if format == .ips {
                #expect(!file.text.split(separator: "\n", maxSplits: 1)[1].contains("bug_type"), "bug_type in the header only")
            }
        }
    }

    /// A published moment replayed, exported in its era and imported again: the daemons are in
    /// the exported report with their bands (iOS 14 writes `priority`), and the highwater kills
    /// come back.
    @Test
    func aReplayedMomentExportsWithItsDaemonsAndReplaysAgain() throws {
        let published = try Field.read(Field.corpus[4])
        let (kills, _, result) = try Field.replay(published)
        let report = Report(result: result, workloadSha256: "0", source: "test",
                            host: .current(simulationWallMs: 0, processedOccurrences: 0))
        let files = JetsamExport.reports(report)
        let file = try #require(files.first)
        #expect(file.report.format == .ips)
        let backboardd = try #require(file.report.processes.first { $0.name == "backboardd" })
        #expect(backboardd.states == ["daemon"] && backboardd.priority == 17)
        #expect(file.report.killed.map(\.name) == kills.map(\.name))
        let again = try Field.replay(try JetsamReportReader(file: file.name).read(file.text))
        #expect(again.kills.map(\.name) == kills.map(\.name) && again.kills.map(\.reason) == ["highwater", "highwater"])
    }

    @Test func importedKeysAreValidAndUnique() {
        var taken: Set<String> = []
        #expect(JetsamImport.uniqueKey(for: "MobileSafari", taken: &taken) == "mobilesafari")
        #expect(JetsamImport.uniqueKey(for: "MTLCompilerService", taken: &taken) == "mtlcompilerservice")
        #expect(JetsamImport.uniqueKey(for: "MTLCompilerService", taken: &taken) == "mtlcompilerservice-2")
        #expect(JetsamImport.uniqueKey(for: "com.apple.WebKit.WebContent", taken: &taken) == "com-apple-webkit-webcontent")
        #expect(JetsamImport.uniqueKey(for: "日本語", taken: &taken) == "app")
        #expect(JetsamImport.uniqueKey(for: "3DMark", taken: &taken) == "app-3dmark")
    }
}
