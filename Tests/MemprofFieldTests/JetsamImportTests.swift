import Foundation
import MemprofCore
@testable import MemprofField
import MemprofReport
import MemprofTestSupport
import MemprofWorkload
import Testing

/// Issue 16: published JetsamEvent reports replay to the same kill, exported reports round-trip
/// through `memprof import`, and foreign or bad reports are refused with a located error.
@Suite struct JetsamImportTests {
    /// Every published per-process-limit report kills its app again, for memoryLimit, and only it.
    @Test(arguments: [
        ("ios11-iphone8-memorytest.ips", "memorytest", Int64(89600) * 16384),
        ("ios-iphone6plus-memorylimittest.ips", "memorylimittest", Int64(166400) * 4096),
        ("ios13-ipad-apple-documentation.ips", "mycoolapp", Int64(92802) * 16384),
    ])
    func publishedReportsReplayToTheSameKill(file: String, app: String, limit: Int64) throws {
        let report = try Field.read(file)
        let (exits, imported, result) = try Field.replay(report, file: file)
        #expect(imported.expectedKills.map(\.app) == [app])
        #expect(exits.map(\.app) == [app], "\(imported.yaml)")
        #expect(exits.map(\.reason) == [.memoryLimit])
        #expect(result.workload.device.appLimit == limit, "the limit is the victim's resident pages")
        #expect(result.workload.device.pageSize == report.memoryStatus.pageSize)
        #expect(result.workload.policy.name == "xnu")
    }

    @Test func theIPhone8ReportTakesItsRAMFromTheProductAndItsFreePagesFromMemoryStatus() throws {
        let report = try Field.read("ios11-iphone8-memorytest.ips")
        let (_, imported, result) = try Field.replay(report)
        let device = result.workload.device
        #expect(device.ram == 2 * .gigabyte)
        // ram − the app's 1400 MB − 2935 free pages of 16 KB.
        let reserved: Int64 = 2 * 1024 * 1024 * 1024 - 89600 * 16384 - 2935 * 16384
        #expect(device.systemReserved == reserved)
        #expect(imported.notes.first == "RAM 2 GB: iPhone 8 (iPhone10,1)")
    }

    /// A modern report: SpringBoard is frontmost at band 160, so it is system memory, not an app;
    /// the suspended widget extensions are apps in band 0; RAM from the product (6 GB).
    @Test func aModernReportKillsTheNamedSuspendedExtensionForPageShortage() throws {
        var report = try Field.read("ios18-iphone14-excerpt.ips")
        let victim = report.processes.firstIndex { $0.name == "MiniWidgetExtension" }!
        report.processes[victim].reason = "vm-pageshortage"
        let (exits, imported, result) = try Field.replay(report)
        #expect(!imported.yaml.contains("springboard"), "SpringBoard (band 160) is not an app")
        // The five suspended extensions, and the app that stands for the demand (no app is frontmost).
        #expect(result.workload.apps.map(\.id).sorted() == ["batterieswidgetextension", "healthmentalhealthwidgetextensio",
                                                            "memprof-demand", "miniwidgetextension", "musicwidgets", "newstag"])
        #expect(exits.map(\.app) == ["miniwidgetextension"], "\(imported.yaml)")
        #expect(exits.map(\.reason) == [.memoryPressure])
        #expect(result.jetsamEvents.map(\.killed) == ["miniwidgetextension"])
    }

    @Test func aReportWithoutAKillIsRefused() throws {
        let report = try Field.read("ios18-iphone14-excerpt.ips")
        #expect(throws: IPSError.self) { try JetsamImport(file: "x.ips", name: "x").workload(from: report) }
    }

    /// A daemon over its high-water mark has no model in memprof: refused, at the line of the killed process.
    @Test func aForeignKillIsRefusedWhereTheReportNamesIt() throws {
        let report = try Field.read("ios14-iphone11-highwater-daemon.ips")
        do {
            _ = try JetsamImport(file: "h.ips", name: "h").workload(from: report)
            Issue.record("a highwater kill was imported")
        } catch {
            #expect(error.description.hasPrefix("h.ips:39:3: processes[1].reason: 'highwater' kills are not modelled"), "\(error)")
        }
    }

    /// Every moment of memory kills of a built-in run, exported and imported again, kills the
    /// same apps for the same reasons.
    @Test(arguments: ["phone-day", "phone-day-xnu", "ipad-afternoon"])
    func exportedReportsRoundTripToTheSameKills(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        let files = JetsamExport.reports(report)
        #expect(!files.isEmpty || report.jetsamEvents.isEmpty)
        #expect(Set(files.map(\.name)).count == files.count)
        for file in files {
            let parsed = try JetsamReportReader(file: file.name).read(file.text)
            #expect(parsed == file.report, "the reader reads back what the writer wrote")
            let moment = report.jetsamEvents.filter { $0.atUs == file.atUs }
            let expectedApps: [String] = moment.map(\.killed)
            let expectedReasons: [ExitReason] = moment.map(\.exitReason)
            let (exits, imported, _) = try Field.replay(parsed, file: file.name)
            #expect(exits.map(\.app) == expectedApps, "\(file.name)\n\(imported.yaml)")
            #expect(exits.map(\.reason) == expectedReasons)
        }
    }

    @Test func importedAppKeysAreValidAndUnique() {
        var taken: Set<String> = []
        #expect(JetsamImport.uniqueKey(for: "MobileSafari", taken: &taken) == "mobilesafari")
        #expect(JetsamImport.uniqueKey(for: "MTLCompilerService", taken: &taken) == "mtlcompilerservice")
        #expect(JetsamImport.uniqueKey(for: "MTLCompilerService", taken: &taken) == "mtlcompilerservice-2")
        #expect(JetsamImport.uniqueKey(for: "com.apple.WebKit.WebContent", taken: &taken) == "com-apple-webkit-webcontent")
        #expect(JetsamImport.uniqueKey(for: "日本語", taken: &taken) == "app")
        #expect(JetsamImport.uniqueKey(for: "3DMark", taken: &taken) == "app-3dmark")
    }
}
