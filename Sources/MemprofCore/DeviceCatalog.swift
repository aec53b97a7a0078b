extension DeviceModel {
    /// Every iPhone and iPad preset, oldest first within each family; ``Device/presets`` lists the
    /// reference text's two devices and the Mac first, then the rest of these.
    public static let catalog: [DeviceModel] = iPhones + iPads

    /// memprof's estimates for what no source measures, the same rule for every preset after the
    /// reference text's two (whose own estimates are written in the README): the OS and its
    /// daemons hold a quarter of RAM (`systemReserved`; published JetsamEvent reports show wired
    /// memory alone at 15–19% of RAM: 312 MB of 2 GB on an iPhone 8, iOS 11.4.1; 769 MB of 4 GB on
    /// an iPhone 11, iOS 14.2; 1039 MB of 6 GB on an iPhone 14, iOS 18.5 — the fixtures in
    /// Tests/MemprofFieldTests/Fixtures); the compressed store on flash is a quarter of RAM, as
    /// the two reference presets have it; flash reads back at 1 GB/s (NVMe storage from the A9
    /// on); `cpuScale` falls with the chip's generation (``cpuScale(chip:)``).
    static func make(_ name: String, _ model: String, _ products: [String], year: Int, chip: String,
                     ram: Bytes, ramSource: Citation, limit: (Bytes, LimitProvenance),
                     shipped: String, latest: String, latestSource: Citation, osVersion: String? = nil,
                     earlierLimits: [EarlierLimit] = [], swap: Bytes? = nil) -> DeviceModel {
        var device = Device(name: name, platform: .ios, ram: ram, systemReserved: ram / 4, appLimit: limit.0,
                            flash: ram / 4, flashReadRate: 1 * .gigabyte, pageSize: 16 * .kilobyte,
                            cpuScale: cpuScale(chip: chip), osVersion: osVersion ?? latest)
        device.virtualMemorySwap = swap
        return DeviceModel(device: device, model: model, products: products, year: year, chip: chip,
                           ramSource: ramSource, limit: limit.1, shippedOS: shipped, latestOS: latest,
                           latestOSSource: latestSource, earlierLimits: earlierLimits)
    }

    /// A limit measured on the model itself.
    static func measured(_ megabytes: Int64, _ method: LimitProvenance.Method, on os: String,
                         _ source: Citation) -> (Bytes, LimitProvenance) {
        (megabytes * .megabyte, .measured(method: method, os: os, source: source))
    }

    /// The rule for a model nobody has published a measurement of: the limit of the nearest
    /// measured model of the same family (iPhone or iPad) with the same RAM, the same chip
    /// generation first, then the closest year.
    static func derived(from basis: DeviceModel) -> (Bytes, LimitProvenance) {
        let how: String
        switch basis.limit {
        case .measured(let method, let os, _): how = "\(method.rawValue), \(os)"
        case .derived(let inner, _): how = "itself derived from \(inner)"
        }
        return (basis.device.appLimit,
                .derived(basis: basis.name, rule: "\(basis.model)'s limit (\(how)): the nearest measured model with the same RAM"))
    }

    /// The first major release with virtual memory swap: iPadOS 16 (``DeviceSources/iPadOS16Swap``).
    public static let swapFromMajor = 16

    /// `device` with its swap as its iPadOS has it: none before iPadOS 16.
    public static func swapOnItsOS(_ device: Device) -> Device {
        var device = device
        if let major = device.osMajor, major < swapFromMajor { device.virtualMemorySwap = nil }
        return device
    }

    /// How much slower than the host a chip runs measured work: memprof's estimate, 4.0 for the
    /// A8 as the reference preset has it, falling with each generation to 1.0 for the A17 Pro,
    /// A18, A19 and the M-series.
    static func cpuScale(chip: String) -> Double {
        switch chip {
        case "A8", "A8X": 4.0
        case "A9", "A9X": 3.0
        case "A10 Fusion", "A10X Fusion": 2.5
        case "A11 Bionic": 2.0
        case "A12 Bionic", "A12X Bionic", "A12Z Bionic": 1.8
        case "A13 Bionic": 1.6
        case "A14 Bionic": 1.4
        case "A15 Bionic": 1.3
        case "A16 Bionic": 1.2
        default: 1.0
        }
    }
}

extension Device {
    /// The built-in devices: the reference text's iPhone 6 Plus and iPad Air 2 and the Mac first,
    /// then every other iPhone and iPad of ``DeviceModel/catalog`` (figures and sources there and
    /// in the MemprofCore documentation's device article).
    public static let presets: [Device] = {
        let first = ["iphone-6-plus", "ipad-air-2"]
        let models = DeviceModel.catalog
        return first.compactMap { name in models.first { $0.name == name }?.device } + [macBookPro2015]
            + models.filter { !first.contains($0.name) }.map(\.device)
    }()

    /// The Mac of the reference text's era; not a ``DeviceModel`` (it has no per-app limit and no
    /// jetsam reports): the limit is all of RAM, the rest memprof's estimates (README).
    static let macBookPro2015 = Device(
        name: "macbook-pro-2015", platform: .macos, ram: 8 * .gigabyte, systemReserved: 2 * .gigabyte,
        appLimit: 8 * .gigabyte, flash: 16 * .gigabyte, flashReadRate: 1500 * .megabyte,
        pageSize: 4 * .kilobyte, cpuScale: 1.5)

    public static func preset(named name: String) -> Device? {
        presets.first { $0.name == name }
    }
}
