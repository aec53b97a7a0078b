import Foundation
import MemprofTestSupport
import Testing

/// `memprof calibrate` through the built binary: its exit statuses, what it writes, and that the
/// calibrated sweep runs.
@Suite(.serialized) struct CalibrateEndToEndTests {
    static let day = """
        memprof: 1
        name: day
        duration: 2h
        device: {preset: iphone-11, osVersion: "iOS 18.5 (22F76)"}
        policy: seed-2015
        apps:
          team: {peakMemoryUsage: 420MB, averageSuspendedMemory: 180MB}
          browser: {launch: {footprint: 500MB}, growth: 10MB/min, maxFootprint: 1200MB, onBackground: {release: 200MB}}
          hog: {launch: {footprint: 1500MB}, onBackground: {release: 100MB}}
        generate: {switchEvery: 4m, weights: {team: 3, browser: 2, hog: 1}, homeEvery: 30m}
        """

    static func base(_ parameters: String, budget: Int = 2) -> String {
        """
        memprof: 1
        sweep: team
        workload: day.yaml
        seeds: 1..100
        calibrate:
          app: team
          parameters:
            - \(parameters)
          budget: \(budget)
          maxSeeds: 20
          profilePoints: 0

        """
    }

    /// A field of memprof's own: 20 days on an iPhone XR, exported as MetricKit payloads.
    static func field(in dir: URL) throws {
        try day.write(to: dir.appendingPathComponent("day.yaml"), atomically: true, encoding: .utf8)
        try "memprof: 1\nsweep: users\nworkload: day.yaml\nseeds: 500..519\nset: {device.systemReserved: 1500MB}\nmatrix:\n  device.preset: [iphone-xr]\n"
            .write(to: dir.appendingPathComponent("users.yaml"), atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["sweep", "users.yaml", "--out", "users"], in: dir).status == 0)
        #expect(try ProcessRunner.memprof(["export", "users", "--format", "metrickit", "-o", "payloads"], in: dir).status == 0)
    }

    @Test func badInputIsLocatedAndWritesNothing() throws {
        let dir = try Scratch.makeDirectory("calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.field(in: dir)
        try Self.base("{key: device.systemReserved, low: 2000MB, high: 0MB}").write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let r = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("base.yaml:8:55: calibrate.parameters[0].high: high (0MB) must be above low (2000MB)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        // A key the workload refuses at the range's ends is located at the parameter.
        try Self.base("{key: apps.nosuch.launch.footprint, low: 1MB, high: 2MB}").write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let unknown = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out"], in: dir)
        #expect(unknown.status == 2 && unknown.stderr.contains("base.yaml:8:13: apps.nosuch.launch.footprint:"), "\(unknown.stderr)")
        // The app must be in the field.
        try (Self.base("{key: device.systemReserved, low: 0MB, high: 2000MB}") + "  bundleIdentifier: com.example.other\n")
            .write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let other = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out"], in: dir)
        #expect(other.status == 2 && other.stderr.contains("no payload of com.example.other"), "\(other.stderr)")
        // A parameter is one value for every cell: not a key the sweep sets per cell.
        try (Self.base("{key: device.systemReserved, low: 0MB, high: 2000MB}")
            + "matrix:\n  device.preset: [iphone-xr]\nper:\n  device.preset:\n    iphone-xr: {device.systemReserved: 900MB}\n")
            .write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let perCell = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out"], in: dir)
        #expect(perCell.status == 2 && perCell.stderr.contains("base.yaml:8:13: calibrate.parameters: 'device.systemReserved' is set per cell "
            + "(per.device.preset.iphone-xr); a parameter is one value for every cell"), "\(perCell.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// A budget of two evaluations cannot reach the field from a range that cannot produce it:
    /// exit 1, the files written, the calibrated sweep runnable.
    @Test func withoutAFitItExitsOneAndWritesTheBestPoint() throws {
        let dir = try Scratch.makeDirectory("calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.field(in: dir)
        try Self.base("{key: device.systemReserved, low: 0MB, high: 100MB}").write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let r = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out", "--threads", "2"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("NO FIT (budget spent). budget spent: 2 evaluations"), "\(r.stdout)")
        #expect(r.stdout.contains("OUTSIDE"))
        #expect(Scratch.listing(dir.appendingPathComponent("out")) == ["calibration.html", "calibration.json", "sweep.yaml"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/calibration.json"))) as! [String: Any]
        #expect(json["schema"] as? String == "memprof.calibration/1" && json["outcome"] as? String == "budgetSpent")
        let sweep = try String(contentsOf: dir.appendingPathComponent("out/sweep.yaml"), encoding: .utf8)
        #expect(sweep.contains("workload: \"../day.yaml\"\nseeds: 1..20\n"), "\(sweep)")
        #expect(sweep.contains("  device.systemReserved: "))
        #expect(sweep.contains("matrix:\n  device.preset: [iphone-xr]\n"))
        let run = try ProcessRunner.memprof(["sweep", "out/sweep.yaml", "--out", "again"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The app's use the payloads measure (launches and resumes a day, time in front) is set as
    /// `apps.team.sessions`, written into calibration.json and the calibrated sweep, and the
    /// calibrated sweep runs with it (the switches' weight of the app set to 0).
    @Test func theAppsUseIsSetFromTheField() throws {
        let dir = try Scratch.makeDirectory("calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.field(in: dir)
        // Each day: 2 launches, 10 resumes, 30 minutes in front (as MetricKit writes them).
        let payloads = dir.appendingPathComponent("payloads")
        for name in try FileManager.default.contentsOfDirectory(atPath: payloads.path) where name.hasSuffix(".json") {
            let url = payloads.appendingPathComponent(name)
            var days = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
            for i in days.indices {
                func histogram(_ count: Int, _ start: String) -> [String: Any] {
                    ["histogramNumBuckets": 1, "histogramValue": ["0": ["bucketCount": count, "bucketStart": start, "bucketEnd": start]]]
                }
                days[i]["applicationLaunchMetrics"] = ["histogrammedTimeToFirstDrawKey": histogram(2, "1,000 ms"),
                                                       "histogrammedResumeTime": histogram(10, "200 ms")]
                days[i]["applicationTimeMetrics"] = ["cumulativeForegroundTime": "1,800 sec", "cumulativeBackgroundTime": "40 sec"]
            }
            try JSONSerialization.data(withJSONObject: days).write(to: url)
        }
        try Self.base("{key: device.systemReserved, low: 0MB, high: 100MB}").write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let r = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out", "--threads", "2"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        // The cell's own days set it: a row of the table, in calibration.json's cell and in the sweep's per:.
        #expect(r.stdout.contains("Set from the field, each cell from its own days"), "\(r.stdout)")
        let row = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("  device.preset=iphone-xr ") })
        #expect(row.contains(" 20 ") && row.contains(" 12.000 ") && row.contains(" 2m30s "), "\(row)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/calibration.json"))) as! [String: Any]
        let cellMeasured = try #require((json["cells"] as! [[String: Any]]).first?["measured"] as? [[String: Any]])
        #expect(cellMeasured.contains { $0["key"] as? String == "apps.team.sessions.perDay" && $0["value"] as? String == "12.000"
            && $0["source"] as? String == "applicationLaunchMetrics: launches over 20 days and resumes over 20 days, a day" })
        let measured = (json["measured"] as! [[String: Any]]).map { "\($0["key"]!)=\($0["value"]!)" }
        #expect(measured.contains("apps.team.sessions.perDay=12.000"), "\(measured)")
        // 1,800 s over 12 sessions: 150 s each.
        #expect(measured.contains("apps.team.sessions.length=150000000us"), "\(measured)")
        #expect(measured.contains("generate.weights.team=0"), "\(measured)")
        // 40 s in the background a day over 12 sessions: 3.33 s after each (inside the 10 minutes).
        #expect(measured.contains("apps.team.sessions.background=3333333us"), "\(measured)")
        let sweep = try String(contentsOf: dir.appendingPathComponent("out/sweep.yaml"), encoding: .utf8)
        #expect(sweep.contains("per:\n  device.preset:\n    iphone-xr:\n"), "\(sweep)")
        #expect(sweep.contains("      apps.team.sessions.perDay: \"12.000\"\n"), "\(sweep)")
        #expect(sweep.contains("      # from the field: applicationTimeMetrics.cumulativeForegroundTime over 20 days (1800 s a day) over the sessions a day\n"
            + "      apps.team.sessions.length: 150000000us\n"), "\(sweep)")
        let run = try ProcessRunner.memprof(["sweep", "out/sweep.yaml", "--out", "again"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        // The calibrated world keeps the app in front about as long as the field says (the
        // 2-hour day's switches no longer pick it; before, it was in front by their weights).
        let cell = try #require((json["cells"] as! [[String: Any]]).first)
        let time = try #require((cell["time"] as! [[String: Any]]).first { $0["counter"] as? String == "foregroundSeconds" })
        let simulated = try #require((time["simulated"] as? [String: Any])?["perDay"] as? Double)
        #expect(abs(simulated - 1800) < 0.2 * 1800, "simulated \(simulated) s in front a day")
        // And in the background about as long as the field says.
        let background = try #require((cell["time"] as! [[String: Any]]).first { $0["counter"] as? String == "backgroundSeconds" })
        let behind = try #require((background["simulated"] as? [String: Any])?["perDay"] as? Double)
        #expect(abs(behind - 40) < 0.2 * 40, "simulated \(behind) s in the background a day")
    }

    /// Each cell takes what the field measures on its own device: a field whose two devices'
    /// suspended footprints differ (made by a sweep with a `per:` of its own) gives each its
    /// own, a cell without field days the pooled value, said so; the calibrated sweep carries
    /// them in its `per:` and runs them.
    @Test func eachCellTakesItsOwnDevicesMeasuredValues() throws {
        let dir = try Scratch.makeDirectory("calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.day.write(to: dir.appendingPathComponent("day.yaml"), atomically: true, encoding: .utf8)
        try """
            memprof: 1
            sweep: users
            workload: day.yaml
            seeds: 500..519
            set: {device.systemReserved: 1500MB}
            matrix:
              device.preset: [iphone-xr, iphone-11]
            per:
              device.preset:
                iphone-xr: {apps.team.averageSuspendedMemory: 150MB, apps.team.peakMemoryUsage: 400MB}
                iphone-11: {apps.team.averageSuspendedMemory: 220MB}

            """.write(to: dir.appendingPathComponent("users.yaml"), atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["sweep", "users.yaml", "--out", "users"], in: dir).status == 0)
        #expect(try ProcessRunner.memprof(["export", "users", "--format", "metrickit", "-o", "payloads"], in: dir).status == 0)
        try (Self.base("{key: device.systemReserved, low: 0MB, high: 100MB}") + "matrix:\n  device: [iphone-xr, iphone-11, iphone-13-pro]\n")
            .write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let r = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "out", "--threads", "2"], in: dir)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/calibration.json"))) as! [String: Any]
        let cells = json["cells"] as! [[String: Any]]
        func measured(_ cell: Int, _ key: String) -> (bytes: Double, source: String)? {
            guard let m = (cells[cell]["measured"] as? [[String: Any]])?.first(where: { $0["key"] as? String == "apps.team.\(key)" }),
                  let value = m["value"] as? String, let bytes = Double(value.dropLast()) else { return nil }
            return (bytes, m["source"] as? String ?? "")
        }
        let mb = 1_048_576.0
        let xr = try #require(measured(0, "averageSuspendedMemory")), eleven = try #require(measured(1, "averageSuspendedMemory"))
        #expect(abs(xr.bytes / mb - 150) < 2 && abs(eleven.bytes / mb - 220) < 2, "\(xr) \(eleven)")
        #expect(abs((try #require(measured(0, "peakMemoryUsage"))).bytes / mb - 400) < 2)
        #expect(abs((try #require(measured(1, "peakMemoryUsage"))).bytes / mb - 420) < 2)
        #expect(xr.source.hasSuffix("suspensions on 20 days"), "\(xr.source)")
        // The iPhone 13 Pro has no field: it takes every matched day's pooled value, and says so.
        let pooled = try #require(measured(2, "averageSuspendedMemory"))
        #expect(cells[2]["role"] as? String == "noField")
        #expect(pooled.bytes > xr.bytes && pooled.bytes < eleven.bytes, "\(pooled)")
        #expect(pooled.source.hasSuffix("on 40 days; pooled over every matched day: the field has no day of this cell"), "\(pooled.source)")
        let top = (json["measured"] as! [[String: Any]]).first { $0["key"] as? String == "apps.team.averageSuspendedMemory" }
        #expect(top?["value"] as? String == "\(Int64(pooled.bytes))B")
        #expect(r.stdout.contains("  device.preset=iphone-13-pro (no field: pooled)"), "\(r.stdout)")
        let sweep = try String(contentsOf: dir.appendingPathComponent("out/sweep.yaml"), encoding: .utf8)
        #expect(sweep.contains("per:\n  device.preset:\n    iphone-xr:\n      # from the field: the mean of 20 days' memoryMetrics.peakMemoryUsage\n"),
                "\(sweep)")
        #expect(!sweep.contains("set:\n  apps.team."), "\(sweep)")
        // The calibrated sweep runs each cell with its own.
        let run = try ProcessRunner.memprof(["sweep", "out/sweep.yaml", "--out", "again"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let fleet = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("again/fleet.json"))) as! [String: Any]
        let overrides = ((fleet["cells"] as! [[String: Any]])[1]["overrides"] as! [[String: String]]).map { "\($0["keyPath"]!)=\($0["value"]!)" }
        #expect(overrides.contains("apps.team.averageSuspendedMemory=\(Int64(eleven.bytes))B") && overrides.last == "device.preset=iphone-11",
                "\(overrides)")
        let page = try String(contentsOf: dir.appendingPathComponent("out/calibration.html"), encoding: .utf8)
        #expect(page.contains("<h2>Set from the field, per cell</h2>") && page.contains("<td>device.preset=iphone-13-pro</td>"))
    }

    /// The field as `memprof field -o` summarises it calibrates as the payloads do: the same
    /// calibration.json but for the paths it names. A field.json beside payloads is refused,
    /// and a malformed one located.
    @Test func aFieldJSONCalibratesAsItsPayloads() throws {
        let dir = try Scratch.makeDirectory("calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.field(in: dir)
        #expect(try ProcessRunner.memprof(["field", "payloads", "-o", "field.json"], in: dir).status == 0)
        try Self.base("{key: device.systemReserved, low: 0MB, high: 100MB}").write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let fromPayloads = try ProcessRunner.memprof(["calibrate", "payloads", "--sweep", "base.yaml", "-o", "a", "--threads", "2"], in: dir)
        let fromSummary = try ProcessRunner.memprof(["calibrate", "field.json", "--sweep", "base.yaml", "-o", "b", "--threads", "2"], in: dir)
        #expect(fromPayloads.status == 1 && fromSummary.status == 1, "\(fromSummary.stderr)")
        func json(_ folder: String) throws -> [String: Any] {
            var j = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("\(folder)/calibration.json"))) as! [String: Any]
            var field = j["field"] as! [String: Any]
            field["paths"] = nil
            j["field"] = field
            return j
        }
        let a = try json("a"), b = try json("b")
        #expect(NSDictionary(dictionary: a).isEqual(to: b), "field.json and its payloads calibrate differently")
        #expect((a["cells"] as! [[String: Any]]).first?["days"] as? Int == 20)
        // Not both at once.
        let both = try ProcessRunner.memprof(["calibrate", "field.json", "payloads", "--sweep", "base.yaml", "-o", "c"], in: dir)
        #expect(both.status == 2 && both.stderr.contains("field.json is a field.json (memprof.field/1); give it alone"), "\(both.stderr)")
        // A rate whose mean is not its total over its days, located.
        var text = try String(contentsOf: dir.appendingPathComponent("field.json"), encoding: .utf8)
        let perDay = try #require(text.range(of: "\"perDay\" : "))
        text.replaceSubrange(perDay.upperBound..<text[perDay.upperBound...].firstIndex(of: ",")!, with: "7")
        try text.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.memprof(["calibrate", "bad.json", "--sweep", "base.yaml", "-o", "c"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("bad.json:") && bad.stderr.contains("cells[0].exits[0].perDay: 7.0 a day is not the total"),
                "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c").path))
    }
}
