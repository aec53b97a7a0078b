/// What a process that is not an app is (spec §5, the workload's `processes:`).
public enum ProcessKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An app extension (a widget, a keyboard, a share extension).
    case `extension`
    /// A launchd daemon (`wifianalyticsd`, `cfprefsd`).
    case daemon
    /// A system process (`backboardd`, `SpringBoard`, `kernel_task`): no high-water mark.
    case system

    /// Whether xnu's highwater pass can take it: daemons and extensions carry a high-water mark
    /// (`p_memstat_memlimit`); a system process may not declare one (spec §5).
    public var mayHaveHighWaterMark: Bool { self != .system }
}

/// One process of a workload that is not an app, fully resolved (spec §5): resident from the
/// start of the run in its jetsam band, counted in `used` like the apps' footprints.
///
/// Under `xnu` it can be killed: for passing its high-water mark once available memory is under
/// the pressure threshold (`highwater`), and by band when memory is reclaimed (`memoryPressure`).
/// Under `seed-2015` and on a Mac its memory is fixed and it never ends.
public struct ProcessSpec: Sendable, Hashable {
    /// The key the workload and the report's events use (`[a-z0-9-]+`, unique among apps and processes).
    public var id: String
    /// The name as iOS writes it in a jetsam report (`backboardd`); defaults to ``id``.
    public var displayName: String
    public var kind: ProcessKind
    /// Its jetsam priority band, 0...``maxBand`` (`JETSAM_PRIORITY_MAX` is 210 in xnu-8792.41.9
    /// bsd/sys/kern_memorystatus.h:69; published reports show 999 for launchd and kernel_task).
    public var band: Int
    /// Resident bytes from time 0.
    public var resident: Bytes
    /// The high-water mark (`p_memstat_memlimit`) past which the highwater pass kills it; nil for none.
    /// A non-fatal limit: passing it only makes the process a candidate once memory is short.
    public var highWaterMark: Bytes?
    /// Its fatal per-process limit: the allocation that takes it past this kills it at once with
    /// `per-process-limit` (``ExitReason/memoryLimit``); nil for none, or the published limit of
    /// its ``extensionPoint`` (``limit``).
    public var memoryLimit: Bytes?
    /// What an extension extends, for its published limit; nil for other kinds.
    public var extensionPoint: ExtensionPoint?
    /// A notification service extension's tie to the app whose pushes wake it; nil for others.
    public var pushService: PushService?

    /// The pushes that wake a notification service extension (`app: news`, `push: {time: 3s,
    /// allocates: 10MB}`): each `push: APP` launches it again if it ended ("launched on demand
    /// when the system delivers a notification", Apple, UNNotificationServiceExtension) and makes
    /// it hold `allocates` for `timeUs` (its fatal limit, 24 MB, applies), whatever the app does.
    public struct PushService: Sendable, Hashable {
        /// The app's key.
        public var app: String
        public var timeUs: Microseconds
        public var allocates: Bytes

        public init(app: String, timeUs: Microseconds, allocates: Bytes) {
            self.app = app
            self.timeUs = timeUs
            self.allocates = allocates
        }
    }

    /// ``memoryLimit``, or the published limit of its extension point.
    public var limit: Bytes? { memoryLimit ?? extensionPoint?.memoryLimit }

    /// Set where its memory is held in the in-RAM compressor while it sits in the idle band, at
    /// this ratio (uncompressed ÷ compressed), as a suspended app's is (Compressor.swift): the
    /// built-in population's idle daemons and suspended extensions (``SystemPopulation``). Nil:
    /// resident uncompressed, as a workload's `processes:` are.
    public var compressorRatio: Double?
    /// Whether launchd starts it again after it is killed (a daemon of the built-in population,
    /// ``SystemPopulation``): `ThrottleInterval` after its exit, once memory allows (Processes.swift).
    public var relaunches = false

    /// The highest band a workload may give (the 999 of launchd and kernel_task fits).
    public static let maxBand = 1000

    public init(id: String, displayName: String? = nil, kind: ProcessKind, band: Int, resident: Bytes,
                highWaterMark: Bytes? = nil, memoryLimit: Bytes? = nil, extensionPoint: ExtensionPoint? = nil) {
        self.id = id
        self.displayName = displayName ?? id
        self.kind = kind
        self.band = band
        self.resident = resident
        self.highWaterMark = highWaterMark
        self.memoryLimit = memoryLimit
        self.extensionPoint = extensionPoint
    }

    /// Its `states` in a jetsam report (see ``ProcessKind/jetsamStates(band:)``).
    public var jetsamStates: [String] { kind.jetsamStates(band: band) }
}

extension ProcessKind {
    /// The `states` of a process of this kind in `band`, in iOS's words: a daemon is `daemon`,
    /// with `idle` in the idle band (published reports: `["daemon", "idle"]` at priority 0,
    /// `["daemon"]` at 140); an extension in the idle band is `suspended` (the suspended widget
    /// extensions of an iOS 18.5 report at priority 0), otherwise `active`; a system process is
    /// `active` (backboardd, launchd, kernel_task). Tests/MemprofFieldTests/Fixtures/ios18-iphone14-excerpt.ips
    /// shows each. The idle band is 0 (`JETSAM_PRIORITY_IDLE`) in every era.
    public func jetsamStates(band: Int) -> [String] {
        switch self {
        case .daemon: band == 0 ? ["daemon", "idle"] : ["daemon"]
        case .extension: band == 0 ? ["suspended"] : ["active"]
        case .system: ["active"]
        }
    }
}

/// What an app extension extends, with the per-process limit published for it (iOS keeps these
/// limits out of its documentation: Apple's App Extension Programming Guide says only that
/// extensions must keep their memory use low, and the figures are measurements by developers,
/// which vary with the device and the iOS version).
public enum ExtensionPoint: String, Sendable, Hashable, Codable, CaseIterable {
    /// A home-screen widget (WidgetKit): about 30 MB (CharlesWiltgen/Axiom, skill
    /// `extensions-widgets-ref`, "Limited memory (~30MB)"; iOS 8's Today widgets had 16 MB, Conrad
    /// Kramer, "Memory Use in Extensions", cocoaheads.tv).
    case widget
    /// A custom keyboard: 60 MB, the lower end of the "~60-70 MB, based on device and OS" that
    /// KeyboardKit publishes (keyboardkit.com/about/terminology, "Memory Cap"); other developers
    /// report 30–60 MB.
    case keyboard
    /// A share extension: 120 MB, measured on an iPhone 13 (alicinaroglu.dev, "Share Extension
    /// memory limits: the numbers Apple won't print": 110 MB on an iPhone SE 2, 120 MB on an
    /// iPhone 13, 180 MB on 8 GB iPhones).
    case share
    /// A notification service extension: 24 MB (Igor Kulman, "Dealing with memory limits in iOS
    /// app extensions", blog.kulman.sk: the extension crashed "exceeding the 24 MB memory limit").
    case notificationService
    /// The Network Extension providers, whose limits Apple DTS publishes per iOS version
    /// (``DeviceSources/networkExtensionLimits``, in MiB): a packet tunnel provider 15 before
    /// iOS 15, 50 from it.
    case packetTunnel
    /// An app proxy provider: 15 MiB in every published table.
    case appProxy
    /// A content filter's control provider: 6 MiB before iOS 15, 12 on iOS 15, 50 from iOS 16.
    case filterControl
    /// A content filter's data provider: 6 MiB before iOS 16, 50 from it.
    case filterData
    /// A DNS proxy provider: 15 MiB (the iOS 15 and 16 tables; none older).
    case dnsProxy
    /// An app push provider: 24 MiB (the iOS 15 and 16 tables; none older).
    case appPush

    /// The published per-process limit, on the latest iOS a source covers.
    public var memoryLimit: Bytes { memoryLimit(iosMajor: .max) }

    /// The published per-process limit on an iOS major version. Only the Network Extension
    /// providers have limits per version (Apple DTS's tables for iOS 10, 15.0 and 16.0, the last
    /// "unchanged on iOS 26"); a version before the oldest table gets the oldest.
    public func memoryLimit(iosMajor major: Int) -> Bytes {
        let mib: Int64 = 1 << 20
        switch self {
        case .widget: return 30 * .megabyte
        case .keyboard: return 60 * .megabyte
        case .share: return 120 * .megabyte
        case .notificationService: return 24 * .megabyte
        case .packetTunnel: return (major < 15 ? 15 : 50) * mib
        case .appProxy, .dnsProxy: return 15 * mib
        case .filterControl: return (major < 15 ? 6 : major == 15 ? 12 : 50) * mib
        case .filterData: return (major < 16 ? 6 : 50) * mib
        case .appPush: return 24 * mib
        }
    }
}
