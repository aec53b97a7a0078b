import Foundation
import MemprofTestSupport
import Testing

/// `memprof whatif` through the built binary, on the news reader of
/// scripts/examples/news-reader.yaml over two-hour days on two iPhones mixed 60/40: the answer
/// leads with the app's background memory-pressure exits per 1,000 days and their relative
/// change with its interval, writes Markdown for a pull request and MetricKit payloads of both
/// worlds that `memprof field` reads, and refuses bad changes with their place, exit 2, writing
/// nothing.
@Suite(.serialized) struct WhatIfEndToEndTests {
    static let sweep = """
        memprof: 1
        sweep: news-whatif
        workload: \(Repository.root.appendingPathComponent("scripts/examples/news-reader.yaml").path)
        seeds: 1..6
        set: {duration: 2h, script: [{at: 0s, open: news}]}
        matrix:
          device.preset: [iphone-11, iphone-15]
        mix:
          device.preset: {iphone-11: 60%, iphone-15: 40%}
        """

    @Test func theAnswerLeadsWithTheAppsRateAndItsIntervalAndWritesMarkdownAndPayloads() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let w = try ProcessRunner.memprof(["whatif", "sweep.yaml", "--set", "apps.news.averageSuspendedMemory=120MB",
                                           "--out", "w", "--markdown", "pr.md", "--threads", "2"], in: dir)
        #expect(w.status == 0, "\(w.stderr)")
        let lines = w.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "memprof whatif news-whatif: apps.news.averageSuspendedMemory=120MB, on the base's 6 seeds (1..6, paired)", "\(w.stdout)")
        #expect(lines[1].hasPrefix("news, the team's app: MetricKit's exits per 1,000 device-days (a run (2h) counts as a device-day"),
                "\(w.stdout)")
        let headline = #"^  news: background memory-pressure exits per 1,000 days, weighted by the device mix: [0-9.]+ → [0-9.]+ "#
            + #"\(([-+][0-9.]+%, 95% interval [-+][0-9.]+% to [-+][0-9.]+%|[-+][0-9.]+, 95% interval [-+][0-9.]+ to [-+][0-9.]+), p = "#
        #expect(lines[3].range(of: headline, options: .regularExpression) != nil, "\(w.stdout)")
        // The table: the app's rows, weighted first, then each cell.
        let header = try #require(lines.firstIndex { $0.hasPrefix("app ") })
        #expect(lines[header].contains("change (95% interval)"))
        #expect(lines[header + 1].hasPrefix("news") && lines[header + 1].contains("weighted: all"), "\(w.stdout)")
        #expect(lines[header + 2].contains("device.preset=iphone-11") && lines[header + 3].contains("device.preset=iphone-15"))
        #expect(w.stdout.contains("average suspended memory"))

        let markdown = try String(contentsOf: dir.appendingPathComponent("pr.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("### memprof whatif news-whatif: apps.news.averageSuspendedMemory=120MB"), "\(markdown)")
        #expect(markdown.contains("- **news: background memory-pressure exits per 1,000 days, weighted by the device mix: "))
        #expect(markdown.contains("| app | MetricKit | cell | base | what-if | change (95% interval) | p |"))
        #expect(try String(contentsOf: dir.appendingPathComponent("w/whatif.md"), encoding: .utf8) == markdown)
        #expect(Scratch.listing(dir.appendingPathComponent("w")).filter { !$0.contains("/") } == ["base", "changed", "metrickit", "whatif.json", "whatif.md"])

        // The changed world's payloads read as a field: a payload per device-day, 6 days a cell.
        let field = try ProcessRunner.memprof(["field", "w/metrickit/changed", "--app", "news"], in: dir)
        #expect(field.status == 0, "\(field.stderr)")
        #expect(field.stdout.contains("news on iPhone12,1") && field.stdout.contains(": 6 days"), "\(field.stdout)")
    }

    @Test func badChangesNameTheirPlaceAndWriteNothing() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let value = try ProcessRunner.memprof(["whatif", "sweep.yaml", "--set", "apps.news.averageSuspendedMemory=120XB", "--out", "w"], in: dir)
        #expect(value.status == 2, "\(value.stderr)")
        #expect(value.stderr.hasPrefix("memprof: --set apps.news.averageSuspendedMemory=120XB:") && value.stderr.contains("apps.news.averageSuspendedMemory"),
                "\(value.stderr)")
        let app = try ProcessRunner.memprof(["whatif", "sweep.yaml", "--set", "apps.nws.averageSuspendedMemory=120MB", "--out", "w"], in: dir)
        #expect(app.status == 2 && app.stderr.contains("apps.nws"), "\(app.stderr)")
        let mix = try ProcessRunner.memprof(["whatif", "sweep.yaml", "--mix", "device.preset={iphone-11: 60%, iphone-12: 40%}", "--out", "w"], in: dir)
        #expect(mix.status == 2, "\(mix.stderr)")
        #expect(mix.stderr.hasPrefix("memprof: --mix device.preset={iphone-11: 60%, iphone-12: 40%}:1:32: mix.device.preset"), "\(mix.stderr)")
        let none = try ProcessRunner.memprof(["whatif", "sweep.yaml", "--out", "w"], in: dir)
        #expect(none.status == 2 && none.stderr.contains("a what-if needs a change"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("w").path))
        #expect(Scratch.listing(dir) == ["sweep.yaml"])
    }

    /// From a field memprof writes (1,500 MB reserved by the system) to a calibration, its page,
    /// and a what-if re-run at the ends of the fitted reserve's interval.
    @Test func aCalibratedWhatIfSpansTheFitAndTheCalibrationHasItsPage() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The three-hour day of scripts/examples/calibration-day.yaml (the browser check runs it too).
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("scripts/examples/calibration-day.yaml"),
                                         to: dir.appendingPathComponent("day.yaml"))
        try "memprof: 1\nsweep: truth\nworkload: day.yaml\nseeds: 1001..1012\nset: {device.systemReserved: 1500MB}\nmatrix:\n  device.preset: [iphone-xr, iphone-11]\n"
            .write(to: dir.appendingPathComponent("truth.yaml"), atomically: true, encoding: .utf8)
        try """
            memprof: 1
            sweep: team
            workload: day.yaml
            seeds: 1..1000
            matrix:
              device.preset: [iphone-xr, iphone-11]
            calibrate:
              app: team
              parameters:
                - {key: device.systemReserved, low: 0MB, high: 2000MB}
              budget: 4
              maxSeeds: 20
              profilePoints: 3
            """.write(to: dir.appendingPathComponent("team.yaml"), atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["sweep", "truth.yaml", "--out", "truth"], in: dir).status == 0)
        #expect(try ProcessRunner.memprof(["export", "truth", "--format", "metrickit", "-o", "payloads"], in: dir).status == 0)
        let calibrate = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "team.yaml", "--out", "calibrated"], in: dir)
        #expect(calibrate.status == 0 || calibrate.status == 1, "\(calibrate.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("calibrated/calibration.html"), encoding: .utf8)
        let calibration = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("calibrated/calibration.json"))) as! [String: Any]
        let evaluations = (calibration["evaluations"] as! [Any]).count
        #expect(page.contains("<p class=\"outcome ") && page.contains("<code>device.systemReserved</code>"))
        #expect(page.components(separatedBy: "<circle class=\"").count - 1 >= evaluations && page.contains("id=\"evaluations\""))
        #expect(page.components(separatedBy: "<line class=\"sim\"").count - 1 >= 2, "every cell's memory-pressure rate against the field's")
        #expect(!page.contains("<script"), "the page makes no request and runs no script")

        let w = try ProcessRunner.memprof(["whatif", "calibrated/sweep.yaml", "--set", "apps.team.averageSuspendedMemory=120MB",
                                           "--calibration", "calibrated/calibration.json", "--out", "w"], in: dir)
        #expect(w.status == 0, "\(w.stderr)")
        #expect(w.stdout.contains("  team: background memory-pressure exits per 1,000 days, weighted by the device mix: "), "\(w.stdout)")
        #expect(w.stdout.contains("    at the ends of the fitted parameters' 95% intervals: "), "\(w.stdout)")
        // Sizes as memprof prints them (`1400 MB`), not the sweep's exact bytes (`1468006400B`).
        let size = "[0-9.]+ [KMG]?B"
        #expect(w.stdout.range(of: "\n  device.systemReserved: fitted \(size), 95% interval \(size) to \(size)[ \n]", options: .regularExpression) != nil,
                "\(w.stdout)")
        for name in ["fit/1-low/base/fleet.json", "fit/1-low/changed/runs.csv", "fit/1-high/changed/fleet.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("w/\(name)").path), "\(name)")
        }
        let broken = try ProcessRunner.memprof(["whatif", "calibrated/sweep.yaml", "--set", "apps.team.averageSuspendedMemory=120MB",
                                                "--calibration", "team.yaml", "--out", "w2"], in: dir)
        #expect(broken.status == 2 && broken.stderr.hasPrefix("memprof: team.yaml:1:1: ") && broken.stderr.contains("(not a calibration.json of memprof calibrate)"),
                "\(broken.stderr)")
        // A calibration.json broken in a value: its line, column and key, exit 2, nothing written.
        var text = try String(contentsOf: dir.appendingPathComponent("calibrated/calibration.json"), encoding: .utf8)
        let fitted = try #require(text.range(of: #""fittedText" : "[0-9]+B""#, options: .regularExpression))
        text.replaceSubrange(fitted, with: #""fittedText" : 7"#)
        try text.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let line = text[..<fitted.lowerBound].filter { $0 == "\n" }.count + 1
        let bad = try ProcessRunner.memprof(["whatif", "calibrated/sweep.yaml", "--set", "apps.team.averageSuspendedMemory=120MB",
                                             "--calibration", "bad.json", "--out", "w3"], in: dir)
        #expect(bad.status == 2, "\(bad.stderr)")
        #expect(bad.stderr.hasPrefix("memprof: bad.json:\(line):") && bad.stderr.contains(": parameters[0].fittedText: expected a string"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("w3").path))
    }
}
