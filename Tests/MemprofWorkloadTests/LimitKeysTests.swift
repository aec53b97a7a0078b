import MemprofCore
import Testing
@testable import MemprofWorkload

/// The workload keys of per-process limits and of the freezer's daily budget: read, and every
/// bad value refused with file, line, column and key path.
@Suite struct LimitKeysTests {
    /// `minimal` with `safari` given `extra` keys (its own line), on the iPhone 6 Plus's 1 GB.
    static func safari(_ extra: String) -> String {
        minimal.replacingOccurrences(of: "    launch: {footprint: 150MB}\n", with: "    launch: {footprint: 150MB}\n    \(extra)\n")
    }

    @Test func appsDeclareTheEntitlementAndAnInactiveLimit() throws {
        let w = try parse(Self.safari("increasedMemoryLimit: true\n    inactiveLimit: 200MB"))
        let s = try #require(w.apps.first { $0.id == "safari" })
        #expect(s.increasedMemoryLimit && s.inactiveLimit == 200 * .megabyte)
        // The iPhone 6 Plus's 645 MB × 420 ÷ 312 = 868 MB (868.27 rounded down), capped at its app
        // memory (1 GB − systemReserved).
        #expect(s.activeLimit(on: w.device) == w.device.entitledAppLimit)
        #expect(w.device.entitledAppLimit == min(868 * .megabyte, w.device.appMemory))
        #expect(s.inactiveLimit(on: w.device) == 200 * .megabyte)
        let mail = try #require(w.apps.first { $0.id == "mail" })
        #expect(!mail.increasedMemoryLimit && mail.inactiveLimit(on: w.device) == w.device.appLimit)
    }

    @Test func badAppLimitsAreLocated() {
        #expect(error(of: Self.safari("inactiveLimit: 0MB"))?.description
            == "commute.yaml:14:20: apps.safari.inactiveLimit: inactiveLimit must be above 0")
        #expect(error(of: Self.safari("inactiveLimit: 2GB"))?.description
            == "commute.yaml:14:20: apps.safari.inactiveLimit: inactiveLimit (2 GB) is more than the device's RAM (1 GB)")
        #expect(error(of: Self.safari("increasedMemoryLimit: sure"))?.keyPath == "apps.safari.increasedMemoryLimit")
        #expect(error(of: Self.safari("compressionRatio: 0.5"))?.description
            == "commute.yaml:14:23: apps.safari.compressionRatio: compressionRatio 0.5 is below 1 (uncompressed ÷ compressed)")
    }

    @Test func aDeviceDeclaresItsEntitledLimit() throws {
        let device = { (v: String) in minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: {preset: iphone-6-plus, increasedAppLimit: \(v)}") }
        #expect(try parse(device("700MB")).device.entitledAppLimit == 700 * .megabyte)
        #expect(error(of: device("600MB"))?.description
            == "commute.yaml:5:52: device.increasedAppLimit: increasedAppLimit (600 MB) must be at least appLimit (645 MB) and at most ram (1 GB)")
    }

    @Test func processesDeclareFatalLimitsAndExtensionPoints() throws {
        let text = ProcessParserTests.workload("""
          kb: {kind: extension, extensionPoint: keyboard, band: 0, resident: 20MB}
          bb: {name: backboardd, kind: daemon, band: 3, resident: 40MB, memoryLimit: 50MB}

        """)
        let w = try parse(text)
        #expect(w.processes.map(\.limit) == [60 * .megabyte, 50 * .megabyte])
        #expect(w.processes[0].extensionPoint == .keyboard && w.processes[0].memoryLimit == nil)
    }

    @Test func badProcessLimitsAreLocated() {
        func message(_ entry: String) -> String? { error(of: ProcessParserTests.workload(entry + "\n"))?.description }
        #expect(message("  d: {kind: daemon, extensionPoint: widget, band: 0, resident: 2MB}")
            == "commute.yaml:16:37: processes.d.extensionPoint: only an extension has an extensionPoint")
        #expect(message("  w: {kind: extension, extensionPoint: widget, band: 0, resident: 40MB}")
            == "commute.yaml:16:40: processes.w.extensionPoint: resident (40 MB) is over the process's memoryLimit (30 MB): it could not have started")
        #expect(message("  w: {kind: extension, extensionPoint: gadget, band: 0, resident: 4MB}")?
            .hasPrefix("commute.yaml:16:40: processes.w.extensionPoint: unknown extension point 'gadget'") == true)
        #expect(message("  d: {kind: daemon, band: 0, resident: 4MB, memoryLimit: 0MB}")
            == "commute.yaml:16:58: processes.d.memoryLimit: memoryLimit must be above 0")
    }

    @Test func theFreezerBudgetIsAnXNUKeyOfEraWithABudget() throws {
        let policy = { (p: String) in minimal.replacingOccurrences(of: "device: iphone-6-plus\n", with: "device: {preset: iphone-15}\npolicy: \(p)\n") }
        #expect(try parse(policy("{preset: xnu, freezeDailyBudget: 512MB}")).policy.xnu?.freezeDailyBudgetMB == 512)
        #expect(try parse(policy("xnu")).policy.xnu?.freezeDailyBudgetMB == 2048, "iOS 18 on the iPhone 15 preset")
        #expect(error(of: policy("{preset: xnu, freezeDailyBudget: 1.5MB}"))?.description
            == "commute.yaml:6:42: policy.freezeDailyBudget: freezeDailyBudget must be a whole number of megabytes from 1MB to 1TB")
        #expect(error(of: policy("{freezeDailyBudget: 512MB}"))?.description
            == "commute.yaml:6:29: policy.freezeDailyBudget: freezeDailyBudget is a number of the xnu policy's freezer")
        let old = minimal.replacingOccurrences(of: "device: iphone-6-plus\n", with: "device: iphone-6-plus\npolicy: {preset: xnu, freezeDailyBudget: 512MB}\n")
        #expect(error(of: old)?.description.contains("the freezer of xnu-2782.1.97 has no daily budget memprof models") == true)
    }
}
