import MemprofCore

/// The jetsam bands of one xnu era (bsd/sys/kern_memorystatus.h), for reading a report's
/// `priority` numbers and for writing them when a report.json carries none.
public struct JetsamBands: Sendable, Equatable {
    public var idle: Int
    public var aging: Int
    public var background: Int
    public var frozen: Int
    public var foreground: Int
    public var audio: Int
    /// `JETSAM_PRIORITY_HOME`, SpringBoard's band.
    public var home: Int = 16
    /// `JETSAM_PRIORITY_MAX`, the top band.
    public var top: Int = 21

    /// xnu-8792 (iOS 16) and later: `JETSAM_PRIORITY_IDLE` 0, `_AGING_BAND2` 20, `_BACKGROUND` 30,
    /// `_FREEZER` 75, `_FOREGROUND` 100, `_AUDIO_AND_ACCESSORY` 120.
    /// `JETSAM_PRIORITY_HOME` 160 and `_MAX` 210 (xnu-8792.41.9 bsd/sys/kern_memorystatus.h lines 64, 69).
    public static let modern = JetsamBands(idle: 0, aging: 20, background: 30, frozen: 75, foreground: 100, audio: 120,
                                           home: 160, top: 210)
    /// Before xnu-8792 (iOS 15 and earlier), the 0–21 scale: aging 2, background 3, frozen at
    /// `JETSAM_PRIORITY_UI_SUPPORT` 8, foreground 10, audio 12.
    /// `JETSAM_PRIORITY_HOME` 16 and `_MAX` 21 (xnu-7195.101.1 bsd/sys/kern_memorystatus.h lines 57, 62).
    public static let legacy = JetsamBands(idle: 0, aging: 2, background: 3, frozen: 8, foreground: 10, audio: 12,
                                           home: 16, top: 21)

    /// The bands of an iOS major version, from its kernel's era (`XNUSettings.era(iosMajor:)` in MemprofCore):
    /// ``modern`` from iOS 16, ``legacy`` for iOS 13 to 15; before iOS 13 there is no aging band
    /// (apps age in the idle band, if at all), and before iOS 12 no frozen band: a frozen app keeps
    /// the idle band it was frozen in (xnu-2782.1.97 bsd/kern/kern_memorystatus.c:2784 only sets
    /// `P_MEMSTAT_FROZEN`; xnu-4903.221.2 c:1875 brings `memorystatus_freeze_jetsam_band`).
    public static func of(iosMajor: Int) -> JetsamBands { JetsamBands(XNUSettings.era(iosMajor: iosMajor)) }

    /// Whether frozen apps have a band of their own, apart from the idle band's queue.
    public var hasFrozenBand: Bool { frozen != idle }

    public init(idle: Int, aging: Int, background: Int, frozen: Int, foreground: Int, audio: Int,
                home: Int? = nil, top: Int? = nil) {
        self.home = home ?? (foreground > 21 ? 160 : 16)
        self.top = top ?? (foreground > 21 ? 210 : 21)
        self.idle = idle
        self.aging = aging
        self.background = background
        self.frozen = frozen
        self.foreground = foreground
        self.audio = audio
    }

    public init(_ x: XNUSettings) {
        self.init(idle: x.idleBand, aging: x.agingBand ?? x.idleBand, background: x.backgroundBand, frozen: x.frozenBand ?? x.idleBand,
                  foreground: x.foregroundBand, audio: x.audioBand)
    }

    /// The band an app in `states` (iOS's words) sits in.
    public func priority(states: [String]) -> Int {
        if states.contains("audio") { return audio }
        if states.contains("frontmost") { return foreground }
        if states.contains("frozen") { return frozen }
        if states.contains("active") || states.contains("background") || states.contains("continuous") { return background }
        return idle
    }
}

/// memprof's lifecycle states in the words iOS writes in a jetsam report's `states`
/// (`inactive` and `background` never appear in real reports).
public enum JetsamVocabulary {
    /// The states of a report.json process (memprof's own words, as older reports have them, or iOS's, which
    /// pass through unchanged) in iOS's words.
    /// Before iOS 14 (`resume` true), `resume` joins `frontmost` (`ios10.1.1-…`, `ios11.3.1-…`,
    /// `ios12.4-…` of the corpus write `["frontmost", "resume"]`; `ios14.2-…` writes
    /// `["frontmost"]`), and an app running in the background is `background` (`ios10.1.1-…`:
    /// MobileSafari; `ios12.4-…`: com.apple.CloudDocs.MobileDocume), not `active`.
    public static func iosWords(_ states: [String], resume: Bool = true) -> [String] {
        var out: [String] = []
        func add(_ w: String) { if !out.contains(w) { out.append(w) } }
        for s in states {
            switch s {
            case "inactive": add("frontmost")
            case "active" where states.contains("frontmost"): add("frontmost")
            case "background": add("active")
            case "compressed": add("suspended"); add("frozen")
            default: add(s)
            }
        }
        if resume && out.contains("frontmost") && !out.contains("resume") { out.append("resume") }
        if !resume { out.removeAll { $0 == "resume" } }
        if resume, !out.contains("frontmost"), let i = out.firstIndex(of: "active") {
            out[i] = "background"
            if out.filter({ $0 == "background" }).count > 1 { out.remove(at: out.lastIndex(of: "background")!) }
        }
        // "frontmost" first, as iOS lists it.
        return out.sorted { rank($0) < rank($1) }
    }

    private static func rank(_ w: String) -> Int {
        switch w {
        case "frontmost": 0
        case "resume": 1
        case "active", "background": 2
        case "audio": 3
        case "suspended": 4
        case "frozen": 5
        default: 6
        }
    }
}
