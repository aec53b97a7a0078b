import Testing
@testable import MemprofWorkload

/// `work.env` may not set the variables memprof gives a program for its recorder: the program
/// would read the workload's value, and nothing it did would be recorded.
@Suite struct WorkEnvironmentTests {
    static func workload(env: String) -> String {
        minimal.replacingOccurrences(of: "fetch: {interval: 15m, time: 4s}",
                                     with: "fetch: {interval: 15m, time: 4s, work: {command: [/bin/true], env: \(env)}}")
    }

    @Test(arguments: ["MEMPROF_CHANNEL_FD", "MEMPROF_SAMPLE_HZ", "LD_PRELOAD"])
    func memprofsOwnVariablesAreRefused(name: String) throws {
        let e = try #require(error(of: Self.workload(env: "{LANG: C, \(name): '3'}")))
        #expect(e.line == 11 && e.keyPath == "apps.mail.fetch.work.env.\(name)", "\(e)")
        #expect(e.message.contains("'\(name)' is set by memprof for its recorder"), "\(e.message)")
    }

    @Test func otherVariablesAreKept() throws {
        let w = try parse(Self.workload(env: "{LANG: C, MEMPROF_OTHER: x}"))
        #expect(w.apps[0].fetch?.handler.work?.program?.environment == ["LANG": "C", "MEMPROF_OTHER": "x"])
    }
}
