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

    public init(name: String, platform: Platform, ram: Bytes, systemReserved: Bytes, appLimit: Bytes,
                flash: Bytes, flashReadRate: Bytes, pageSize: Bytes, cpuScale: Double) {
        self.name = name
        self.platform = platform
        self.ram = ram
        self.systemReserved = systemReserved
        self.appLimit = appLimit
        self.flash = flash
        self.flashReadRate = flashReadRate
        self.pageSize = pageSize
        self.cpuScale = cpuScale
    }

    /// Memory the apps share: `ram − systemReserved`.
    public var appMemory: Bytes { ram - systemReserved }
}

extension Device {
    /// The built-in devices. RAM and app limits are the reference text's; the rest are memprof's
    /// estimates for hardware of that year, written down in the README.
    public static let presets: [Device] = [
        Device(name: "iphone-6-plus", platform: .ios, ram: 1 * .gigabyte, systemReserved: 300 * .megabyte,
               appLimit: 645 * .megabyte, flash: 256 * .megabyte, flashReadRate: 200 * .megabyte,
               pageSize: 16 * .kilobyte, cpuScale: 4.0),
        Device(name: "ipad-air-2", platform: .ios, ram: 2 * .gigabyte, systemReserved: 450 * .megabyte,
               appLimit: 1383 * .megabyte, flash: 512 * .megabyte, flashReadRate: 400 * .megabyte,
               pageSize: 16 * .kilobyte, cpuScale: 3.0),
        Device(name: "macbook-pro-2015", platform: .macos, ram: 8 * .gigabyte, systemReserved: 2 * .gigabyte,
               appLimit: 8 * .gigabyte, flash: 16 * .gigabyte, flashReadRate: 1500 * .megabyte,
               pageSize: 4 * .kilobyte, cpuScale: 1.5),
    ]

    public static func preset(named name: String) -> Device? {
        presets.first { $0.name == name }
    }
}
