import Foundation
import MemprofTestSupport
import Testing

/// Issue 15, through the built binary: hostile input never crashes memprof and never leaves
/// debris. Each test failed (a trap, exit 132, or a raw error) before its change.
@Suite(.serialized) struct HardeningEndToEndTests {
    static func workload(_ body: String, duration: String = "10m") -> String {
        """
        memprof: 1
        name: hostile
        duration: \(duration)
        apps:
          mail:
        \(body)
        script:
          - {at: 0s, open: mail}
        """
    }

    /// Sizes and durations too large for 64 bits: exit 2, located, naming the key and the
    /// largest value accepted (before: SIGILL from `Bytes(Double)` / `Microseconds(Double)`).
    @Test(arguments: [
        (workload("    launch: {footprint: 99999999999999999999GB}"),
         "hostile.yaml:6:25: apps.mail.launch.footprint: '99999999999999999999GB' is too large; the largest size accepted is 4096GB"),
        (workload("    launch: {footprint: 40MB}", duration: "99999999999999999h"),
         "hostile.yaml:3:11: duration: '99999999999999999h' is too long; the largest duration accepted is 87600h (ten years)"),
        (workload("    launch: {footprint: 40MB}\n    growth: 99999999999999GB/s"),
         "hostile.yaml:7:13: apps.mail.growth: '99999999999999GB' is too large; the largest size accepted is 4096GB"),
        (workload("    launch: {footprint: 40MB}") + "\n  - {at: 9999999999999999999999s, home: true}",
         "hostile.yaml:9:10: script[1].at: '9999999999999999999999s' is too long; the largest duration accepted is 87600h (ten years)"),
        ("memprof: 1\nname: x\nduration: 1m\ndevice: {preset: iphone-6-plus, cpuScale: 1e308}\napps: {a: {launch: {footprint: 1MB}}}",
         "hostile.yaml:4:43: device.cpuScale: '1e308' is too large; the largest value accepted is 1000"),
        ("memprof: 1\nname: x\nseed: 99999999999999999999999\nduration: 1m\napps: {a: {launch: {footprint: 1MB}}}",
         "hostile.yaml:3:7: seed: '99999999999999999999999' is too large; the largest whole number accepted is"),
    ])
    func overflowingWorkloadNumbersAreBadInput(text: String, expected: String) throws {
        let dir = try Scratch.makeDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("hostile.yaml"), atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let outcome = try ProcessRunner.memprof([command, "hostile.yaml"], in: dir)
            #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("memprof: " + expected), "\(command): \(outcome.stderr)")
        }
        #expect(Scratch.listing(dir) == ["hostile.yaml"])
    }

    /// Budget limits and report numbers at the edge of 64 bits: exit 2 with the key and the
    /// largest value accepted (before: `check` and `compare` trapped formatting them).
    @Test func overflowingBudgetsAndReportsAreBadInput() throws {
        let dir = try Scratch.makeDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "r"], in: dir).status == 0)
        try "summary: {evictions: {min: 1e308}}\n".write(to: dir.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        let check = try ProcessRunner.memprof(["check", "r", "--budget", "b.yaml"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr == "memprof: b.yaml:1:28: summary.evictions.min: '1e308' is too large; "
                + "the largest number accepted is 9007199254740992 (2^53)\n")

        let data = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
        var report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var summary = try #require(report["summary"] as? [String: Any])
        summary["evictions"] = Int64.max
        report["summary"] = summary
        try JSONSerialization.data(withJSONObject: report).write(to: dir.appendingPathComponent("huge.json"))
        let compare = try ProcessRunner.memprof(["compare", "r", "huge.json"], in: dir)
        #expect(compare.status == 2, "\(compare.stdout)")
        #expect(compare.stderr.contains("summary.evictions is 9.223372036854776e+18, too large; the largest value accepted is 9007199254740992"),
                "\(compare.stderr)")
    }
}
