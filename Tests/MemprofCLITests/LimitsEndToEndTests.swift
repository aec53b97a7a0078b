import Foundation
import MemprofTestSupport
import Testing

/// Limits through the built binary: limits are shown before and after a run (the warnings and
/// `headroom`), and releases stop at the app's floor (`minFootprint`), not at 0 B.
@Suite(.serialized) struct LimitsEndToEndTests {
    static let overLimits = """
        memprof: 1
        name: limits
        duration: 30m
        device: iphone-6-plus
        apps:
          sync:
            launch: {footprint: 40MB}
            modes: [fetch]
            fetch: {interval: 10m, time: 4s}
            backgroundTask: {time: 12m, endsOnExpiration: true}
        script:
          - {at: 0s, open: sync}
          - {at: 1m, home: true}
        """

    @Test func handlerTimesOverTheirLimitsWarnAndHeadroomIsShown() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.overLimits.write(to: dir.appendingPathComponent("limits.yaml"), atomically: true, encoding: .utf8)
        let warning = "limits.yaml:10:28: apps.sync.backgroundTask.time: 12m does not fit the 10m background task limit"

        // validate warns, located, and still says ok (exit 0): the run is valid, the limit decides.
        let validate = try ProcessRunner.memprof(["validate", "limits.yaml"], in: dir)
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("limits.yaml: ok"))
        #expect(validate.stderr.contains("memprof: warning: " + warning), "\(validate.stderr)")
        #expect(!validate.stderr.contains("fetch.time"), "a 4 s fetch fits its 30 s window")

        let run = try ProcessRunner.memprof(["run", "limits.yaml", "--out", "r", "--no-sampling"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.contains(warning))
        // The terminal summary gives each declared handler's headroom.
        #expect(run.stdout.contains("background task 12m of 10m, 2m over"), "\(run.stdout)")
        #expect(run.stdout.contains("fetch 4s of 30s, 26s to spare"))

        // report.json: apps.sync.headroom, in µs and bytes.
        let data = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let apps = try #require(report["apps"] as? [String: Any])
        let sync = try #require(apps["sync"] as? [String: Any])
        let headroom = try #require(sync["headroom"] as? [String: Any])
        let task = try #require(headroom["backgroundTask"] as? [String: Any])
        #expect(task["declaredUs"] as? Int == 720_000_000)
        #expect(task["limitUs"] as? Int == 600_000_000)
        #expect(task["spareUs"] as? Int == -120_000_000)
        let fetch = try #require(headroom["fetch"] as? [String: Any])
        #expect(fetch["spareUs"] as? Int == 26_000_000)
        let footprint = try #require(headroom["footprint"] as? [String: Any])
        #expect(footprint["limitBytes"] as? Int == 645 * 1_048_576)
        #expect(footprint["peakBytes"] as? Int == 40 * 1_048_576)
        #expect(headroom["push"] == nil, "no push handler declared")

        // report.html: the limits table, the overrun marked.
        let html = try String(contentsOf: dir.appendingPathComponent("r/report.html"), encoding: .utf8)
        #expect(html.contains("<table id=\"htable\">"))
        #expect(html.contains("<td class=\"over\">12m of 10m<br><small>2m over</small></td>"))
        #expect(html.contains("<td class=\"fits\">4s of 30s<br><small>26s to spare</small></td>"))
    }

    /// Memory-warning releases stop at the floor: the declared `minFootprint`, or by default the
    /// smaller of 5 MB and the launch footprint.
    @Test func releasesStopAtTheFloor() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        func workload(_ floor: String) -> String {
            """
            memprof: 1
            name: floor
            duration: 5m
            apps:
              a:
                launch: {footprint: 20MB}
            \(floor)
                onMemoryWarning: {release: 10MB}
            script:
              - {at: 0s, open: a}
              - {at: 1m, memoryWarning: true}
              - {at: 2m, memoryWarning: true}
              - {at: 3m, memoryWarning: true}
            """
        }
        func appBytes(_ floor: String) throws -> [[Int]] {
            try workload(floor).write(to: dir.appendingPathComponent("floor.yaml"), atomically: true, encoding: .utf8)
            let run = try ProcessRunner.memprof(["run", "floor.yaml", "--out", "r", "--no-sampling"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
            let report = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let timeline = report?["timeline"] as? [String: Any]
            return ((timeline?["appBytes"] as? [String: Any])?["a"] as? [[Int]]) ?? []
        }
        let mb = 1_048_576
        // Declared floor 8 MB: 20 → 10 MB at 1 m, → 8 MB at 2 m (2 MB of the 10 MB), nothing at 3 m.
        #expect(try appBytes("    minFootprint: 8MB") == [[0, 20 * mb], [60_000_000, 10 * mb], [120_000_000, 8 * mb]])
        // Default floor 5 MB: 20 → 10 → 5 MB, then nothing (before: 20 → 10 → 0).
        #expect(try appBytes("") == [[0, 20 * mb], [60_000_000, 10 * mb], [120_000_000, 5 * mb]])
    }

    @Test func releasesThatMakeNoSenseAreRefused() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases = [
            ("onBackground: {release: 30MB}",
             "bad.yaml:7:29: apps.a.onBackground.release: 30 MB is more than a can ever release: it holds at most 20 MB "
             + "(its launch footprint, maxFootprint and largest handler allocation) and keeps a floor of 5 MB"),
            ("minFootprint: 25MB",
             "bad.yaml:7:19: apps.a.minFootprint: minFootprint (25 MB) must not exceed the launch footprint (20 MB)"),
        ]
        for (line, message) in cases {
            try """
                memprof: 1
                name: bad
                duration: 5m
                apps:
                  a:
                    launch: {footprint: 20MB}
                    \(line)
                script:
                  - {at: 0s, open: a}
                """.write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
            for command in ["validate", "run"] {
                let outcome = try ProcessRunner.memprof([command, "bad.yaml"], in: dir)
                #expect(outcome.status == 2)
                #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
            }
            #expect(Scratch.listing(dir) == ["bad.yaml"])
        }
    }
}
