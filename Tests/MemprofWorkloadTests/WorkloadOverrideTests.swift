import MemprofCore
import MemprofInput
import Testing
@testable import MemprofWorkload

/// `--set`, `--device`, `--policy` and sweep matrix values (``WorkloadOverride``): an override
/// gives the workload the file would give had it said the same, and errors point at the override.
struct WorkloadOverrideTests {
    static let base = """
        memprof: 1
        name: small
        duration: 30m
        device: iphone-6-plus
        apps:
          mail:
            launch: {footprint: 45MB}
            modes: [fetch]
            fetch: {interval: 15m, time: 4s}
          safari:
            launch: {footprint: 150MB}
        script:
          - {at: 0s, open: mail}
          - {at: 2m, open: safari}
        """

    func parse(_ text: String, _ overrides: [WorkloadOverride] = []) throws -> Workload {
        try WorkloadParser(file: "small.yaml").parse(text, overrides: overrides)
    }

    func set(_ assignment: String) throws -> WorkloadOverride {
        try WorkloadOverride.parse(assignment: assignment)
    }

    func replacing(_ old: String, _ new: String) -> String {
        Self.base.replacingOccurrences(of: old, with: new)
    }

    /// `--device` (and a sweep matrix's `device:` value) changes the hardware and keeps the
    /// `osVersion` the workload states; a preset that cannot run it is refused at the option.
    @Test func aDevicePresetKeepsTheStatedOS() throws {
        let stated = replacing("device: iphone-6-plus", "device: {preset: iphone-15, osVersion: \"iOS 18.5 (22F76)\"}")
        let moved = try parse(stated, [.preset("device", "iphone-11")])
        #expect(moved.device.osVersion == "iOS 18.5 (22F76)")
        #expect(try moved == parse(replacing("device: iphone-6-plus", "device: {preset: iphone-11, osVersion: \"iOS 18.5 (22F76)\"}")))
        // Without a stated osVersion, the preset's own.
        #expect(try parse(Self.base, [.preset("device", "iphone-11")]).device.osVersion == Device.preset(named: "iphone-11")?.osVersion)
        // `--set device=...` is the same option.
        #expect(try parse(stated, [set("device=iphone-13")]).device.osVersion == "iOS 18.5 (22F76)")
        // A preset that cannot run it: one sentence at --device, naming where the workload states the OS.
        #expect(throws: WorkloadError.self) { try parse(stated, [.preset("device", "iphone-6-plus")]) }
        do {
            _ = try parse(stated, [.preset("device", "iphone-6-plus")])
        } catch let error as WorkloadError {
            #expect(error.description == "--device iphone-6-plus: device: the workload states osVersion 'iOS 18.5 (22F76)' "
                + "(small.yaml:4:40), which the iPhone 6 Plus does not run (iOS 8 to iOS 12.5.8 (16H88)); set device.osVersion "
                + "to one it runs as well, such as device.osVersion='iOS 12.5.8 (16H88)'")
        }
        // ...unless a later --set names one it runs.
        #expect(try parse(stated, [.preset("device", "iphone-6-plus"), set("device.osVersion=iOS 12.5.8")]).device.osVersion
            == "iOS 12.5.8")
    }

    @Test func anOverrideEqualsTheEditedFile() throws {
        #expect(try parse(Self.base, [set("apps.mail.launch.footprint=60MB")])
            == parse(replacing("footprint: 45MB", "footprint: 60MB")))
        #expect(try parse(Self.base, [.preset("device", "ipad-air-2"), .preset("policy", "xnu")])
            == parse(replacing("device: iphone-6-plus", "device: ipad-air-2\npolicy: xnu")))
        #expect(try parse(Self.base, [set("script[1].at=3m")]) == parse(replacing("at: 2m", "at: 3m")))
        #expect(try parse(Self.base, [set("apps.mail.modes=[fetch, audio]")])
            == parse(replacing("modes: [fetch]", "modes: [fetch, audio]")))
    }

    @Test func keysTheFileLeavesOutAreCreatedAndPresetsOpen() throws {
        #expect(try parse(Self.base, [set("apps.safari.onMemoryWarning.release=20MB")])
            == parse(replacing("footprint: 150MB}", "footprint: 150MB}\n    onMemoryWarning: {release: 20MB}")))
        let bigger = try parse(Self.base, [set("device.ram=2GB")])
        #expect(bigger.device.ram == 2 * 1024 * 1024 * 1024)
        #expect(bigger.device.appLimit == Device.preset(named: "iphone-6-plus")!.appLimit)
        #expect(try parse(Self.base, [set("policy.warningLevel=0.5")]).policy.warningLevel == 0.5)
    }

    /// An override changes the node at its key path only: a node an alias shares elsewhere keeps
    /// its value there, as it would had the file been edited at that one place.
    @Test func anOverrideLeavesAnAliasedNodeElsewhereAlone() throws {
        let shared = replacing("  safari:\n    launch: {footprint: 150MB}", "  safari:\n    launch: *l")
            .replacingOccurrences(of: "launch: {footprint: 45MB}", with: "launch: &l {footprint: 45MB}")
        let w = try parse(shared, [set("apps.mail.launch.footprint=60MB")])
        let mb: Bytes = 1024 * 1024
        #expect(w.apps.map(\.id) == ["mail", "safari"])
        #expect(w.apps.map(\.launchFootprint) == [60 * mb, 45 * mb])
        // Setting the alias's own place changes it alone, too.
        let other = try parse(shared, [set("apps.safari.launch.footprint=70MB")])
        #expect(other.apps.map(\.launchFootprint) == [45 * mb, 70 * mb])
    }

    /// Errors about what an override put into the tree name the override; a key it created below
    /// a preset name is found (`device.ram` opens `{preset: iphone-6-plus}`), and the file's own
    /// nodes keep their places.
    @Test func errorsAtEditedNodesAreLocated() throws {
        let onValue = try #require(throws: WorkloadError.self) { try parse(Self.base, [set("apps.mail.launch={footprint: 1MB, bogus: 2}")]) }
        #expect(onValue.description == "--set apps.mail.launch={footprint: 1MB, bogus: 2}: apps.mail.launch: unknown key 'bogus'; expected one of: footprint, time")
        let inPreset = try #require(throws: WorkloadError.self) { try parse(Self.base, [set("device.rom=2GB")]) }
        #expect(inPreset.description.hasPrefix("--set device.rom=2GB: device: unknown key 'rom' (did you mean 'ram'?)"))
    }

    @Test func theLaterOverrideWins() throws {
        let w = try parse(Self.base, [set("duration=1h"), set("duration=2h")])
        #expect(w.durationUs == 2 * 3_600_000_000)
    }

    @Test func errorsNameTheOverrideAndSuggest() throws {
        func message(_ overrides: [WorkloadOverride]) -> String {
            do {
                _ = try parse(Self.base, overrides)
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(message([try set("apps.mial.launch.footprint=60MB")])
            == "--set apps.mial.launch.footprint=60MB: apps.mial.launch.footprint: no app 'mial' in the workload "
            + "(did you mean 'mail'?); it has: mail, safari")
        #expect(message([try set("apps.mail.launch.footprnt=60MB")])
            == "--set apps.mail.launch.footprnt=60MB: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)")
        #expect(message([try set("duration=5")]).hasPrefix("--set duration=5: duration: '5' has no unit"))
        #expect(message([.preset("device", "ipad-air2")]).contains("(did you mean 'ipad-air-2'?)"))
        #expect(message([try set("script[9].at=1m")]) == "--set script[9].at=1m: script[9].at: 'script' has 2 entries, so there is no [9]")
        #expect(message([try set("apps.mail.launch=3MB")]).contains("expected a mapping"))
        // A problem the override causes elsewhere in the file is the file's, at its place.
        #expect(message([try set("duration=1m")]).hasPrefix("small.yaml:14:"))
    }

    @Test func aSweepFileOriginLocatesKeyAndValue() throws {
        let origin = WorkloadOverride.Origin(file: "sweep.yaml", keyLine: 6, keyColumn: 3, valueLine: 6, valueColumn: 33)
        let badValue = WorkloadOverride(keyPath: "apps.mail.launch.footprint", value: "45XB", origin: origin)
        let badKey = WorkloadOverride(keyPath: "apps.mail.launch.footprnt", value: "45MB", origin: origin)
        let valueError = try #require(throws: WorkloadError.self) { try parse(Self.base, [badValue]) }
        #expect((valueError.file, valueError.line, valueError.column) == ("sweep.yaml", 6, 33))
        let keyError = try #require(throws: WorkloadError.self) { try parse(Self.base, [badKey]) }
        #expect((keyError.file, keyError.line, keyError.column) == ("sweep.yaml", 6, 3))
    }

    @Test func badAssignmentsAreRefused() {
        for bad in ["nokey", "=5", "apps..mail=1", "script[x].at=1m", "a b=1"] {
            #expect(throws: WorkloadError.self) { try WorkloadOverride.parse(assignment: bad) }
        }
    }

    @Test func commandLineSpelling() throws {
        #expect(WorkloadOverride.preset("device", "ipad-air-2").commandLineArguments == ["--device", "ipad-air-2"])
        #expect(try set("apps.mail.launch.footprint=60MB").commandLineArguments == ["--set", "apps.mail.launch.footprint=60MB"])
    }

    @Test func optionsApplyDeviceThenPolicyThenEachSetInOrder() throws {
        let overrides = try WorkloadOverride.list(device: "iphone-6-plus", policy: "xnu", assignments: ["seed=3", "seed=4"])
        #expect(overrides.count == 4)
        #expect(overrides[0] == .preset("device", "iphone-6-plus"))
        #expect(overrides[1] == .preset("policy", "xnu"))
        #expect(overrides[2] == (try WorkloadOverride.parse(assignment: "seed=3")))
        #expect(overrides[3] == (try WorkloadOverride.parse(assignment: "seed=4")))
    }

    @Test func aSetWithoutAnEqualsSignIsRefused() throws {
        #expect(throws: (any Error).self) { try WorkloadOverride.list(device: nil, policy: nil, assignments: ["seed"]) }
    }
}
