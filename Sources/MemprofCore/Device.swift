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
    /// Capacity of the compressed store on flash.
    public var flash: Bytes
    /// Bytes read back from flash per second when a compressed app resumes.
    public var flashReadRate: Bytes
    public var pageSize: Bytes
    /// How much slower the device is than the machine memprof runs on (measured work only).
    public var cpuScale: Double
    /// The OS version the device runs, as `iOS 8.4.1 (12H321)`: it chooses the `xnu` policy's
    /// numbers and is what exported jetsam reports name. Left out when not given.
    public var osVersion: String?

    public init(name: String, platform: Platform, ram: Bytes, systemReserved: Bytes, appLimit: Bytes,
                flash: Bytes, flashReadRate: Bytes, pageSize: Bytes, cpuScale: Double, osVersion: String? = nil) {
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

extension Device {
    /// The built-in devices. RAM and app limits are the reference text's, each the figure measured
    /// on the OS version the preset names (645 MB on iOS 8.x; 1383 MB on iOS 10.2.1, where iOS 8.x
    /// gave 1195 MB); the A8's pages are 4 KB (published iPhone 6 Plus and iPhone 6 jetsam
    /// reports show `pageSize` 4096); the rest are memprof's estimates, written down in the README.
    public static let presets: [Device] = [
        Device(name: "iphone-6-plus", platform: .ios, ram: 1 * .gigabyte, systemReserved: 300 * .megabyte,
               appLimit: 645 * .megabyte, flash: 256 * .megabyte, flashReadRate: 200 * .megabyte,
               pageSize: 4 * .kilobyte, cpuScale: 4.0, osVersion: "iOS 8.4.1 (12H321)"),
        Device(name: "ipad-air-2", platform: .ios, ram: 2 * .gigabyte, systemReserved: 450 * .megabyte,
               appLimit: 1383 * .megabyte, flash: 512 * .megabyte, flashReadRate: 400 * .megabyte,
               pageSize: 16 * .kilobyte, cpuScale: 3.0, osVersion: "iOS 10.2.1 (14D27)"),
        Device(name: "macbook-pro-2015", platform: .macos, ram: 8 * .gigabyte, systemReserved: 2 * .gigabyte,
               appLimit: 8 * .gigabyte, flash: 16 * .gigabyte, flashReadRate: 1500 * .megabyte,
               pageSize: 4 * .kilobyte, cpuScale: 1.5),
    ]

    public static func preset(named name: String) -> Device? {
        presets.first { $0.name == name }
    }
}
