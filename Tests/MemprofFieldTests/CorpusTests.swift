import Foundation
import MemprofCore
@testable import MemprofField
import MemprofWorkload
import Testing
import Yams

/// The published reports of `Fixtures/corpus`, as iOS wrote them: each reads, imports with every
/// process kept, names its kills (replayed or carried as facts), and writes back in its era's layout.
@Suite struct CorpusTests {
    /// Every report reads with all its processes, its era and its kills.
    @Test(arguments: [
        (Field.corpus[0], 43, 7, ["MobileMail", "tccd", "kbd", "KKBOX"]),
        (Field.corpus[1], 134, 10, ["SpringBoard"]),
        (Field.corpus[2], 124, 11, ["vmd"]),
        (Field.corpus[3], 117, 12, nil),
        (Field.corpus[4], 442, 14, ["wifianalyticsd", "dasd"]),
    ])
    func everyReportReads(file: String, processes: Int, major: Int, killed: [String]?) throws {
        let r = try Field.read(file)
        #expect(r.processes.count == processes)
        #expect(r.osVersion?.major == major)
        if let killed { #expect(r.killed.map(\.name) == killed) }
    }

    @Test func theIOS7ReportReadsAsALowMemoryTextReport() throws {
        let r = try Field.read(Field.corpus[0])
        #expect(r.format == .lowMemoryText)
        #expect(r.product == "iPad2,5" && r.header.osVersion == "iPhone OS 7.0.4 (11B554a)")
        #expect(r.memoryStatus.pageSize == 4096, "no 'Page Size:' line: the 4 KB pages of a 32-bit ARM kernel")
        #expect(r.memoryStatus.memoryPages?.free == 922 && r.memoryStatus.memoryPages?.wired == 47617)
        #expect(r.largestProcess == "mediaserverd")
        #expect(Set(r.killed.map(\.reason)) == ["vm-pageshortage"])
        let kkbox = r.processes.first { $0.name == "KKBOX" }!
        #expect(kkbox.states == ["frontmost", "resume"] && kkbox.rpages == 22810 && kkbox.recentMax == 22810)
        #expect(kkbox.line == 30, "located where the row is")
        let springBoard = r.processes.first { $0.name == "SpringBoard" }!
        #expect(springBoard.states.isEmpty && springBoard.reason == nil && springBoard.rpages == 10207)
    }

    /// The 63 kills of the iOS 12.4 moment: 3 vm-pageshortage, 59 proc-thrashing, 1 per-process-limit.
    @Test func theIOS12MomentHasSixtyThreeKills() throws {
        let r = try Field.read(Field.corpus[3])
        let reasons = Dictionary(grouping: r.killed, by: { $0.reason! }).mapValues(\.count)
        #expect(reasons == ["vm-pageshortage": 3, "proc-thrashing": 59, "per-process-limit": 1])
    }

    /// What each report's import replays, and what it carries as facts.
    @Test(arguments: [
        (Field.corpus[0], ["mobilemail", "tccd", "kbd", "kkbox"], "vm-pageshortage", 0),
        (Field.corpus[1], ["SpringBoard"], "highwater", 0),
        (Field.corpus[2], [], "", 1),
        (Field.corpus[3], ["dataaccessd", "backboardd", "kbd", "apollo"], "", 59),
        (Field.corpus[4], ["wifianalyticsd", "dasd"], "highwater", 0),
    ])
    func everyReportImports(file: String, kills: [String], reason: String, facts: Int) throws {
        let report = try Field.read(file)
        let imported = try JetsamImport(file: file, name: "replay").workload(from: report)
        #expect(imported.expectedKills.map(\.app) == kills, "\(imported.yaml)")
        if !reason.isEmpty { #expect(imported.expectedKills.allSatisfy { $0.reason == reason }) }
        #expect(imported.facts.count == facts)
        let yaml = try #require(try Yams.load(yaml: imported.yaml) as? [String: Any])
        let device = try #require(yaml["device"] as? [String: Any])
        #expect(device["osVersion"] as? String == report.build, "the era's numbers follow the report's iOS")
        #expect(device["product"] as? String == report.product, "the hardware the report names")
        // Every process of the report is in the workload, as an app or a process (facts aside).
        let apps = (yaml["apps"] as? [String: Any])?.count ?? 0
        let processes = (yaml["processes"] as? [String: Any])?.count ?? 0
        #expect(apps + processes - 1 == report.processes.count - facts,
                "every process but those killed for a fact, and memprof-demand")
        for f in imported.facts { #expect(imported.yaml.contains("# fact: \(f)\n")) }
    }

    /// The proc-thrashing and vnode-limit kills are named as facts, with their process.
    @Test func foreignReasonsAreCarriedAsFacts() throws {
        let vnode = try JetsamImport(file: "v.ips", name: "v").workload(from: try Field.read(Field.corpus[2]))
        #expect(vnode.facts == ["vmd killed for vnode-limit: not a reason memprof models"])
        #expect(vnode.expectedKills.isEmpty)
        let thrashing = try JetsamImport(file: "t.ips", name: "t").workload(from: try Field.read(Field.corpus[3]))
        #expect(thrashing.facts.count { $0.hasSuffix("killed for proc-thrashing: not a reason memprof models") } == 59)
        #expect(!thrashing.facts.contains { $0.hasPrefix("backboardd") })
    }

    /// backboardd, a daemon killed for per-process-limit between two page-shortage kills, is
    /// replayed with a fatal limit of its resident pages, and dies where the report orders it.
    @Test func aDaemonPastItsLimitIsReplayedInItsPlace() throws {
        let imported = try JetsamImport(file: "t.ips", name: "t").workload(from: try Field.read(Field.corpus[3]))
        #expect(imported.expectedKills.map(\.reason) == ["vm-pageshortage", "per-process-limit", "vm-pageshortage", "vm-pageshortage"])
        // 131282 pages of 16 KB = 2,100,512 KB, resident one megabyte (1024 KB) under it; it asks
        // for that megabyte and one page (1040 KB), after the demand that takes dataaccessd.
        #expect(imported.yaml.contains("backboardd: {name: \"backboardd\", kind: daemon, band: 16, resident: 2099488KB, memoryLimit: 2100512KB}"))
        #expect(imported.yaml.contains("  - {at: 11s, allocate: backboardd, size: 1040KB}\n  - {at: 12s, allocate: memprof-demand"))
    }

    /// Kinds: daemons, the frontmost app's WebKit helper (an extension, not a second frontmost app),
    /// SpringBoard as the system; apps in background or continuous keep running.
    @Test func processesKeepTheirKindAndAppsTheirState() throws {
        let modern = try JetsamImport(file: "m.ips", name: "m").workload(from: try Field.read(Field.corpus[4]))
        let y = try #require(try Yams.load(yaml: modern.yaml) as? [String: Any])
        let processes = try #require(y["processes"] as? [String: [String: Any]])
        let apps = try #require(y["apps"] as? [String: Any])
        #expect(processes["springboard"]?["kind"] as? String == "system")
        #expect(processes["springboard"]?["band"] as? Int == 16)
        #expect(processes["com-apple-webkit-webcontent"]?["kind"] as? String == "extension")
        #expect(processes["backboardd"]?["kind"] as? String == "daemon" && processes["backboardd"]?["band"] as? Int == 17)
        #expect(apps["app"] != nil, "the frontmost app")
        let old = try JetsamImport(file: "o.ips", name: "o").workload(from: try Field.read(Field.corpus[1]))
        let yo = try #require(try Yams.load(yaml: old.yaml) as? [String: Any])
        let oldApps = try #require(yo["apps"] as? [String: [String: Any]])
        #expect(oldApps["mobilemail"]?["backgroundTask"] != nil, "continuous: MobileMail runs a background task")
        #expect(oldApps["snapchat"] != nil && oldApps["springboard"] == nil)
        #expect(old.yaml.contains("highWaterMark"), "SpringBoard carries the mark it went over")
    }

    /// Anything copied from a report into the workload is quoted or commented so that it cannot
    /// become YAML of its own.
    @Test func hostileStringsStayStrings() throws {
        var r = try Field.read(Field.corpus[1])
        let hostile = "x\nseed: 42 #\"\\\u{2028}: {a: [b]}"
        r.header.osVersion = "iPhone OS 10.1.1 \(hostile)"
        r.build = "iPhone OS 10.1.1 \(hostile)"
        r.product = "iPhone7,2\(hostile)"
        let app = r.processes.firstIndex { $0.name == "Snapchat" }!
        r.processes[app].name = "Snap\(hostile)"
        let daemon = r.processes.firstIndex { $0.name == "heard" }!
        r.processes[daemon].name = "heard\(hostile)"
        let imported = try JetsamImport(file: "evil\nname: x.ips", name: "h").workload(from: r)
        let y = try #require(try Yams.load(yaml: imported.yaml) as? [String: Any])
        #expect(y["seed"] == nil && y["name"] as? String == "h")
        let device = try #require(y["device"] as? [String: Any])
        #expect(device["osVersion"] as? String == r.build)
        #expect(!imported.yaml.contains("\nseed: 42"), "the product's line break is a '?' in its comment")
        let apps = try #require(y["apps"] as? [String: [String: Any]])
        #expect(apps.values.contains { $0["name"] as? String == "Snap\(hostile)" })
        let processes = try #require(y["processes"] as? [String: [String: Any]])
        #expect(processes.values.contains { $0["name"] as? String == "heard\(hostile)" })
    }

    /// Read, written in the report's era, read again: the same report.
    @Test(arguments: Field.corpus)
    func everyReportWritesBackInItsEra(file: String) throws {
        let r = try Field.read(file)
        let text = JetsamReportWriter.text(r)
        let again = try JetsamReportReader(file: "again").read(text)
        #expect(again.processes == r.processes)
        #expect(again.memoryStatus.pageSize == r.memoryStatus.pageSize)
        #expect(again.memoryStatus.memoryPages == r.memoryStatus.memoryPages)
        #expect(again.product == r.product && again.osVersion?.major == r.osVersion?.major)
        #expect(again.format == r.format)
    }

    /// The `.ips` layout of the corpus: bug_type in the header only, the body's keys in iOS's
    /// order, two spaces, a top-level object's members at the top level's indentation.
    @Test func theIPSLayoutIsTheCorpus() throws {
        let published = try Field.fixture(Field.corpus[4])
        let written = JetsamReportWriter.text(try Field.read(Field.corpus[4]))
        let body = written.split(separator: "\n", maxSplits: 1)[1]
        #expect(!body.contains("bug_type"))
        func keys(_ s: Substring) -> [String] {
            s.split(separator: "\n").filter { $0.hasPrefix("  \"") && !$0.hasPrefix("   ") }
                .map { String($0.dropFirst(3).prefix { $0 != "\"" }) }
        }
        let publishedBody = published.split(separator: "\n", maxSplits: 1)[1]
        let ours = keys(body)
        #expect(ours.filter { keys(publishedBody).contains($0) } == ours, "our keys in the published order")
        #expect(ours.starts(with: ["crashReporterKey", "kernel", "product", "incident", "date", "build", "timeDelta",
                                   "memoryStatus", "compressorSize", "compressions", "decompressions", "pageSize",
                                   "uncompressed", "memoryPages"]))
        #expect(body.contains("\n  },\n},\n  \"largestProcess\"") || body.contains("\n  }\n},\n  \"largestProcess\""))
        #expect(body.hasSuffix("  }\n]\n}\n"))
        // The same process, written as iOS wrote it, key by key where memprof keeps the key.
        #expect(body.contains("\n  {\n    \"states\" : [\n      \"daemon\",\n      \"idle\"\n    ],\n"))
    }
}
