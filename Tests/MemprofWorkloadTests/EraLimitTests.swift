import MemprofCore
import Testing
@testable import MemprofWorkload

/// The increased-memory-limit entitlement per device and era, and per-app limits an OS release
/// changed, as `xnu` resolves them for the device a workload names (`seed-2015` keeps the presets'
/// numbers and one entitlement factor).
@Suite struct EraLimitTests {
    /// One app, entitled or not, on `device` under `policy`.
    static func workload(device: String, policy: String = "xnu", entitled: Bool = true) -> String {
        """
        memprof: 1
        name: entitled
        duration: 1m
        device: \(device)
        policy: \(policy)
        population: none
        apps:
          model:
            launch: {footprint: 500MB}
            increasedMemoryLimit: \(entitled)
        script:
          - {at: 0s, open: model}
        """
    }

    static func activeLimit(_ text: String) throws -> Bytes {
        let w = try parse(text)
        return w.apps[0].activeLimit(on: w.device)
    }

    @Test func anEntitledAppOnAnIPhone8WithIOS15GetsNoRaise() throws {
        // The iPhone 8: 2 GB, 1400 MB; on iOS 15.2 the entitlement changed nothing (forums 740831).
        let limit = try Self.activeLimit(Self.workload(device: "{preset: iphone-8, osVersion: \"iOS 15.2\"}"))
        #expect(limit == 1400 * .megabyte)
        #expect(IncreasedMemoryLimit.basis(on: try parse(Self.workload(device: "{preset: iphone-8, osVersion: \"iOS 15.2\"}")).device)
            == .underMinimumRAM)
        // seed-2015 keeps its one factor: 1400 × 420 ÷ 312 = 1884.6 → 1884 MB, capped at the
        // memory the apps share, 2 GB − 512 MB = 1536 MB.
        let seed = try Self.activeLimit(Self.workload(device: "{preset: iphone-8, osVersion: \"iOS 15.2\"}", policy: "seed-2015"))
        #expect(seed == 1536 * .megabyte)
    }

    @Test func beforeIOS15NoDeviceGetsARaise() throws {
        // An iPhone 11 (4 GB, 2068 MB) on iOS 14: the entitlement does not exist yet.
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-11, osVersion: \"iOS 14.8\"}")) == 2068 * .megabyte)
        // On iOS 15 it gets the default ratio: 2068 × 420 ÷ 312 = 2783.8 → 2783 MB (app memory 3 GB).
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-11, osVersion: \"iOS 15.0\"}")) == 2783 * .megabyte)
    }

    @Test func measuredRaisesArePerDevice() throws {
        // iPhone 12 mini: 2150 MB × 24 ÷ 21 = 2457.1 → 2457 MB.
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-12-mini, osVersion: \"iOS 18.5\"}")) == 2457 * .megabyte)
        // iPhone 12 (derived from the 12 mini's limit, its own published ratio): 2150 × 4 ÷ 3 = 2866.7 → 2866 MB.
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-12, osVersion: \"iOS 18.5\"}")) == 2866 * .megabyte)
        // iPhone 15 Pro: 3584 MB × 6 ÷ 3 = 7168 MB, over the 6 GB the apps share: 6144 MB.
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-15-pro, osVersion: \"iOS 18.5\"}")) == 6144 * .megabyte)
        // iPhone 15 (derived from the iPhone 13 Pro): 3195 × 420 ÷ 312 = 4301.0 → 4300 MB
        // (3195 × 420 = 1 341 900; ÷ 312 = 4300.96).
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-15, osVersion: \"iOS 18.5\"}")) == 4300 * .megabyte)
        // Without the entitlement nothing changes.
        #expect(try Self.activeLimit(Self.workload(device: "{preset: iphone-15-pro, osVersion: \"iOS 18.5\"}", entitled: false))
            == 3584 * .megabyte)
    }

    @Test func anEightGBIPadHadSixGBBeforeIPadOS26Point4() throws {
        let before = try parse(Self.workload(device: "{preset: ipad-air-5, osVersion: \"iPadOS 26.3\"}", entitled: false))
        #expect(before.device.appLimit == 6 * .gigabyte)
        let after = try parse(Self.workload(device: "{preset: ipad-air-5, osVersion: \"iPadOS 26.4\"}", entitled: false))
        #expect(after.device.appLimit == 3 * .gigabyte)
        // A workload's own appLimit is kept, and seed-2015 keeps the preset's.
        let own = try parse(Self.workload(device: "{preset: ipad-air-5, osVersion: \"iPadOS 17.0\", appLimit: 4GB}", entitled: false))
        #expect(own.device.appLimit == 4 * .gigabyte)
        let seed = try parse(Self.workload(device: "{preset: ipad-air-5, osVersion: \"iPadOS 17.0\"}", policy: "seed-2015", entitled: false))
        #expect(seed.device.appLimit == 3 * .gigabyte)
        // The 16 GB iPad Pro: 12 GB before 26.4, 6 GB from it.
        let big = try #require(DeviceModel.named("ipad-pro-11-m4-1tb"))
        #expect(big.device.ram == 16 * .gigabyte && big.appLimit(on: "iPadOS 18.1").limit == 12 * .gigabyte)
        #expect(big.appLimit(on: "iPadOS 27.0").limit == 6 * .gigabyte && big.appLimit(on: nil).limit == 6 * .gigabyte)
    }

    @Test func networkExtensionLimitsFollowTheDevicesIOS() throws {
        func tunnel(_ os: String, _ point: String = "packetTunnel") throws -> ProcessSpec {
            let text = Self.workload(device: "{preset: iphone-11, osVersion: \"\(os)\"}", entitled: false)
                .replacingOccurrences(of: "script:", with: "processes:\n  vpn: {kind: extension, extensionPoint: \(point), band: 0, resident: 5MB}\nscript:")
            return try #require(try parse(text).processes.first)
        }
        let mib: Bytes = 1 << 20
        // Apple DTS's tables: a packet tunnel 15 MiB before iOS 15, 50 MiB from it.
        #expect(try tunnel("iOS 14.8").limit == 15 * mib)
        #expect(try tunnel("iOS 18.5").limit == 50 * mib && (try tunnel("iOS 18.5").memoryLimit) == nil)
        // A filter's control provider: 6, 12 on iOS 15, 50 from iOS 16; its data provider 6 until iOS 16.
        #expect(try [13, 15, 16].map { try tunnel("iOS \($0).0", "filterControl").limit } == [6 * mib, 12 * mib, 50 * mib])
        #expect(try [15, 16].map { try tunnel("iOS \($0).0", "filterData").limit } == [6 * mib, 50 * mib])
        #expect(ExtensionPoint.appPush.memoryLimit == 24 * mib && ExtensionPoint.dnsProxy.memoryLimit == 15 * mib)
    }

    @Test func theIPhonesOf2025AreThere() throws {
        let expected: [(String, String, Int64, Bytes)] = [
            ("iphone-16e", "iPhone17,5", 8, 3584 * .megabyte), ("iphone-17", "iPhone18,3", 8, 3584 * .megabyte),
            ("iphone-air", "iPhone18,4", 12, 3375 * .megabyte), ("iphone-17-pro", "iPhone18,1", 12, 3375 * .megabyte),
            ("iphone-17-pro-max", "iPhone18,2", 12, 3375 * .megabyte),
        ]
        for (name, product, gigabytes, limit) in expected {
            let m = try #require(DeviceModel.named(name))
            #expect(m.year == 2025 && m.products == [product] && m.device.ram == gigabytes * .gigabyte, "\(name)")
            #expect(m.device.appLimit == limit && DeviceModel.product(product)?.name == name, "\(name)")
        }
    }
}

/// The app's own warning at 80% of its limit (`NOTE_MEMORYSTATUS_PROC_LIMIT_WARN`) under `xnu`.
@Suite struct LimitWarningTests {
    /// One app on an iPhone 15 (limit 3195 MB, so the warning level is 2556 MB) that allocates
    /// past the level, again while above it, frees below it and rises past it once more.
    static func workload(policy: String) -> String {
        """
        memprof: 1
        name: near-limit
        duration: 10m
        device: {preset: iphone-15, osVersion: "iOS 18.5"}
        policy: \(policy)
        population: none
        apps:
          editor:
            launch: {footprint: 500MB}
            onMemoryWarning: {release: 100MB}
        script:
          - {at: 0s, open: editor}
          - {at: 1m, allocate: editor, size: 2200MB}
          - {at: 2m, allocate: editor, size: 10MB}
          - {at: 3m, free: editor, size: 600MB}
          - {at: 4m, allocate: editor, size: 600MB}
        """
    }

    static func warnings(_ text: String) throws -> [String] {
        var simulator = Simulator(workload: try parse(text))
        return simulator.run().events.compactMap { e in
            guard case .memoryWarning(let cause, let freed) = e.payload else { return nil }
            return "\(e.atUs) \(cause.rawValue) \(freed / .megabyte)"
        }
    }

    @Test func anAppPast80PercentOfItsLimitIsWarnedOnTheWayUp() throws {
        // 1 m: 500 + 2200 = 2700 MB ≥ 2556 MB: warned, releases 100 MB (2600 MB). 2 m: 2610 MB,
        // already above the level: no warning. 3 m: 2010 MB, under it. 4 m: 2610 MB, past it
        // again: warned, releases 100 MB. The phone's 6 GB has room: no pressure warning.
        #expect(try Self.warnings(Self.workload(policy: "xnu")) == ["60000000 limit 100", "240000000 limit 100"])
        // seed-2015 has no such warning.
        #expect(try Self.warnings(Self.workload(policy: "seed-2015")).allSatisfy { !$0.contains("limit") })
    }
}
