import MemprofCore

/// What the field's reports say about hardware memprof knows: the `product` code a report names,
/// its RAM, and the iOS version and build a preset stands for.
///
/// RAM is Apple's published figure for the model; the app limits are those measured on devices
/// and published (see the README's table, which names each source).
public struct FieldProduct: Sendable, Equatable {
    public var product: String
    public var model: String
    public var ram: Bytes
    /// A foreground app's measured limit, when one is published, and the iOS version it was read on.
    public var appLimit: Bytes?
    public var appLimitOS: String?

    public static let known: [FieldProduct] = [
        FieldProduct(product: "iPhone7,1", model: "iPhone 6 Plus", ram: 1 * .gigabyte, appLimit: 645 * .megabyte,
                     appLimitOS: "iOS 8.x"),
        FieldProduct(product: "iPhone7,2", model: "iPhone 6", ram: 1 * .gigabyte, appLimit: 645 * .megabyte,
                     appLimitOS: "iOS 8.x"),
        FieldProduct(product: "iPad5,3", model: "iPad Air 2 (Wi-Fi)", ram: 2 * .gigabyte, appLimit: 1383 * .megabyte,
                     appLimitOS: "iOS 10.2.1"),
        FieldProduct(product: "iPad5,4", model: "iPad Air 2 (cellular)", ram: 2 * .gigabyte,
                     appLimit: 1383 * .megabyte, appLimitOS: "iOS 10.2.1"),
        FieldProduct(product: "iPhone10,1", model: "iPhone 8", ram: 2 * .gigabyte, appLimit: 1400 * .megabyte,
                     appLimitOS: "iOS 11.4.1"),
        FieldProduct(product: "iPhone10,4", model: "iPhone 8", ram: 2 * .gigabyte, appLimit: 1400 * .megabyte,
                     appLimitOS: "iOS 11.4.1"),
        FieldProduct(product: "iPhone11,6", model: "iPhone XS Max", ram: 4 * .gigabyte, appLimit: 2098 * .megabyte,
                     appLimitOS: "iOS 13"),
        FieldProduct(product: "iPhone12,1", model: "iPhone 11", ram: 4 * .gigabyte, appLimit: 2068 * .megabyte,
                     appLimitOS: "iOS 13.1.3"),
        FieldProduct(product: "iPad8,2", model: "iPad Pro 11-inch (1 TB)", ram: 6 * .gigabyte),
        FieldProduct(product: "iPhone14,7", model: "iPhone 14", ram: 6 * .gigabyte),
    ]

    public static func named(_ product: String) -> FieldProduct? { known.first { $0.product == product } }
}

/// The product code and OS a memprof device preset stands for in the reports it writes.
public struct FieldIdentity: Sendable, Equatable {
    public var product: String
    /// `os_version` and `build`, for example `iPhone OS 8.4.1 (12H321)`.
    public var osVersion: String

    public init(product: String, osVersion: String) {
        self.product = product
        self.osVersion = osVersion
    }

    /// A preset's identity; a modified preset (`name (modified)`) keeps its base's; custom devices
    /// are `memprof-custom` on the OS of their era.
    public static func of(_ device: Device) -> FieldIdentity {
        let base = device.name.hasSuffix(" (modified)") ? String(device.name.dropLast(" (modified)".count)) : device.name
        let product = switch base {
        case "iphone-6-plus": "iPhone7,1"
        case "ipad-air-2": "iPad5,3"
        case "macbook-pro-2015": "MacBookPro11,4"
        default: "memprof-custom"
        }
        // iOS reports write the OS as "iPhone OS 8.4.1 (12H321)", on iPads too.
        var os = device.osVersion ?? (device.platform == .macos ? "macOS" : "iOS 16.0")
        if os.hasPrefix("iOS ") { os = "iPhone OS " + os.dropFirst(4) }
        return FieldIdentity(product: product, osVersion: os)
    }
}
