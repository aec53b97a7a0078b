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

/// The numbers of the `xnu` policy (spec §5), each from XNU's source
/// (apple-oss-distributions/xnu; file and symbol named on each).
public struct XNUSettings: Sendable, Hashable, Codable {
    /// `JETSAM_PRIORITY_IDLE` (0), bsd/sys/kern_memorystatus.h: suspended apps once aged.
    public var idleBand: Int
    /// `JETSAM_PRIORITY_AGING_BAND2` (= `JETSAM_PRIORITY_BACKGROUND_OPPORTUNISTIC`, 20),
    /// bsd/sys/kern_memorystatus.h: where an app that has just become idle ages.
    public var agingBand: Int
    /// `JETSAM_PRIORITY_BACKGROUND` (30), bsd/sys/kern_memorystatus.h: apps running background work.
    public var backgroundBand: Int
    /// `JETSAM_PRIORITY_FREEZER` (75), bsd/sys/kern_memorystatus.h, the value of
    /// `memorystatus_freeze_jetsam_band` (bsd/kern/kern_memorystatus.c): frozen apps.
    public var frozenBand: Int
    /// `JETSAM_PRIORITY_FOREGROUND` (100), bsd/sys/kern_memorystatus.h: the foreground app.
    public var foregroundBand: Int
    /// `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY` (120), bsd/sys/kern_memorystatus.h: apps playing audio.
    public var audioBand: Int
    /// How long an app stays in the aging band: `memorystatus_apps_idle_time()` =
    /// `DEFERRED_IDLE_EXIT_TIME_SECS` (10 s, bsd/sys/kern_memorystatus.h) ÷
    /// `kJetsamAppsIdleDelayTimeRatio` (= `kJetsamSysProcsIdleDelayTimeLowRatio`, 5,
    /// bsd/kern/kern_memorystatus.c) = 2 s.
    public var agingUs: Microseconds
    /// The highest band the freezer takes apps from: `FREEZE_MAX_CANDIDATE_BAND`
    /// (= `JETSAM_PRIORITY_AGING_BAND2`, 20), bsd/sys/kern_memorystatus_freeze.h, the value of
    /// `memorystatus_freeze_max_candidate_band`.
    public var freezeMaxCandidateBand: Int
    /// The smallest footprint the freezer takes: `memorystatus_freeze_pages_min` =
    /// `FREEZE_PAGES_MIN_DEFAULT` (8 MB ÷ `PAGE_SIZE`), bsd/sys/kern_memorystatus_freeze.h.
    public var freezeMinFootprint: Bytes
    /// The freezer runs only while available memory is under this fraction of RAM:
    /// `freeze_threshold_percentage` (50), bsd/kern/kern_memorystatus_freeze.c, turned into
    /// `memorystatus_freeze_threshold` and tested as `memorystatus_available_pages <
    /// memorystatus_freeze_threshold`.
    public var freezeThreshold: Double
    /// The freezer runs only while more than this many suspended apps are not frozen:
    /// `memorystatus_freeze_suspended_threshold` = `FREEZE_SUSPENDED_THRESHOLD_DEFAULT` (4),
    /// bsd/sys/kern_memorystatus_freeze.h, tested as `(memorystatus_suspended_count −
    /// memorystatus_frozen_count) > memorystatus_freeze_suspended_threshold`.
    public var freezeSuspendedThreshold: Int
    /// At most this many apps are frozen at once: `memorystatus_frozen_processes_max` =
    /// `FREEZE_PROCESSES_MAX_DEFAULT` (20), bsd/sys/kern_memorystatus_freeze.h, tested as
    /// `memorystatus_frozen_count >= memorystatus_frozen_processes_max` (bsd/kern/kern_memorystatus_freeze.c).
    public var frozenProcessesMax: Int
    /// The highwater pass (spec §5) runs while available memory is at or under this fraction of
    /// RAM (`memorystatus_avail_pages_below_pressure`: `memorystatus_available_pages <=
    /// memorystatus_available_pages_pressure`, xnu-8792.41.9 bsd/kern/kern_memorystatus.c:3532-3539).
    /// Up to xnu-8792 that is `pressure_threshold_percentage` (15) of the pages
    /// (xnu-8792.41.9 bsd/kern/kern_memorystatus.c:233 and :6602; xnu-2782.1.97 :112 and :3713);
    /// from xnu-10002 15% up to 6 GB of RAM and 12% above (the table at xnu-10002.1.13
    /// bsd/kern/kern_memorystatus.c:236-241). Nil in reports of memprof versions before processes:
    /// read as 15%.
    public var pressureThresholdFraction: Double?

    /// ``pressureThresholdFraction``, 15% when not given.
    public var pressureThreshold: Double { pressureThresholdFraction ?? 0.15 }

    public init(idleBand: Int, agingBand: Int, backgroundBand: Int, frozenBand: Int, foregroundBand: Int,
                audioBand: Int, agingUs: Microseconds, freezeMaxCandidateBand: Int, freezeMinFootprint: Bytes,
                freezeThreshold: Double, freezeSuspendedThreshold: Int, frozenProcessesMax: Int) {
        self.idleBand = idleBand
        self.agingBand = agingBand
        self.backgroundBand = backgroundBand
        self.frozenBand = frozenBand
        self.foregroundBand = foregroundBand
        self.audioBand = audioBand
        self.agingUs = agingUs
        self.freezeMaxCandidateBand = freezeMaxCandidateBand
        self.freezeMinFootprint = freezeMinFootprint
        self.freezeThreshold = freezeThreshold
        self.freezeSuspendedThreshold = freezeSuspendedThreshold
        self.frozenProcessesMax = frozenProcessesMax
    }

    /// The band an app in `state` sits in, by this era's numbers (for jetsam reports under a
    /// policy without bands).
    public func band(_ state: AppState, playingAudio: Bool) -> Int? {
        switch state {
        case .notRunning: nil
        case .inactive, .active: foregroundBand
        case .background: playingAudio ? audioBand : backgroundBand
        case .compressed: frozenBand
        case .suspended: idleBand
        }
    }

    /// The numbers of the kernel a device's iOS version runs: xnu-8792 (iOS 16)
    /// and later use ``kernel``; earlier kernels the 0–21 scale of ``legacy``, and before
    /// xnu-4903 (iOS 12) a 1 MB freezer minimum. A device without a version, or a Mac, gets ``kernel``.
    public static func forDevice(_ device: Device) -> XNUSettings {
        guard device.platform == .ios, let major = device.osMajor else { return .kernel }
        var x = major >= 16 ? kernel : legacy
        if major < 12 { x.freezeMinFootprint = 1 * .megabyte }
        return x
    }

    /// Before xnu-8792 (iOS 15 and earlier), bsd/sys/kern_memorystatus.h: `JETSAM_PRIORITY_IDLE` 0,
    /// `JETSAM_PRIORITY_AGING_BAND2` (= `_BACKGROUND_OPPORTUNISTIC`) 2, `JETSAM_PRIORITY_BACKGROUND` 3,
    /// frozen apps at `JETSAM_PRIORITY_UI_SUPPORT` 8, `JETSAM_PRIORITY_FOREGROUND` 10,
    /// `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY` 12 (`JETSAM_PRIORITY_MAX` 21); the freezer's
    /// candidates up to the aging band; the other numbers as ``kernel``.
    public static let legacy = XNUSettings(
        idleBand: 0, agingBand: 2, backgroundBand: 3, frozenBand: 8, foregroundBand: 10, audioBand: 12,
        agingUs: 2 * .second, freezeMaxCandidateBand: 2, freezeMinFootprint: 8 * .megabyte,
        freezeThreshold: 0.5, freezeSuspendedThreshold: 4, frozenProcessesMax: 20)

    /// The values XNU ships with on iOS 16 and later (see each property for the file and symbol).
    public static let kernel = XNUSettings(
        idleBand: 0, agingBand: 20, backgroundBand: 30, frozenBand: 75, foregroundBand: 100, audioBand: 120,
        agingUs: 2 * .second, freezeMaxCandidateBand: 20, freezeMinFootprint: 8 * .megabyte,
        freezeThreshold: 0.5, freezeSuspendedThreshold: 4, frozenProcessesMax: 20)
}
