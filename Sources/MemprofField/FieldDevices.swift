import MemprofCore

/// What the field's reports say about hardware memprof knows: the `product` code a report names,
/// its RAM, and the measured app limit, one entry per identifier of the device presets
/// (`DeviceModel.catalog` in MemprofCore, where each figure's source is named), so
/// `memprof import` and the presets read one table.
public struct FieldProduct: Sendable, Equatable {
    public var product: String
    public var model: String
    public var ram: Bytes
    /// A foreground app's limit: the preset's, measured on this model (`appLimitOS` names the OS
    /// it was read on) or derived from another model's measurement (`appLimitOS` is nil; the
    /// preset's `DeviceModel.limit` says from which).
    public var appLimit: Bytes?
    public var appLimitOS: String?
    public var appLimitIsDerived: Bool { appLimitOS == nil }
    /// The preset that stands for this product.
    public var preset: String

    public init(product: String, model: String, ram: Bytes, appLimit: Bytes?, appLimitOS: String?, preset: String) {
        self.product = product
        self.model = model
        self.ram = ram
        self.appLimit = appLimit
        self.appLimitOS = appLimitOS
        self.preset = preset
    }

    /// Each identifier once: a preset with more RAM under its smaller sibling's identifiers (the
    /// 16 GB `ipad-pro-11-m4-1tb`) leaves them to the sibling, listed first.
    public static let known: [FieldProduct] = DeviceModel.catalog.flatMap { m in
        m.products.compactMap { product -> FieldProduct? in
            guard DeviceModel.product(product)?.name == m.name else { return nil }
            var measuredOS: String?
            if case .measured(_, let os, _) = m.limit { measuredOS = os }
            return FieldProduct(product: product, model: m.model, ram: m.device.ram,
                                appLimit: m.device.appLimit, appLimitOS: measuredOS,
                                preset: m.name)
        }
    }

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
        let product = device.product ?? (base == "macbook-pro-2015" ? "MacBookPro11,4"
            : DeviceModel.named(base)?.products.first ?? "memprof-custom")
        // iOS reports write the OS as "iPhone OS 8.4.1 (12H321)", on iPads too.
        var os = device.osVersion ?? (device.platform == .macos ? "macOS" : "iOS 16.0")
        if os.hasPrefix("iOS ") { os = "iPhone OS " + os.dropFirst(4) }
        if os.hasPrefix("iPadOS ") { os = "iPhone OS " + os.dropFirst(7) }
        return FieldIdentity(product: product, osVersion: os)
    }
}
