import Foundation
import MemprofCalibrate
import MemprofField
import MemprofFleet
import MemprofTestSupport
import Testing

/// What the field sets of the app's use (`apps.<app>.sessions`), the background time a session
/// among it: set up only, nothing runs.
@Suite struct CalibrationSessionsTests {
    static func day(policy: String) -> String {
        """
        memprof: 1
        name: day
        duration: 3h
        device: {preset: iphone-11, osVersion: "iOS 18.5 (22F76)"}
        policy: \(policy)
        apps:
          team: {peakMemoryUsage: 420MB, averageSuspendedMemory: 180MB}
          hog: {launch: {footprint: 1500MB}, onBackground: {release: 100MB}}
        generate: {switchEvery: 4m, weights: {hog: 1}, homeEvery: 30m}
        """
    }

    static let base = """
        memprof: 1
        sweep: team
        workload: day.yaml
        seeds: 1..100
        calibrate:
          app: team
          parameters:
            - {key: device.systemReserved, low: 0MB, high: 2000MB}
        """

    /// Ten days on an iPhone 11: 2 launches and 10 resumes a day, 30 minutes in front and
    /// `background` seconds in the background.
    static func payloads(background: Int) throws -> [MetricKitPayload] {
        let day = """
            {"metaData": {"deviceType": "iPhone12,1", "osVersion": "iPhone OS 18.5 (22F76)", "bundleIdentifier": "com.example.team"},
             "applicationExitMetrics": {"backgroundExitData": {"cumulativeMemoryPressureExitCount": 1}},
             "applicationLaunchMetrics": {
               "histogrammedTimeToFirstDrawKey": {"histogramNumBuckets": 1, "histogramValue": {"0": {"bucketCount": 2, "bucketStart": "1,000 ms", "bucketEnd": "1,000 ms"}}},
               "histogrammedResumeTime": {"histogramNumBuckets": 1, "histogramValue": {"0": {"bucketCount": 10, "bucketStart": "200 ms", "bucketEnd": "200 ms"}}}},
             "applicationTimeMetrics": {"cumulativeForegroundTime": "1,800 sec", "cumulativeBackgroundTime": "\(background) sec"}}
            """
        return try MetricKitPayloadReader(file: "field.json").read("[" + Array(repeating: day, count: 10).joined(separator: ",") + "]")
    }

    static func measured(policy: String, background: Int) throws -> [(key: String, value: String, source: String)] {
        let dir = try Scratch.makeDirectory("calibration-sessions")
        defer { try? FileManager.default.removeItem(at: dir) }
        try day(policy: policy).write(to: dir.appendingPathComponent("day.yaml"), atomically: true, encoding: .utf8)
        try base.write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let problem = try CalibrationProblem(sweep: try SweepFile.load(dir.appendingPathComponent("base.yaml").path),
                                             payloads: try payloads(background: background), fieldPaths: ["field.json"])
        return problem.measured.map { ($0.override.keyPath, $0.override.value, $0.source) }
    }

    /// 240 s in the background a day over 12 sessions: 20 s after each, inside iOS 18's 30 s.
    @Test func backgroundTimeIsSetFromTheField() throws {
        let m = try Self.measured(policy: "xnu", background: 240)
        let background = try #require(m.first { $0.key == "apps.team.sessions.background" })
        #expect(background.value == "20000000us")
        #expect(background.source == "applicationTimeMetrics.cumulativeBackgroundTime over 10 days (240 s a day) over the sessions a day")
        #expect(m.map(\.key).contains("apps.team.sessions.perDay") && m.map(\.key).contains("apps.team.sessions.length"))
        // No background time in the field: the key is not set.
        #expect(try !Self.measured(policy: "xnu", background: 0).contains { $0.key == "apps.team.sessions.background" })
    }

    /// 1,200 s a day is 100 s a session: more than iOS 18's 30 s background-task limit. The key is
    /// set to the limit and the source says so, with the rest (70 s a session, 14 minutes a day)
    /// left to the comparison; under seed-2015 (10 minutes) the field's 100 s is set as it is.
    @Test func backgroundTimePastTheEraLimitIsCutAndSaidSo() throws {
        let m = try Self.measured(policy: "xnu", background: 1200)
        let background = try #require(m.first { $0.key == "apps.team.sessions.background" })
        #expect(background.value == "30000000us")
        #expect(background.source == "applicationTimeMetrics.cumulativeBackgroundTime over 10 days (1200 s a day) over the sessions a day, "
            + "1m40s a session: more than the 30s background-task limit of the sweep's devices, so set to the limit; the other 14m a day "
            + "is background time the workload does not state (audio, location, BGTaskScheduler tasks, fetch, push) and stays a comparison")
        let old = try Self.measured(policy: "seed-2015", background: 1200)
        #expect(old.first { $0.key == "apps.team.sessions.background" }?.value == "100000000us")
    }
}
