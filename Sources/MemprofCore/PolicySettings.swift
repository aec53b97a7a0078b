/// Which suspended or background app goes first when memory is reclaimed.
public enum EvictionOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// Least recently in the foreground first.
    case lru
    /// Largest footprint first, ties by recency.
    case largest
}

/// The numbers a memory policy works with (spec §2, §4, §5), fully resolved.
public struct PolicySettings: Sendable, Hashable, Codable {
    public var name: String
    /// Suspended apps strictly under this footprint are compressed to flash.
    public var compressionThreshold: Bytes
    public var evictionOrder: EvictionOrder
    /// Fraction of app memory where the level becomes `warning`.
    public var warningLevel: Double
    /// Fraction of app memory where the level becomes `critical`.
    public var criticalLevel: Double
    /// Longest an enter-background handler may run before the watchdog kills the app.
    public var enterBackgroundLimitUs: Microseconds
    /// How long a background task may keep an app running after it leaves the foreground.
    public var backgroundTaskLimitUs: Microseconds
    /// Longest a background fetch handler may run.
    public var fetchWindowUs: Microseconds
    /// Longest a remote-notification handler may run.
    public var pushWindowUs: Microseconds
    /// Shortest VoIP keep-alive interval the system allows.
    public var voipMinKeepaliveUs: Microseconds
    /// The kernel's jetsam bands and freezer (spec §5 `xnu`); nil for `seed-2015`, which then
    /// decides with `compressionThreshold` and `evictionOrder` instead. Left out of the JSON when nil.
    public var xnu: XNUSettings?

    public init(name: String, compressionThreshold: Bytes, evictionOrder: EvictionOrder,
                warningLevel: Double, criticalLevel: Double, enterBackgroundLimitUs: Microseconds,
                backgroundTaskLimitUs: Microseconds, fetchWindowUs: Microseconds,
                pushWindowUs: Microseconds, voipMinKeepaliveUs: Microseconds, xnu: XNUSettings? = nil) {
        self.name = name
        self.compressionThreshold = compressionThreshold
        self.evictionOrder = evictionOrder
        self.warningLevel = warningLevel
        self.criticalLevel = criticalLevel
        self.enterBackgroundLimitUs = enterBackgroundLimitUs
        self.backgroundTaskLimitUs = backgroundTaskLimitUs
        self.fetchWindowUs = fetchWindowUs
        self.pushWindowUs = pushWindowUs
        self.voipMinKeepaliveUs = voipMinKeepaliveUs
        self.xnu = xnu
    }

    /// The reference text's rule (spec §5), the default.
    public static let seed2015 = PolicySettings(
        name: "seed-2015", compressionThreshold: 16 * .megabyte, evictionOrder: .lru,
        warningLevel: 0.80, criticalLevel: 0.95, enterBackgroundLimitUs: 5 * .second,
        backgroundTaskLimitUs: 10 * .minute, fetchWindowUs: 30 * .second, pushWindowUs: 30 * .second,
        voipMinKeepaliveUs: 10 * .minute)

    /// The kernel's own rules (spec §5 `xnu`): jetsam bands and the freezer, with the same
    /// pressure levels and background limits as `seed-2015`. `compressionThreshold` and
    /// `evictionOrder` are kept for the report but not used: the freezer decides compression.
    public static let xnu = PolicySettings(
        name: "xnu", compressionThreshold: 16 * .megabyte, evictionOrder: .lru,
        warningLevel: 0.80, criticalLevel: 0.95, enterBackgroundLimitUs: 5 * .second,
        backgroundTaskLimitUs: 10 * .minute, fetchWindowUs: 30 * .second, pushWindowUs: 30 * .second,
        voipMinKeepaliveUs: 10 * .minute, xnu: .kernel)

    public static let presets: [PolicySettings] = [.seed2015, .xnu]

    public static func preset(named name: String) -> PolicySettings? {
        presets.first { $0.name == name }
    }
}
