import MemprofCore
import Testing
@testable import MemprofWorkload

/// `processes:` (spec §5) and the script actions that name processes: what is read, and every
/// bad entry refused with its file, line, column and key path.
@Suite("processes: in a workload")
struct ProcessParserTests {
    /// `minimal` under xnu with `processes` (each line of `entries` indented under the key) and
    /// extra script lines.
    static func workload(_ entries: String, script: String = "") -> String {
        minimal.replacingOccurrences(of: "device: iphone-6-plus\n", with: "device: iphone-6-plus\npolicy: xnu\n")
            .replacingOccurrences(of: "script:\n", with: "processes:\n\(entries)script:\n") + script
    }

    @Test("a process entry is read whole, name defaulting to its key")
    func reads() throws {
        let text = Self.workload("""
          backboardd:
            kind: system
            band: 12
            resident: 24MB
          wifi-analytics:
            name: wifianalyticsd
            kind: daemon
            band: 1
            resident: 1.5MB
            highWaterMark: 2MB

        """, script: "\n  - {at: 3m, allocate: wifi-analytics, size: 1MB}\n  - {at: 4m, free: backboardd, size: 1MB}"
            + "\n  - {at: 5m, freeze: mail}")
        let w = try parse(text)
        #expect(w.processes == [
            ProcessSpec(id: "backboardd", kind: .system, band: 12, resident: 24 * .megabyte),
            ProcessSpec(id: "wifi-analytics", displayName: "wifianalyticsd", kind: .daemon, band: 1,
                        resident: 3 * .megabyte / 2, highWaterMark: 2 * .megabyte),
        ])
        #expect(w.script.suffix(3).map(\.action) == [.allocateProcess(1, .megabyte), .freeProcess(0, .megabyte), .freeze(0)])
        #expect(w.jetsamNames == ["mail", "safari", "backboardd", "wifianalyticsd"])
    }

    @Test("a notification service extension names the app whose pushes wake it and what each push does")
    func pushService() throws {
        let nse = "  mail-service:\n    kind: extension\n    extensionPoint: notificationService\n    band: 0\n    resident: 4MB\n"
        let w = try parse(Self.workload(nse + "    app: mail\n    push: {time: 3s, allocates: 12MB}\n"))
        #expect(w.processes.first?.pushService == ProcessSpec.PushService(app: "mail", timeUs: 3 * .second, allocates: 12 * .megabyte))
        #expect(try parse(Self.workload(nse + "    app: mail\n    push: {time: 2s}\n")).processes.first?.pushService?.allocates == 0)
        func message(_ entries: String) -> String? { error(of: Self.workload(entries))?.description }
        #expect(message(nse + "    app: mial\n    push: {time: 3s}\n")
            == "commute.yaml:21:10: processes.mail-service.app: no app 'mial' in the workload (did you mean 'mail'?)")
        #expect(message(nse + "    app: mail\n")?
            .hasPrefix("commute.yaml:17:5: processes.mail-service: missing key 'push': what each of mail's pushes makes") == true)
        #expect(message(nse + "    app: mail\n    push: {allocates: 1MB}\n")
            == "commute.yaml:22:11: processes.mail-service.push: missing key 'time'")
        #expect(message(nse + "    push: {time: 3s}\n")
            == "commute.yaml:21:11: processes.mail-service.push: push needs 'app': the app whose pushes wake the extension")
        #expect(message("  w:\n    kind: extension\n    extensionPoint: widget\n    band: 0\n    resident: 4MB\n    app: mail\n    push: {time: 1s}\n")
            == "commute.yaml:21:10: processes.w.app: only a notification service extension (extensionPoint: notificationService) is woken by an app's pushes")
    }

    @Test("bad process entries name file, line, column and key")
    func errors() {
        func message(_ entries: String, script: String = "") -> String? {
            error(of: Self.workload(entries, script: script))?.description
        }
        // The first process key is line 16 of the file (minimal's 13 lines of apps and above, `policy`, `processes:`).
        #expect(message("  bb:\n    kind: system\n    band: 12\n    resdent: 24MB\n")
            == "commute.yaml:19:5: processes.bb: unknown key 'resdent' (did you mean 'resident'?)")
        #expect(message("  bb:\n    kind: deamon\n    band: 12\n    resident: 24MB\n")?
            .hasPrefix("commute.yaml:17:11: processes.bb.kind: unknown process kind 'deamon' (did you mean 'daemon'?)") == true)
        #expect(message("  bb:\n    kind: daemon\n    band: 1001\n    resident: 24MB\n")
            == "commute.yaml:18:11: processes.bb.band: 1001 is too large; the largest value accepted is 1000")
        #expect(message("  bb:\n    kind: daemon\n    band: -1\n    resident: 24MB\n")
            == "commute.yaml:18:11: processes.bb.band: expected 0 or more, found -1")
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n    resident: 0MB\n")
            == "commute.yaml:19:15: processes.bb.resident: resident must be above 0")
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n    resident: 2GB\n")
            == "commute.yaml:19:15: processes.bb.resident: resident (2 GB) is more than the device's RAM (1 GB)")
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n")
            == "commute.yaml:17:5: processes.bb: missing key 'resident'")
        #expect(message("  bb:\n    kind: system\n    band: 1\n    resident: 2MB\n    highWaterMark: 3MB\n")
            == "commute.yaml:20:20: processes.bb.highWaterMark: a system process has no high-water mark; only daemons and extensions do")
        #expect(message("  mail:\n    kind: daemon\n    band: 1\n    resident: 2MB\n")
            == "commute.yaml:17:5: processes.mail: 'mail' is already an app; a process needs a key of its own")
        #expect(message("  Bad_Key:\n    kind: daemon\n    band: 1\n    resident: 2MB\n")?
            .hasPrefix("commute.yaml:17:5: processes.Bad_Key: 'Bad_Key' is not a valid process key") == true)
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n    resident: 500MB\n  cc:\n    kind: daemon\n    band: 1\n    resident: 500MB\n")?
            .hasPrefix("commute.yaml:23:15: processes.cc.resident: the processes' resident sizes add up to 1000 MB") == true)
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n    resident: 2MB\n", script: "\n  - {at: 3m, allocate: bc, size: 1MB}")
            == "commute.yaml:23:24: script[2].allocate: no app or process named 'bc' (did you mean 'bb'?)")
        #expect(message("  bb:\n    kind: daemon\n    band: 1\n    resident: 2MB\n", script: "\n  - {at: 3m, freeze: bb}")?
            .hasPrefix("commute.yaml:23:22: script[2].freeze: no app named 'bb' in apps") == true)
    }
}
