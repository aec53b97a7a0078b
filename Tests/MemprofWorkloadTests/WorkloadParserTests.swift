import Foundation
import MemprofCore
import MemprofInput
import Testing
@testable import MemprofWorkload

/// A small valid workload; tests break one line of it at a time.
let minimal = """
memprof: 1
name: commute
seed: 7
duration: 30m
device: iphone-6-plus
apps:
  mail:
    name: Mail
    launch: {footprint: 45MB, time: 1.2s}
    modes: [fetch, remote-notification]
    fetch: {interval: 15m, time: 4s}
  safari:
    launch: {footprint: 150MB}
script:
  - {at: 0s, open: mail}
  - {at: 2m, open: safari}
"""

func parse(_ text: String, file: String = "commute.yaml") throws -> Workload {
    try WorkloadParser(file: file).parse(text)
}

func error(of text: String) -> WorkloadError? {
    do {
        _ = try parse(text)
        return nil
    } catch let e as WorkloadError {
        return e
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

@Suite struct WorkloadParserTests {
    @Test func minimalWorkloadResolvesDefaults() throws {
        let w = try parse(minimal)
        #expect(w.name == "commute")
        #expect(w.seed == 7)
        #expect(w.durationUs == 30 * 60_000_000)
        #expect(w.device.name == "iphone-6-plus")
        #expect(w.policy == .seed2015)
        #expect(w.apps.map(\.id) == ["mail", "safari"])
        #expect(w.apps[0].displayName == "Mail")
        #expect(w.apps[0].launchTimeUs == 1_200_000)
        // Spec §1 defaults: launch 1 s, resume 200 ms, releases and handler times 0.
        #expect(w.apps[1].launchTimeUs == 1_000_000)
        #expect(w.apps[1].resumeTimeUs == 200_000)
        #expect(w.apps[1].backgroundRelease == 0)
        #expect(w.apps[0].fetch?.intervalUs == Int64(15 * 60_000_000))
        #expect(w.script == [ScriptEntry(atUs: 0, action: .open(0)), ScriptEntry(atUs: 120_000_000, action: .open(1))])
    }

    @Test func misspeltKeyNamesLineColumnPathAndSuggestion() {
        let text = minimal.replacingOccurrences(of: "{footprint: 45MB, time: 1.2s}", with: "{footprnt: 45MB, time: 1.2s}")
        #expect(error(of: text)?.description
            == "commute.yaml:9:14: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)")
    }

    @Test func misspeltKeyInBlockStyle() {
        let text = minimal.replacingOccurrences(of: "    name: Mail\n", with: "    nmae: Mail\n")
        let e = error(of: text)
        #expect(e?.line == 8)
        #expect(e?.column == 5)
        #expect(e?.keyPath == "apps.mail")
        #expect(e?.message == "unknown key 'nmae' (did you mean 'name'?)")
    }

    @Test func brokenYAMLIsLocated() {
        let text = minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 2m, open: safari")
        let e = error(of: text)
        #expect(e?.file == "commute.yaml")
        #expect((e?.line ?? 0) >= 16)
        #expect(e?.message.hasPrefix("invalid YAML") == true)
    }

    @Test func bareNumberWhereAUnitIsNeeded() {
        let e = error(of: minimal.replacingOccurrences(of: "duration: 30m", with: "duration: 30"))
        #expect(e?.description.hasPrefix("commute.yaml:4:11: duration: '30' has no unit") == true)
    }

    @Test func negativeSize() {
        let e = error(of: minimal.replacingOccurrences(of: "footprint: 150MB", with: "footprint: -150MB"))
        #expect(e?.keyPath == "apps.safari.launch.footprint")
        #expect(e?.message.contains("negative") == true)
    }

    @Test func unknownPresetGetsASuggestion() {
        let e = error(of: minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: iphone-6-pluss"))
        #expect(e?.line == 5)
        #expect(e?.message.contains("unknown device 'iphone-6-pluss' (did you mean 'iphone-6-plus'?)") == true)
    }

    @Test func undefinedAppInScript() {
        let e = error(of: minimal.replacingOccurrences(of: "open: safari}", with: "open: safarri}"))
        #expect(e?.keyPath == "script[1].open")
        #expect(e?.line == 16)
        #expect(e?.message == "no app named 'safarri' in apps (did you mean 'safari'?)")
    }

    @Test func scriptTimesMustNotGoBackwards() {
        let e = error(of: minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 0s, open: safari}")
            .replacingOccurrences(of: "{at: 0s, open: mail}", with: "{at: 1m, open: mail}"))
        #expect(e?.keyPath == "script[1].at")
        #expect(e?.message.contains("backwards") == true)
    }

    @Test func scriptTimesPastTheDuration() {
        let e = error(of: minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 31m, open: safari}"))
        #expect(e?.keyPath == "script[1].at")
        #expect(e?.message.contains("past the workload's duration") == true)
    }

    @Test func oneActionPerEntry() {
        let e = error(of: minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 2m, open: safari, quit: mail}"))
        #expect(e?.message.contains("exactly one action") == true)
    }

    @Test func handlerBlockNeedsItsMode() {
        let e = error(of: minimal.replacingOccurrences(of: "modes: [fetch, remote-notification]", with: "modes: [remote-notification]"))
        #expect(e?.keyPath == "apps.mail.fetch")
        #expect(e?.message == "needs 'fetch' in the app's modes")
    }

    @Test func playNeedsAudioMode() {
        let e = error(of: minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 2m, play: safari}"))
        #expect(e?.message.contains("has no 'audio' in its modes") == true)
    }

    @Test func jsonIsTheSameStructure() throws {
        let json = """
        {"memprof": 1, "name": "commute", "seed": 7, "duration": "30m", "device": "iphone-6-plus",
         "apps": {"mail": {"name": "Mail", "launch": {"footprint": "45MB", "time": "1.2s"},
                           "modes": ["fetch", "remote-notification"], "fetch": {"interval": "15m", "time": "4s"}},
                  "safari": {"launch": {"footprint": "150MB"}}},
         "script": [{"at": "0s", "open": "mail"}, {"at": "2m", "open": "safari"}]}
        """
        #expect(try parse(json, file: "commute.json") == (try parse(minimal)))
    }

    @Test func jsonErrorsAreLocatedToo() {
        let json = """
        {"memprof": 1, "name": "x", "duration": "1m",
         "apps": {"a": {"launch": {"footprint": "1MB", "tme": "1s"}}}}
        """
        do {
            _ = try parse(json, file: "w.json")
            Issue.record("accepted an unknown key")
        } catch let e as WorkloadError {
            #expect(e.description == "w.json:2:48: apps.a.launch: unknown key 'tme' (did you mean 'time'?)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func deviceAndPolicyOverrides() throws {
        let text = minimal
            .replacingOccurrences(of: "device: iphone-6-plus", with: "device: {preset: ipad-air-2, ram: 3GB, flashReadRate: 100MB/s}")
            .replacingOccurrences(of: "apps:\n", with: "policy: {evictionOrder: largest, compressionThreshold: 8MB, warningLevel: 0.7}\napps:\n")
        let w = try parse(text)
        #expect(w.device.ram == 3 * 1_073_741_824)
        #expect(w.device.appLimit == 1383 * 1_048_576)
        #expect(w.device.flashReadRate == 100 * 1_048_576)
        #expect(w.policy.evictionOrder == .largest)
        #expect(w.policy.compressionThreshold == 8 * 1_048_576)
        #expect(w.policy.warningLevel == 0.7)
        #expect(w.policy.criticalLevel == 0.95)
    }

    @Test func xnuPolicyByNameAndAsPreset() throws {
        let named = try parse(minimal.replacingOccurrences(of: "apps:\n", with: "policy: xnu\napps:\n"))
        // The default device (iphone-6-plus, iOS 8.4.1) runs a kernel before xnu-8792: the 0–21
        // scale, and the 1 MB freezer minimum of kernels before xnu-4903.
        #expect(named.policy.name == "xnu")
        #expect(named.policy.xnu == XNUSettings.forDevice(Device.preset(named: "iphone-6-plus")!))
        #expect(named.policy.xnu?.foregroundBand == 10 && named.policy.xnu?.audioBand == 12)
        #expect(named.policy.xnu?.freezeMinFootprint == 1_048_576)
        let modern = try parse(minimal.replacingOccurrences(of: "device: iphone-6-plus\napps:\n",
                                                            with: "device: {ram: 1GB, systemReserved: 300MB, appLimit: 645MB, flash: 256MB, "
                                                                + "flashReadRate: 200MB/s, osVersion: iOS 16.0}\npolicy: xnu\napps:\n"))
        #expect(modern.policy.xnu == .kernel)
        let preset = try parse(minimal.replacingOccurrences(of: "apps:\n", with: "policy: {preset: xnu, warningLevel: 0.7}\napps:\n"))
        #expect(preset.policy.name == "xnu")
        // iphone-6-plus runs iOS 8: xnu-2782 has no aging band for apps.
        #expect(preset.policy.xnu?.agingUs == 0)
        #expect(preset.policy.xnu?.xnuTag == "xnu-2782.1.97")
        #expect(preset.policy.warningLevel == 0.7)
        #expect(error(of: minimal.replacingOccurrences(of: "apps:\n", with: "policy: xnv\napps:\n"))?.message
                    .contains("xnu") == true)
    }

    @Test func warningLevelMustBeBelowCritical() {
        let text = minimal.replacingOccurrences(of: "apps:\n", with: "policy: {warningLevel: 0.96}\napps:\n")
        #expect(error(of: text)?.message.contains("must be below criticalLevel") == true)
    }

    @Test func unknownWorkKernelIsRejectedWhenKernelsAreKnown() {
        let text = minimal.replacingOccurrences(of: "fetch: {interval: 15m, time: 4s}",
                                                with: "fetch: {interval: 15m, time: 4s, work: {kernel: chekcsum, size: 1MB}}")
        do {
            _ = try WorkloadParser(file: "w.yaml", knownKernels: ["checksum", "sort"]).parse(text)
            Issue.record("accepted an unknown kernel")
        } catch let e as WorkloadError {
            #expect(e.keyPath == "apps.mail.fetch.work.kernel")
            #expect(e.message.contains("did you mean 'checksum'?"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func builtinWorkloadsParse() throws {
        for entry in BuiltinWorkloads.all {
            let loaded = try WorkloadLoader.load(entry.name)
            #expect(loaded.workload.name == entry.name)
            #expect(loaded.source == "builtin:\(entry.name)")
            #expect(loaded.sha256.count == 64)
        }
        #expect(try WorkloadLoader.load(nil).workload.name == BuiltinWorkloads.defaultName)
    }

    @Test func unknownBuiltinGetsASuggestion() {
        #expect(throws: WorkloadError.self) { try WorkloadLoader.load("phone-dya") }
        do { _ = try WorkloadLoader.load("phone-dya") } catch let e as WorkloadError {
            #expect(e.message.contains("did you mean 'phone-day'?"))
        } catch {}
    }

    /// A link that leads nowhere (a loop, or a dangling link) is a file the user named: its
    /// error says what is wrong with it, not that there is no such file.
    @Test func aSymbolicLinkLoopIsNamedAsOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-loop-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        // A bare name is looked up as a file first when something is at that path.
        #expect(WorkloadLoader.pathExists(a) && !FileManager.default.fileExists(atPath: a))
        do {
            _ = try WorkloadLoader.load(a)
            Issue.record("a symbolic link loop loaded")
        } catch let e as WorkloadError {
            #expect(e.message.contains("symbolic links"), "\(e.message)")
            #expect(!e.message.contains("no such file"))
        }
    }
}

/// Workloads are composed without Yams' implicit tags (for speed): booleans, numbers and
/// duplicate keys must read as they did with them.
@Suite struct ScalarReadingTests {
    func answer(_ text: String) -> String {
        minimal.replacingOccurrences(of: "  - {at: 2m, open: safari}",
                                     with: "  - {at: 2m, open: safari}\n  - {at: 3m, interrupt: call, answer: \(text), length: 10s}")
    }

    @Test(arguments: [("true", true), ("yes", true), ("On", true), ("TRUE", true), ("false", false), ("No", false), ("OFF", false), ("tRUE", true)])
    func yamlBooleans(text: String, expected: Bool) throws {
        let w = try parse(answer(text))
        #expect(w.script.last?.action == .interrupt(.call, lengthUs: 10_000_000, answer: expected))
    }

    @Test(arguments: ["\"true\"", "'yes'", "1", "maybe"])
    func notBooleans(text: String) {
        let e = error(of: answer(text))
        #expect(e?.keyPath == "script[2].answer")
        #expect(e?.message.hasPrefix("expected true or false") == true)
    }

    @Test func numbersAndDuplicateKeys() throws {
        #expect(try parse(minimal.replacingOccurrences(of: "seed: 7", with: "seed: 0x10")).seed == 16)
        #expect(error(of: minimal.replacingOccurrences(of: "seed: 7", with: "seed: \"7\""))?.keyPath == "seed")
        let duplicate = error(of: minimal.replacingOccurrences(of: "seed: 7", with: "seed: 7\nseed: 8"))
        #expect(duplicate != nil)
    }
}
