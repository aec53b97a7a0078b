/// A published source a device figure is read from: a page's address, or a repository and path.
public struct Citation: Sendable, Hashable {
    /// What the source is, in a few words ("StackOverflow: iOS app maximum memory budget").
    public var title: String
    /// Where to read it: a URL, or `owner/repo` and a path.
    public var location: String

    public init(_ title: String, _ location: String) {
        self.title = title
        self.location = location
    }
}

/// Where a preset's per-app limit (`appLimit`) comes from.
public enum LimitProvenance: Sendable, Hashable {
    /// How the figure was obtained on the device.
    public enum Method: String, Sendable, Hashable {
        /// An app allocates until it is killed; the footprint last seen is the figure (the
        /// StackOverflow "maximum memory budget" table, Jan Ilavsky's test tool).
        case crashTest = "crash test"
        /// A JetsamEvent report of a `per-process-limit` kill: the victim's resident pages are the
        /// kernel's limit exactly.
        case jetsamReport = "jetsam report"
        /// `os_proc_available_memory()` read by an app early in its life: the limit less what the
        /// app held then, so a lower bound of the limit.
        case availableMemory = "os_proc_available_memory"
        /// The footprint an app reached when the system killed it, read from Xcode's gauge.
        case killObservation = "kill observed in Xcode"
    }

    /// Measured on this very model and published.
    case measured(method: Method, os: String, source: Citation)
    /// No published measurement for this model: the figure is another measurement's, per the
    /// rule written in `rule` (the basis is a preset name when the basis is a preset).
    case derived(basis: String, rule: String)

    public var isDerived: Bool {
        if case .derived = self { return true }
        return false
    }
}

/// One built-in device with what memprof knows about the hardware it stands for: its product
/// identifiers, the sources of its RAM and app limit, and its iOS versions. ``Device/presets`` is
/// made from these, so the preset list, `memprof list devices` and the product table that
/// `memprof import` uses are one table.
public struct DeviceModel: Sendable, Hashable {
    /// The simulated device (what a workload's `device:` names and report.json writes).
    public var device: Device
    /// The marketing name ("iPhone 15 Pro Max").
    public var model: String
    /// Hardware identifiers as `hw.machine` and JetsamEvent reports write them (`iPhone16,2`).
    public var products: [String]
    /// The year the model was released.
    public var year: Int
    /// The system on a chip.
    public var chip: String
    /// Where the RAM figure is read.
    public var ramSource: Citation
    /// Where ``Device/appLimit`` comes from.
    public var limit: LimitProvenance
    /// The OS the model shipped with.
    public var shippedOS: String
    /// The last OS release the model runs (as of November 2026), and where that is read.
    public var latestOS: String
    public var latestOSSource: Citation
    /// The per-app limits the model had before an OS release changed them, oldest release
    /// first; ``Device/appLimit`` holds from the last of them on. Empty where no source shows a change.
    public var earlierLimits: [EarlierLimit]

    public init(device: Device, model: String, products: [String], year: Int, chip: String, ramSource: Citation,
                limit: LimitProvenance, shippedOS: String, latestOS: String, latestOSSource: Citation,
                earlierLimits: [EarlierLimit] = []) {
        self.device = device
        self.model = model
        self.products = products
        self.year = year
        self.chip = chip
        self.ramSource = ramSource
        self.limit = limit
        self.shippedOS = shippedOS
        self.latestOS = latestOS
        self.latestOSSource = latestOSSource
        self.earlierLimits = earlierLimits
    }

    public var name: String { device.name }
}

extension DeviceModel {
    /// The major versions of iOS the model runs, from the one it shipped with to its latest; nil
    /// if either does not read as a version.
    public var supportedMajors: ClosedRange<Int>? {
        guard let first = Self.major(shippedOS), let last = Self.major(latestOS), first <= last else { return nil }
        return first...last
    }

    /// The major version a name such as `iOS 17`, `iOS 12.5.8 (16H88)` or `iPadOS 15.8.8` gives.
    static func major(_ text: String) -> Int? {
        text.split(separator: " ").lazy.compactMap { $0.split(separator: ".").first.flatMap { Int($0) } }.first
    }

    /// The majors Apple never released: after iOS 18 came iOS 26, named for the year it is
    /// current in (iPhone FAQ, "Why did Apple jump from iOS 18 to iOS 26?", 2025-07-17,
    /// <https://www.iphonefaq.org/archives/978563>).
    public static let skippedMajors = 19...25
}

/// A per-app limit a model had on the OS versions before `before` (major, minor), where an OS
/// release changed it, with where that is read.
public struct EarlierLimit: Sendable, Hashable {
    public var beforeMajor: Int
    public var beforeMinor: Int
    public var limit: Bytes
    public var provenance: LimitProvenance

    public init(before version: (major: Int, minor: Int), limit: Bytes, provenance: LimitProvenance) {
        beforeMajor = version.major
        beforeMinor = version.minor
        self.limit = limit
        self.provenance = provenance
    }

    /// `iPadOS 26.4`-style words for the release the limit ends at, on `family` (iOS or iPadOS).
    public func endsAt(_ family: String) -> String { "\(family) \(beforeMajor).\(beforeMinor)" }
}

extension DeviceModel {
    /// The per-app limit on the OS version `osVersion` names (`iPadOS 26.2`), with where it is
    /// read: the first of ``earlierLimits`` that ends after that version, else the preset's own.
    /// A version that does not read as one gets the preset's own.
    public func appLimit(on osVersion: String?) -> (limit: Bytes, provenance: LimitProvenance) {
        if let v = osVersion.flatMap(Device.version),
           let earlier = earlierLimits.first(where: { (v.major, v.minor) < ($0.beforeMajor, $0.beforeMinor) }) {
            return (earlier.limit, earlier.provenance)
        }
        return (device.appLimit, limit)
    }
}

extension DeviceModel {
    /// The model behind a preset name, or behind a modified preset (`name (modified)`).
    public static func named(_ name: String) -> DeviceModel? {
        let base = name.hasSuffix(" (modified)") ? String(name.dropLast(" (modified)".count)) : name
        return catalog.first { $0.name == base }
    }

    /// The model a hardware identifier belongs to (`iPhone15,4` → iPhone 15).
    public static func product(_ identifier: String) -> DeviceModel? {
        catalog.first { $0.products.contains(identifier) }
    }
}
