import Foundation
import MemprofReport
import MemprofReportReader
import MemprofTestSupport
import Testing

let goodWorkload = """
memprof: 1
name: commute
seed: 7
duration: 20m
device: iphone-6-plus
apps:
  mail:
    launch: {footprint: 45MB, time: 1.2s}
    onBackground: {release: 30MB}
  game:
    launch: {footprint: 600MB, time: 4s}
script:
  - {at: 0s, open: mail}
  - {at: 2m, open: game}
  - {at: 10m, open: mail}
"""

@Suite(.serialized) struct RunEndToEndTests {
    @Test func runWritesTheReportAndPrintsASummary() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "commute.yaml"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("commute: 20m on iphone-6-plus, policy seed-2015, seed 7"))
        // mail (15 MB after its release) is compressed when the game comes forward; the game
        // takes 600 MB of 724 MB, so nothing needs evicting: 1 compression (singular), 0 evictions.
        #expect(outcome.stdout.contains("1 compression, 0 evictions"))
        let data = try Data(contentsOf: dir.appendingPathComponent("Reports/commute/report.json"))
        let report = try ReportJSON.decode(data)
        #expect(report.summary.compressions == 1)
        #expect(report.apps["mail"]?.launches.fromCompressed == 1)
        #expect(Scratch.listing(dir.appendingPathComponent("Reports/commute")).contains("report.json"))
        #expect(!Scratch.listing(dir).contains { $0.contains(".tmp-") })
    }

    @Test func sameSeedSameBytesApartFromHostAndProfile() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        func withoutHost(_ path: String) throws -> Data {
            let data = try Data(contentsOf: dir.appendingPathComponent(path))
            var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            object["host"] = nil
            object["profile"] = nil
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "a"], in: dir).status == 0)
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "b"], in: dir).status == 0)
        #expect(try withoutHost("a/report.json") == (try withoutHost("b/report.json")))
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "c", "--seed", "99"], in: dir).status == 0)
        #expect(try withoutHost("a/report.json") != (try withoutHost("c/report.json")))
    }

    @Test func badInputExitsTwoWithALocatedErrorAndWritesNothing() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = goodWorkload.replacingOccurrences(of: "{footprint: 45MB, time: 1.2s}",
                                                    with: "{footprnt: 45MB, time: 1.2s}")
        try bad.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "commute.yaml"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr
            == "memprof: commute.yaml:8:14: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)\n")
        #expect(outcome.stdout.isEmpty)
        #expect(Scratch.listing(dir) == ["commute.yaml"])
    }

    @Test func badInputLeavesAnEarlierReportUntouched() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("commute.yaml")
        try goodWorkload.write(to: file, atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["run", "commute.yaml"], in: dir).status == 0)
        let before = try Data(contentsOf: dir.appendingPathComponent("Reports/commute/report.json"))
        try goodWorkload.replacingOccurrences(of: "duration: 20m", with: "duration: 20")
            .write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "commute.yaml"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("commute.yaml:4:11: duration: '20' has no unit"))
        #expect(try Data(contentsOf: dir.appendingPathComponent("Reports/commute/report.json")) == before)
    }

    @Test(arguments: [
        ("no-such-file.yaml", "no-such-file.yaml: no such file"),
        ("phone-dya", "did you mean 'phone-day'?"),
    ])
    func missingWorkloads(argument: String, expected: String) throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try ProcessRunner.memprof(["run", argument], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(expected))
        #expect(Scratch.listing(dir).isEmpty)
    }

    /// A folder named like a built-in workload (an earlier `run NAME --out NAME`) does not hide
    /// the built-in; a folder of any other name is named as a folder.
    @Test func aFolderOfABuiltinsNameLeavesTheBuiltin() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try ProcessRunner.memprof(["run", "phone-day", "--out", "phone-day", "--no-sampling"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try ProcessRunner.memprof(["run", "phone-day", "--out", "again", "--no-sampling"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let a = try Data(contentsOf: dir.appendingPathComponent("phone-day/report.json"))
        let b = try Data(contentsOf: dir.appendingPathComponent("again/report.json"))
        #expect(String(decoding: a, as: UTF8.self).contains("\"source\":\"builtin:phone-day\"")
                && String(decoding: b, as: UTF8.self).contains("\"source\":\"builtin:phone-day\""))
        #expect(try ProcessRunner.memprof(["validate", "phone-day"], in: dir).status == 0)
        // A sweep's `workload:` is read the same way.
        try "memprof: 1\nsweep: s\nworkload: phone-day\nseeds: 1..2\n".write(to: dir.appendingPathComponent("s.yaml"),
                                                                           atomically: true, encoding: .utf8)
        let sweep = try ProcessRunner.memprof(["sweep", "s.yaml", "--out", "fleet"], in: dir)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mine"), withIntermediateDirectories: false)
        let folder = try ProcessRunner.memprof(["run", "mine"], in: dir)
        #expect(folder.status == 2)
        #expect(folder.stderr == "memprof: mine: is a folder, not a file\n")
    }

    @Test func commandLineMistakesAreBadInputToo() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "--seed", "minus-one"], in: dir).status == 2)
        #expect(try ProcessRunner.memprof(["list", "gadgets"], in: dir).status == 2)
        #expect(try ProcessRunner.memprof(["frobnicate"], in: dir).status == 2)
    }

    @Test func validateChecksWithoutWriting() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload.write(to: dir.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try goodWorkload.replacingOccurrences(of: "open: game}", with: "open: gaem}")
            .write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let good = try ProcessRunner.memprof(["validate", "good.yaml"], in: dir)
        #expect(good.status == 0)
        #expect(good.stdout.contains("good.yaml: ok"))
        let bad = try ProcessRunner.memprof(["validate", "good.yaml", "bad.yaml"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.yaml:14:20: script[1].open: no app named 'gaem' in apps (did you mean 'game'?)"))
        #expect(Scratch.listing(dir) == ["bad.yaml", "good.yaml"])
    }

    @Test func listShowsWhatIsBuiltIn() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let devices = try ProcessRunner.memprof(["list", "devices"], in: dir)
        #expect(devices.status == 0)
        let rows = devices.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["device", "platform", "RAM", "app", "memory", "app", "limit", "flash", "store", "limit", "from",
                               "shipped", "latest", "osVersion", "page"])
        let plus = try #require(rows.first { $0.first == "iphone-6-plus" })
        #expect(Array(plus.prefix(10)) == ["iphone-6-plus", "ios", "1", "GB", "724", "MB", "645", "MB", "256", "MB"])
        #expect(plus.suffix(2) == ["4", "KB"], "the A8's 4 KB pages")
        // Today's devices, their measured or derived limits, and 16 KB pages from the A9.
        let fifteen = try #require(rows.first { $0.first == "iphone-15" })
        #expect(fifteen.contains("derived") && fifteen.contains("iphone-13-pro") && fifteen.suffix(2) == ["16", "KB"])
        #expect(rows.first { $0.first == "iphone-6s" }?.contains("measured") == true)
        #expect(devices.stdout.hasSuffix("\nWhere each number comes from: memprof list devices --sources\n"))
        // Every number with its source: the iPhone 15's RAM from Xcode 15's listing, its derived
        // limit down to the measurement it rests on, its page size from the published reports.
        let sources = try ProcessRunner.memprof(["list", "devices", "--sources"], in: dir)
        #expect(sources.status == 0)
        let blocks = sources.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(blocks.count == rows.count - 2, "a block per row of the table")
        let block = try #require(blocks.first { $0.hasPrefix("iphone-15: iPhone 15 (iPhone15,4), 2023, A16 Bionic\n") })
        #expect(block.contains("\n  RAM 6 GB: MacRumors: iPhone 15 Pro 8 GB, iPhone 15 6 GB, from Xcode 15 RC <https://www.macrumors.com/"))
        #expect(block.contains("\n  app limit 3195 MB: derived: iPhone 13 Pro's limit") && block.contains("measured: iphone-13-pro (os_proc_available_memory"))
        #expect(block.contains("\n  page 16 KB: JetsamEvent fixtures with pageSize 16384"))
        // The entitlement under xnu on the preset's iOS, with its source.
        #expect(block.contains("\n  increased-memory-limit on iOS 27.0 (xnu): 4300 MB, the app limit × 420 ÷ 312 as published for iphone-13-pro: a-ghorbani/pocketpal-ai"))
        let eight = try #require(blocks.first { $0.hasPrefix("iphone-8: ") })
        #expect(eight.contains("\n  increased-memory-limit on iOS 16.7.16 (xnu): no raise under 4 GB of RAM")
            && eight.contains("developer.apple.com/forums/thread/740831"))
        // The iPhones of 2025 and a limit an OS release changed.
        let seventeen = try #require(blocks.first { $0.hasPrefix("iphone-17-pro: iPhone 17 Pro (iPhone18,1), 2025, A19 Pro\n") })
        #expect(seventeen.contains("\n  RAM 12 GB: MacRumors: iPhone 17 8 GB") && seventeen.contains("app limit 3375 MB: derived"))
        let air5 = try #require(blocks.first { $0.hasPrefix("ipad-air-5: ") })
        #expect(air5.contains("\n  app limit before iPadOS 26.4 (xnu): 6144 MB: derived: ≈6 GB available per app on iPadOS 26.0–26.3"))
        #expect(air5.contains("\n  virtual memory swap from iPadOS 16, apps up to 16 GB: MacRumors: iPadOS 16 virtual memory swap"))
        #expect(blocks.filter { $0.contains("\n  virtual memory swap ") }.map { $0.prefix { $0 != ":" } } == ["ipad-pro-11-3", "ipad-air-5"])
        for b in blocks where !b.hasPrefix("macbook") {
            // Eight lines, one per earlier limit, and one for swap where the device has it.
            #expect(b.split(separator: "\n").filter { !$0.hasPrefix("  app limit before ") && !$0.hasPrefix("  virtual memory swap ") }.count == 8, "\(b)")
        }
        let wrong = try ProcessRunner.memprof(["list", "policies", "--sources"], in: dir)
        #expect(wrong.status != 0 && wrong.stderr.contains("--sources goes with 'list devices'"))
        #expect(rows.contains { $0.first == "ipad-pro-11-m4" })
        #expect(rows.contains { $0.first == "ipad-air-2" })
        #expect(rows.contains { $0.prefix(2) == ["macbook-pro-2015", "macos"] })
        // Columns line up: every row of a table is as wide as its header.
        let deviceWidths = Set(devices.stdout.split(separator: "\n").dropLast().map(\.count))
        #expect(deviceWidths.count == 1)
        let policies = try ProcessRunner.memprof(["list", "policies"], in: dir).stdout.split(separator: "\n")
        #expect(policies.count == 2)
        #expect(policies[0].hasPrefix("seed-2015  compress under 16 MB"))
        #expect(policies[1].hasPrefix("xnu        jetsam bands (xnu-8792.41.9; a device's iOS version picks its era) idle 0"))
        // xnu-8792 on a phone: the compressor's default ratio, xnu's thresholds of available memory
        // (15% pressure, 10% idle) and the freezer's budget era by era, as runs write it.
        #expect(policies[1].contains("compress in RAM (2.66× unless an app says), warning under 15% of RAM available, "
                                     + "critical under 10%, freezer budget a day (summary.freezer.dailyBudgetBytes): none to iOS 11, "
                                     + "1024 MB iOS 12 to 17 (xnu-4903.221.2 to xnu-10002.1.13), 2048 MB from iOS 18 (xnu-11215.1.10); "
                                     + "on a Mac warning at 0.8"))
        // A built-in sweep's YAML, to copy as a template; a sweep's name under workloads says where it is.
        let sweep = try ProcessRunner.memprof(["list", "sweeps", "--yaml", "today-phones"], in: dir)
        #expect(sweep.status == 0 && sweep.stdout.hasPrefix("memprof: 1\nsweep: today-phones\n"))
        let misplaced = try ProcessRunner.memprof(["list", "workloads", "--yaml", "today-phones"], in: dir)
        #expect(misplaced.status == 2 && misplaced.stderr.contains("'today-phones' is a built-in sweep: memprof list sweeps --yaml today-phones"))
        let workloads = try ProcessRunner.memprof(["list", "workloads"], in: dir)
        #expect(workloads.stdout.contains("phone-day (default)"))
        #expect(workloads.stdout.contains("background-heavy"))
        #expect(workloads.stdout.contains("ipad-afternoon"))
    }

    @Test func macRunsPageOutInsteadOfKilling() throws {
        // 724 MB for apps (1 GB − 300 MB); mail 45 MB + game 700 MB = 745 MB from 2m: 21 MB paged
        // out until the end (20m), since a Mac app that leaves the front keeps running.
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload
            .replacingOccurrences(of: "device: iphone-6-plus",
                                  with: "device: {preset: macbook-pro-2015, ram: 1GB, systemReserved: 300MB}")
            .replacingOccurrences(of: "footprint: 600MB", with: "footprint: 700MB")
            .write(to: dir.appendingPathComponent("mac.yaml"), atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["validate", "mac.yaml"], in: dir).status == 0)
        let run = try ProcessRunner.memprof(["run", "mac.yaml", "--out", "out"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("0 compressions, 0 evictions"))
        #expect(run.stdout.contains("swap       peak 21 MB paged out, 18m over RAM"))
        let report = try ReportJSON.decode(try Data(contentsOf: dir.appendingPathComponent("out/report.json")))
        #expect(report.summary.swap?.peakBytes == Int64(21 * 1_048_576))
        #expect(report.summary.swap?.timeOverRamUs == Int64(18 * 60_000_000))
        #expect(report.summary.evictions == 0)
        #expect(report.notifications.apps["mail"]?.posted["NSApplicationDidResignActiveNotification"] == 1)
        #expect(report.notifications.findings == nil)
    }
}
