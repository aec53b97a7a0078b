import Foundation
import MemprofReport
import MemprofReportReader
import MemprofTestSupport
import Testing

/// Overrides through the built binary: `memprof run W --device --policy --set`.
@Suite(.serialized) struct OverrideEndToEndTests {
    @Test func deviceAndPolicyAndSetChangeTheRunAsTheFileWould() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let edited = goodWorkload.replacingOccurrences(of: "device: iphone-6-plus", with: "device: ipad-air-2\npolicy: xnu")
            .replacingOccurrences(of: "footprint: 600MB", with: "footprint: 900MB")
        try edited.write(to: dir.appendingPathComponent("edited.yaml"), atomically: true, encoding: .utf8)
        let flags = try ProcessRunner.memprof(["run", "commute.yaml", "--out", "flags", "--device", "ipad-air-2",
                                               "--policy", "xnu", "--set", "apps.game.launch.footprint=900MB"], in: dir)
        #expect(flags.status == 0, "\(flags.stderr)")
        #expect(flags.stdout.contains("commute: 20m on ipad-air-2, policy xnu, seed 7"))
        let file = try ProcessRunner.memprof(["run", "edited.yaml", "--out", "file"], in: dir)
        #expect(file.status == 0, "\(file.stderr)")
        var a = try ReportJSON.decode(Data(contentsOf: dir.appendingPathComponent("flags/report.json")))
        var b = try ReportJSON.decode(Data(contentsOf: dir.appendingPathComponent("file/report.json")))
        #expect(a.apps["game"].map { $0.peakFootprintBytes == 900 * 1024 * 1024 } == true)
        // The same run but for where it came from and when: source, digest and host differ.
        a.host = ReportFixture.fixedHost
        b.host = ReportFixture.fixedHost
        #expect(a.run.workloadSha256 != b.run.workloadSha256)
        (a.run.source, a.run.workloadSha256) = (b.run.source, b.run.workloadSha256)
        #expect(try ReportJSON.encode(a) == ReportJSON.encode(b))
    }

    @Test func badOverridesAreLocatedSuggestedAndWriteNothing() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [([String], String)] = [
            (["--device", "ipad-air2"], "memprof: --device ipad-air2: device: unknown device 'ipad-air2' (did you mean 'ipad-air-2'?)"),
            (["--policy", "xun"], "memprof: --policy xun: policy: unknown policy 'xun' (did you mean 'xnu'?)"),
            (["--set", "apps.mail.launch.footprnt=60MB"],
             "memprof: --set apps.mail.launch.footprnt=60MB: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)"),
            (["--set", "apps.mial.resumeTime=1s"], "no app 'mial' in the workload (did you mean 'mail'?)"),
            (["--set", "duration=5"], "memprof: --set duration=5: duration: '5' has no unit"),
            (["--set", "nokey"], "memprof: --set nokey: expected KEY.PATH=VALUE"),
        ]
        for (arguments, expected) in cases {
            let outcome = try ProcessRunner.memprof(["run", "phone-day", "--out", "r"] + arguments, in: dir)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
            #expect(Scratch.listing(dir).isEmpty, "\(arguments) wrote \(Scratch.listing(dir))")
        }
    }
}
