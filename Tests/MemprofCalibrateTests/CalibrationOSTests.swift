import Foundation
import MemprofCalibrate
import MemprofField
import MemprofFleet
import MemprofInput
import MemprofTestSupport
import Testing

/// The OS each cell runs is the field's: the version most of the cell's days ran. Set up only,
/// nothing runs.
@Suite struct CalibrationOSTests {
    /// Days of the team's app on an iPhone 11, `count` of them on each OS version given.
    static func payloads(_ versions: [(os: String, count: Int)]) throws -> [MetricKitPayload] {
        let days = versions.flatMap { version in
            Array(repeating: """
                {"metaData": {"deviceType": "iPhone12,1", "osVersion": "\(version.os)", "bundleIdentifier": "com.example.team"},
                 "applicationExitMetrics": {"backgroundExitData": {"cumulativeMemoryPressureExitCount": 1}}}
                """, count: version.count)
        }
        return try MetricKitPayloadReader(file: "field.json").read("[" + days.joined(separator: ",") + "]")
    }

    /// The calibration set up in `dir` (the workload stays there for the plan to load).
    static func problem(_ versions: [(os: String, count: Int)], in dir: URL) throws -> CalibrationProblem {
        try CalibrationSessionsTests.day(policy: "xnu").write(to: dir.appendingPathComponent("day.yaml"), atomically: true, encoding: .utf8)
        try CalibrationSessionsTests.base.write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        return try CalibrationProblem(sweep: try SweepFile.load(dir.appendingPathComponent("base.yaml").path),
                                      payloads: try payloads(versions), fieldPaths: ["field.json"])
    }

    /// Six days on iOS 17.6 and four on 18.5: the cell runs 17.6, written as a workload writes it,
    /// and the source says the other version was pooled into it (the workload states iOS 18.5).
    @Test func aCellRunsTheOSMostOfItsDaysRan() throws {
        let dir = try Scratch.makeDirectory("calibration-os")
        defer { try? FileManager.default.removeItem(at: dir) }
        let problem = try Self.problem([("iPhone OS 17.6 (21G80)", 6), ("iPhone OS 18.5 (22F76)", 4)], in: dir)
        let cell = try #require(problem.cells.first)
        let os = try #require(cell.measured.first { $0.override.keyPath == "device.osVersion" })
        #expect(os.override.value == "iOS 17.6 (21G80)")
        #expect(os.source == "metaData.osVersion of 6 of its 10 days (2 versions pooled)")
        #expect(cell.osVersions == ["iPhone OS 17.6 (21G80)", "iPhone OS 18.5 (22F76)"])
        let plan = try SweepPlan(sweep: problem.sweep)
        #expect(plan.cells.first?.workload.workload.device.osVersion == "iOS 17.6 (21G80)")
        // A tie goes to the later version.
        let tie = try Self.problem([("iPhone OS 17.6 (21G80)", 5), ("iPhone OS 18.5 (22F76)", 5)], in: dir)
        #expect(tie.cells.first?.measured.first { $0.override.keyPath == "device.osVersion" }?.override.value == "iOS 18.5 (22F76)")
    }

    /// Days on an OS the device never ran (the iPhone 11 shipped with iOS 13) are refused at the
    /// calibrate: section, with the device's range.
    @Test func anOSTheDeviceCannotRunIsRefused() throws {
        let dir = try Scratch.makeDirectory("calibration-os")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect {
            _ = try Self.problem([("iPhone OS 12.4 (16G77)", 3)], in: dir)
        } throws: { error in
            guard let e = error as? WorkloadError else { return false }
            return e.keyPath == "calibrate" && e.message.hasPrefix("a cell cannot run the OS the field's days of its device ran: ")
                && e.message.contains("iOS 12.4 (16G77)")
        }
    }
}
