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

    public init(name: String, compressionThreshold: Bytes, evictionOrder: EvictionOrder,
                warningLevel: Double, criticalLevel: Double, enterBackgroundLimitUs: Microseconds,
                backgroundTaskLimitUs: Microseconds, fetchWindowUs: Microseconds,
                pushWindowUs: Microseconds, voipMinKeepaliveUs: Microseconds) {
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
    }

    /// The reference text's rule (spec §5), the default.
    public static let seed2015 = PolicySettings(
        name: "seed-2015", compressionThreshold: 16 * .megabyte, evictionOrder: .lru,
        warningLevel: 0.80, criticalLevel: 0.95, enterBackgroundLimitUs: 5 * .second,
        backgroundTaskLimitUs: 10 * .minute, fetchWindowUs: 30 * .second, pushWindowUs: 30 * .second,
        voipMinKeepaliveUs: 10 * .minute)

    public static let presets: [PolicySettings] = [.seed2015]

    public static func preset(named name: String) -> PolicySettings? {
        presets.first { $0.name == name }
    }
}
