/// The increased-memory-limit entitlement (`com.apple.developer.kernel.increased-memory-limit`)
/// per device and era, as the `xnu` policy has it (`seed-2015` keeps ``Device/entitledAppLimit``'s
/// one factor in every era).
///
/// Apple documents the entitlement from iOS 15.0 and "only on some device models", naming none
/// (``DeviceSources/increasedMemoryLimitDocs``). What is published:
///
/// - no raise on an iPhone 8 (2 GB) with iOS 15.2 (``DeviceSources/iPhone8NoRaise``);
/// - raises, as `os_proc_available_memory()` read without and with it: iPhone 12 mini 2.1 →
///   2.4 GB (``DeviceSources/olmoeAvailableMemory``), iPhone 12 3 → 4 GB and iPhone 15 Pro 3 →
///   6 GB (``DeviceSources/rtabmapEntitlement``), iPhone 13 Pro 3.12 → 4.20 GB
///   (``DeviceSources/pocketpalAvailableMemory``).
///
/// The rule memprof takes from them: before iOS 15, none; on a model with less than 4 GB of RAM,
/// none (the only published model under 4 GB has none, every published raise is on 4 GB or
/// more); otherwise the device's limit times the model's own published ratio (with ÷ without),
/// or, for a model without one, the ratio of the model its limit is derived from, or else the
/// iPhone 13 Pro's 4.20 ÷ 3.12; rounded down to a megabyte and never above the memory apps share.
public enum IncreasedMemoryLimit {
    /// A published raise: available memory without and with the entitlement, in tenths of a GB
    /// or MB (only the ratio is used), and where it is read.
    public struct Raise: Sendable, Hashable {
        public var without: Int64
        public var with: Int64
        public var source: Citation
    }

    /// The published raises, by preset name.
    public static let raises: [String: Raise] = [
        "iphone-12-mini": Raise(without: 21, with: 24, source: DeviceSources.olmoeAvailableMemory),
        "iphone-12": Raise(without: 3, with: 4, source: DeviceSources.rtabmapEntitlement),
        "iphone-13-pro": Raise(without: 312, with: 420, source: DeviceSources.pocketpalAvailableMemory),
        "iphone-15-pro": Raise(without: 3, with: 6, source: DeviceSources.rtabmapEntitlement),
    ]

    /// The first iOS version with the entitlement.
    public static let firstIOSMajor = 15
    /// The least RAM of a model with a published raise.
    public static let minimumRAM: Bytes = 4 * .gigabyte

    /// Why an entitled app on `device` gets the limit ``limit(on:)`` gives, in a few words.
    public enum Basis: Sendable, Hashable {
        /// The device's iOS is older than iOS 15.
        case beforeIOS15
        /// The model has less than 4 GB of RAM.
        case underMinimumRAM
        /// The raise published for `model` (a preset name; the device's own or its limit's basis).
        case published(model: String, Raise)
        /// No raise published for the model or its basis: the iPhone 13 Pro's.
        case defaultRatio
    }

    /// The basis of the limit on `device` (its iOS version, or the `xnu` preset's era, iOS 16,
    /// when it names none; its preset, through ``DeviceModel/named(_:)``).
    public static func basis(on device: Device) -> Basis {
        if device.platform == .ios, (device.osMajor ?? XNUSettings.kernelIOSMajor) < firstIOSMajor { return .beforeIOS15 }
        if device.ram < minimumRAM { return .underMinimumRAM }
        guard let model = DeviceModel.named(device.name) else { return .defaultRatio }
        if let own = raises[model.name] { return .published(model: model.name, own) }
        if case .derived(let basis, _) = model.limit, let theirs = raises[basis] { return .published(model: basis, theirs) }
        return .defaultRatio
    }

    /// The active limit of an app with the entitlement on `device`.
    public static func limit(on device: Device) -> Bytes {
        let (with, without): (Int64, Int64)
        switch basis(on: device) {
        case .beforeIOS15, .underMinimumRAM: return device.appLimit
        case .published(_, let raise): (with, without) = (raise.with, raise.without)
        case .defaultRatio: (with, without) = (420, 312)
        }
        let raised = device.appLimit / .megabyte * with / without * .megabyte
        return max(device.appLimit, min(raised, device.appMemory))
    }
}
