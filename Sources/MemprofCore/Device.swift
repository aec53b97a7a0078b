/// Which lifecycle model a device follows.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    case ios
    case macos
}

/// The simulated hardware (spec §4).
public struct Device: Sendable, Hashable, Codable {
    public var name: String
    public var platform: Platform
    /// Physical RAM.
    public var ram: Bytes
    /// RAM held by the OS and its daemons; apps share `ram − systemReserved`.
    public var systemReserved: Bytes
    /// The most one app may use before it is killed with `memoryLimit`.
    public var appLimit: Bytes
    /// Capacity of the compressed store on flash: under `xnu` from xnu-4570 also the room the
    /// freezer's swap files have (``XNUSettings/freezerSwap(on:)``).
    public var flash: Bytes
    /// Bytes read back from flash per second when a compressed app resumes.
    public var flashReadRate: Bytes
    public var pageSize: Bytes
    /// How much slower the device is than the machine memprof runs on (measured work only).
    public var cpuScale: Double
    /// The OS version the device runs, as `iOS 8.4.1 (12H321)`: it chooses the `xnu` policy's
    /// numbers and is what exported jetsam reports name. Left out when not given.
    public var osVersion: String?
    /// The hardware identifier a jetsam report names, as `iPhone12,1`: set by a workload (an
    /// imported report's `product`); exported reports name it instead of the preset's own. Left
    /// out when not given.
    public var product: String?
    /// The per-app limit of an app with the increased-memory-limit entitlement
    /// (`increasedMemoryLimit`); nil uses ``entitledAppLimit``'s default. Left out when not given.
    public var increasedAppLimit: Bytes?
    /// iPadOS's virtual memory swap (from iPadOS 16, on the iPads that have it): the memory one
    /// app may use with it, RAM and swap on flash together, as Apple publishes it (16 GB on the
    /// M1 iPads: ``DeviceSources/iPadOS16Swap``); nil on a device without swap. A device with
    /// it swaps (xnu's `VM_CONFIG_SWAP_IS_ACTIVE`). Left out when nil.
    public var virtualMemorySwap: Bytes?

    public init(name: String, platform: Platform, ram: Bytes, systemReserved: Bytes, appLimit: Bytes,
                flash: Bytes, flashReadRate: Bytes, pageSize: Bytes, cpuScale: Double, osVersion: String? = nil,
                product: String? = nil) {
        self.name = name
        self.platform = platform
        self.ram = ram
        self.systemReserved = systemReserved
        self.appLimit = appLimit
        self.flash = flash
        self.flashReadRate = flashReadRate
        self.pageSize = pageSize
        self.cpuScale = cpuScale
        self.osVersion = osVersion
        self.product = product
    }

    /// Whether `text` reads as Apple's hardware identifier: a family name, then major,minor
    /// (`iPhone12,1`, `iPad8,2`), at most 32 characters.
    public static func isHardwareIdentifier(_ text: String) -> Bool {
        let family = text.prefix { $0.isASCII && $0.isLetter }
        let numbers = text.dropFirst(family.count).split(separator: ",", omittingEmptySubsequences: false)
        return text.count <= 32 && !family.isEmpty && numbers.count == 2
            && numbers.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// The per-app limit with the increased-memory-limit entitlement
    /// (`com.apple.developer.kernel.increased-memory-limit`): ``increasedAppLimit``, or by default
    /// ``appLimit`` × 4.20 ÷ 3.12, the rise published for an iPhone 13 Pro (available memory 3.12 GB
    /// without, 4.20 GB with it: ``DeviceSources/pocketpalAvailableMemory``), rounded down to a
    /// megabyte, never under ``appLimit`` nor over ``appMemory``. The other published pairs
    /// disagree (iPhone 12 mini 2.1 → 2.4 GB, iPhone 15 Pro about 3 → 6 GB): the middle one is chosen.
    public var entitledAppLimit: Bytes {
        if let increasedAppLimit { return increasedAppLimit }
        let raised = appLimit / .megabyte * 420 / 312 * .megabyte
        return max(appLimit, min(raised, appMemory))
    }

    /// Memory the apps share: `ram − systemReserved`.
    public var appMemory: Bytes { ram - systemReserved }

    /// The major version in ``osVersion`` (8 in `iOS 8.4.1 (12H321)`).
    public var osMajor: Int? { osVersion.flatMap(Self.majorVersion) }

    /// The first `N.M` word of an OS version string, as (major, minor).
    public static func version(_ text: String) -> (major: Int, minor: Int)? {
        for word in text.split(separator: " ") {
            let parts = word.split(separator: ".")
            guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1]),
                  (1...99).contains(major), (0...99).contains(minor) else { continue }
            return (major, minor)
        }
        return nil
    }

    static func majorVersion(_ text: String) -> Int? { version(text)?.major }
}
