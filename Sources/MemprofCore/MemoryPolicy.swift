/// What a policy sees of an app when it decides (spec §5).
public struct PolicyCandidate: Sendable, Hashable {
    public var index: Int
    public var state: AppState
    public var footprint: Bytes
    /// When the app was last in the foreground (its leaving time), for least-recently-used order.
    public var lastForegroundUs: Microseconds
    public var isPlayingAudio: Bool
    /// When the app entered its current state.
    public var stateSinceUs: Microseconds = 0
    /// For a compressed app, when it was suspended, before the freezer took it (its place in the
    /// band it keeps where frozen apps have no band of their own).
    public var suspendedSinceUs: Microseconds = 0
    /// Its jetsam band, for policies that have bands (`xnu`); filled in by the engine.
    public var band: Int? = nil
    /// When it entered that band, for least-recently-entered order within a band.
    public var bandSinceUs: Microseconds = 0
    /// Set for a process that is not an app (its index in `Workload.processes`); `index` is then
    /// past the apps. Only policies with bands see processes.
    public var process: Int? = nil
    /// `P_MEMSTAT_FROZEN` under `xnu`: a compressed app, or one frozen before and thawed in an era
    /// that keeps the mark; and `P_MEMSTAT_REFREEZE_ELIGIBLE`: thawed since it was frozen.
    public var frozen = false
    public var refreezeEligible = false
    /// When a frozen app was demoted to the idle band, losing the frozen band's protection; nil
    /// while it keeps it.
    public var demotedAtUs: Microseconds? = nil
    /// What freezing it takes of the freezer's store, in the store's unit (``MemoryView``); nil
    /// for its footprint.
    public var storeBytes: Bytes? = nil

    public init(index: Int, state: AppState, footprint: Bytes, lastForegroundUs: Microseconds,
                isPlayingAudio: Bool, stateSinceUs: Microseconds = 0, band: Int? = nil, bandSinceUs: Microseconds = 0) {
        self.index = index
        self.state = state
        self.footprint = footprint
        self.lastForegroundUs = lastForegroundUs
        self.isPlayingAudio = isPlayingAudio
        self.stateSinceUs = stateSinceUs
        self.band = band
        self.bandSinceUs = bandSinceUs
    }
}

/// The engine's memory at the moment a policy's freezer looks (spec §4, §5 `xnu`).
public struct MemoryView: Sendable, Hashable {
    public var ram: Bytes
    /// `appMemory − used`: what apps could still take.
    public var availableBytes: Bytes
    /// What the freezer's store holds and may hold: where xnu caps its swap
    /// (``XNUSettings/freezerSwapBytes``) the frozen apps' compressed bytes against that cap,
    /// otherwise their footprints against the device's `flash`.
    public var compressedUsed: Bytes
    public var flash: Bytes

    public init(ram: Bytes, availableBytes: Bytes, compressedUsed: Bytes, flash: Bytes) {
        self.ram = ram
        self.availableBytes = availableBytes
        self.compressedUsed = compressedUsed
        self.flash = flash
    }
}

/// Decides compression and the order of reclaiming (spec §5). One type per policy.
public protocol MemoryPolicy: Sendable {
    var settings: PolicySettings { get }

    /// Whether an app that has just been suspended with `footprint` goes to flash.
    func shouldCompress(footprint: Bytes, compressedUsed: Bytes, flash: Bytes) -> Bool

    /// The apps to evict or kill, in order, when a demand does not fit. The demanding app and
    /// apps that may never be taken (compressed ones) are already left out of `candidates`.
    func reclaimOrder(_ candidates: [PolicyCandidate]) -> [PolicyCandidate]

    /// Whether compressed apps are candidates for reclaiming (`xnu`'s frozen band); never for `seed-2015`.
    var reclaimsCompressed: Bool { get }

    /// Whether the policy has a freezer the engine must run (see `freeze(_:memory:)`).
    var hasFreezer: Bool { get }

    /// Whether `band(of:nowUs:)` gives bands (`xnu`); the engine asks it only then.
    var hasBands: Bool { get }

    /// The app's jetsam band at `nowUs` and when it entered it; nil for policies without bands.
    func band(of app: PolicyCandidate, nowUs: Microseconds) -> (band: Int, sinceUs: Microseconds)?

    /// Whether the freezer runs at all (it may still find no app to take), from every running app.
    func freezerRuns(_ apps: [PolicyCandidate], memory: MemoryView) -> Bool

    /// The one app the freezer compresses next, from every running app (with bands filled in),
    /// or nil when none qualifies. The engine asks only while ``freezerRuns(_:memory:)`` holds,
    /// and again after each freeze.
    func nextToFreeze(_ apps: [PolicyCandidate], memory: MemoryView) -> PolicyCandidate?

    /// Why the demanding app is killed when reclaiming did not free enough: `memoryLimit` under
    /// `seed-2015` (spec §4, step 4), `memoryPressure` (page shortage) under `xnu` (spec §5; xnu's
    /// doc/memorystatus_kills.md: per-process-limit is for passing the app limit only).
    var shortfallReason: ExitReason { get }
}

extension MemoryPolicy {
    public var shortfallReason: ExitReason { .memoryLimit }
    public var reclaimsCompressed: Bool { false }
    public var hasFreezer: Bool { false }
    public var hasBands: Bool { false }
    public func band(of app: PolicyCandidate, nowUs: Microseconds) -> (band: Int, sinceUs: Microseconds)? { nil }
    public func nextToFreeze(_ apps: [PolicyCandidate], memory: MemoryView) -> PolicyCandidate? { nil }
    public func freezerRuns(_ apps: [PolicyCandidate], memory: MemoryView) -> Bool { false }
}

/// The reference text's rule (spec §5 `seed-2015`).
public struct Seed2015Policy: MemoryPolicy {
    public let settings: PolicySettings

    public init(settings: PolicySettings = .seed2015) {
        self.settings = settings
    }

    /// Strictly under the threshold, and only if the compressed store has room.
    public func shouldCompress(footprint: Bytes, compressedUsed: Bytes, flash: Bytes) -> Bool {
        footprint < settings.compressionThreshold && compressedUsed + footprint <= flash
    }

    /// Suspended apps first, then background apps with audio last; within each group least
    /// recently in the foreground first, or largest first (ties by recency) with `largest`.
    public func reclaimOrder(_ candidates: [PolicyCandidate]) -> [PolicyCandidate] {
        // Sorted as small keys (group, size or 0, recency, index; footprints negated so the
        // largest come first), then gathered: a reclaim among many apps sorts every time.
        let largest = settings.evictionOrder == .largest
        var keys: [(group: Int, size: Bytes, recency: Microseconds, index: Int, at: Int)] = []
        keys.reserveCapacity(candidates.count)
        for (at, c) in candidates.enumerated() {
            let group: Int
            switch c.state {
            case .suspended: group = 0
            case .background: group = c.isPlayingAudio ? 2 : 1
            default: continue
            }
            keys.append((group, largest ? -c.footprint : 0, c.lastForegroundUs, c.index, at))
        }
        keys.sort { ($0.group, $0.size, $0.recency, $0.index) < ($1.group, $1.size, $1.recency, $1.index) }
        return keys.map { candidates[$0.at] }
    }
}

public enum PolicyFactory {
    /// The policy implementation for resolved settings.
    public static func makePolicy(_ settings: PolicySettings) -> any MemoryPolicy {
        if let xnu = settings.xnu { return XNUPolicy(settings: settings, xnu: xnu) }
        return Seed2015Policy(settings: settings)
    }
}

/// The kernel's own rules (spec §5 `xnu`): jetsam priority bands, two-second aging, the freezer.
/// Every number comes from `XNUSettings`, which names the XNU file and symbol it is taken from.
///
/// Bands (the numbers of xnu-8792; every era's in XNUSettings+Eras.swift): the foreground app
/// `JETSAM_PRIORITY_FOREGROUND` (100); a `background` app running work `JETSAM_PRIORITY_BACKGROUND`
/// (30), or `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY` (120) while it plays audio; a suspended app
/// `JETSAM_PRIORITY_AGING_BAND2` (20) for `memorystatus_apps_idle_time()` (2 s) after it became
/// idle, then `JETSAM_PRIORITY_IDLE` (0) (eras without an aging band for apps: the idle band at
/// once); a frozen (compressed) app `JETSAM_PRIORITY_FREEZER` (75), or before xnu-4903 the band it
/// was frozen in.
public struct XNUPolicy: MemoryPolicy {
    public let settings: PolicySettings
    public let xnu: XNUSettings

    public init(settings: PolicySettings = .xnu, xnu: XNUSettings = .kernel) {
        self.settings = settings
        self.xnu = xnu
    }

    /// A demand nothing below it can meet is a page shortage: the kernel kills the demanding app
    /// for vm-pageshortage (spec §5).
    public var shortfallReason: ExitReason { .memoryPressure }

    /// Nothing is compressed on suspension: only the freezer compresses.
    public func shouldCompress(footprint: Bytes, compressedUsed: Bytes, flash: Bytes) -> Bool { false }

    /// Jetsam kills from the lowest band up (`memorystatus_kill_top_process` walks the bands from
    /// `JETSAM_PRIORITY_IDLE`), and within a band the app that entered it first (bands are FIFO
    /// queues). Frozen apps can be taken; the foreground band is not (the engine never offers it).
    public var reclaimsCompressed: Bool { true }

    public var hasFreezer: Bool { true }
    public var hasBands: Bool { true }

    public func band(of app: PolicyCandidate, nowUs: Microseconds) -> (band: Int, sinceUs: Microseconds)? {
        guard let band = xnu.band(app.state, playingAudio: app.isPlayingAudio) else { return nil }
        // A frozen app that runs again keeps `P_MEMSTAT_FROZEN` and its elevation: any priority
        // at or under the frozen band is lifted to it (`memorystatus_update_priority_locked`,
        // xnu-11215.81.4 bsd/kern/kern_memorystatus.c:2588-2594), so suspended again, or running in
        // the background, it sits in the frozen band from when it entered that state.
        if app.frozen, app.demotedAtUs == nil, app.state != .compressed, let frozenBand = xnu.frozenBand, band <= frozenBand {
            return (frozenBand, app.stateSinceUs)
        }
        // Demoted while suspended: the idle band from then, with no aging (`MEMSTAT_PRIORITY_NO_AGING`,
        // xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:2331).
        if app.state == .suspended, let demoted = app.demotedAtUs, app.stateSinceUs <= demoted { return (xnu.idleBand, demoted) }
        // Without a frozen band (before xnu-4903) a frozen app keeps the band it was frozen in,
        // and its place in that band's queue: the freezer only sets its state
        // (xnu-2782.1.97 bsd/kern/kern_memorystatus.c:2784) and moves no process, which changes
        // queue only when its priority does (:1062-1069, to the tail of the new band). So it is
        // where it was as a suspended app: the idle band once aged, from when it was suspended.
        let keepsBand = app.state == .compressed && xnu.frozenBand == nil
        let since = keepsBand ? app.suspendedSinceUs : app.stateSinceUs
        guard app.state == .suspended || keepsBand, xnu.appsAge, let agingBand = xnu.agingBand else { return (band, since) }
        // A suspended app sits in the aging band first and reaches the idle band `agingUs` later.
        let agedAt = since + xnu.agingUs
        return nowUs < agedAt ? (agingBand, since) : (band, agedAt)
    }

    public func reclaimOrder(_ candidates: [PolicyCandidate]) -> [PolicyCandidate] {
        // Up the bands, in order: nothing at or above the foreground band is taken for another
        // app's demand, so when the bands below do not free enough the foreground app itself goes
        // (band 100) before any audio app (band 120) above it.
        candidates.filter { $0.band != nil && $0.band! < xnu.foregroundBand }
            .sorted { a, b in
                if a.band! != b.band! { return a.band! < b.band! }
                if a.bandSinceUs != b.bandSinceUs { return a.bandSinceUs < b.bandSinceUs }
                return a.index < b.index
            }
    }

    /// The freezer runs only while available memory is under `freezeThreshold` × RAM and more than
    /// `freezeSuspendedThreshold` suspended apps are not frozen, with fewer than
    /// `frozenProcessesMax` frozen (no limit before xnu-4903), as xnu's freezer thread runs and
    /// checks its budget (`memorystatus_freeze_thread`, xnu-6153.11.26
    /// bsd/kern/kern_memorystatus_freeze.c:2018-2023) even when it then finds no app to take.
    ///
    /// Frozen counts every app with `P_MEMSTAT_FROZEN`, thawed ones too (`memorystatus_frozen_count`
    /// is not lowered on resume, xnu-11215.81.4 bsd/kern/kern_memorystatus.c:3500-3540), and
    /// unfrozen suspended apps are the suspended and frozen-suspended less those
    /// (`memorystatus_suspended_count - memorystatus_frozen_count`, kern_memorystatus_freeze.c:2247):
    /// both are `unsigned int` (kern_memorystatus.c:452, kern_memorystatus_freeze.c:103), so with
    /// more frozen than suspended (thawed apps running) the difference wraps and passes the test.
    /// With the slots full it still runs when ``refreezeThreshold`` thawed apps may be refrozen
    /// (:2939-2941).
    public func freezerRuns(_ apps: [PolicyCandidate], memory: MemoryView) -> Bool {
        guard Double(memory.availableBytes) < xnu.freezeThreshold * Double(memory.ram) else { return false }
        let frozen = apps.count { $0.frozen || $0.state == .compressed }
        let suspended = apps.count { $0.state == .suspended || $0.state == .compressed }
        let unfrozenSuspended = suspended >= frozen ? suspended - frozen : .max
        let slots = frozen < xnu.frozenProcessesMax ?? .max || apps.count(where: \.refreezeEligible) >= Self.refreezeThreshold
        return slots && unfrozenSuspended > xnu.freezeSuspendedThreshold
    }

    /// `MIN_THAW_REFREEZE_THRESHOLD` (3, every era with a frozen band: xnu-4903.221.2
    /// bsd/sys/kern_memorystatus.h:511, xnu-11215.1.10 bsd/sys/kern_memorystatus_freeze.h:99): the
    /// thawed apps there must be before the freezer writes any of them again.
    public static let refreezeThreshold = 3

    /// The freezer's choice once it runs (bsd/kern/kern_memorystatus_freeze.c): suspended apps of
    /// bands up to `freezeMaxCandidateBand` (any band before xnu-4903), from the lowest band up,
    /// first entered first, skipping those under `freezeMinFootprint`
    /// (`kMemorystatusFreezeSkipReasonBelowMinPages`) and those that do not fit in the flash store
    /// (`kMemorystatusFreezeSkipReasonNoCompressorSpace`).
    ///
    /// With the slots full, or no new candidate, and ``refreezeThreshold`` thawed apps, it refreezes
    /// one: a thawed app in the frozen band, first entered first
    /// (`memorystatus_freeze_pick_process` and `memorystatus_freeze_pick_refreeze_process`,
    /// xnu-11215.1.10 bsd/kern/kern_memorystatus_policy.c:552-600 and :604-680). xnu refreezes one
    /// running in the background too; memprof only suspended ones (a running app has no pages to
    /// leave: memprof has no working set).
    public func nextToFreeze(_ apps: [PolicyCandidate], memory: MemoryView) -> PolicyCandidate? {
        let fits = { (c: PolicyCandidate) in memory.compressedUsed + (c.storeBytes ?? c.footprint) <= memory.flash }
        let firstEntered = { (a: PolicyCandidate, b: PolicyCandidate) -> Bool in
            if a.band! != b.band! { return a.band! < b.band! }
            if a.bandSinceUs != b.bandSinceUs { return a.bandSinceUs < b.bandSinceUs }
            return a.index < b.index
        }
        let frozen = apps.count { $0.frozen || $0.state == .compressed }
        if frozen < xnu.frozenProcessesMax ?? .max, let c = apps.filter({
            $0.state == .suspended && !$0.frozen && ($0.band ?? .max) <= xnu.freezeMaxCandidateBand ?? .max
                && $0.footprint >= xnu.freezeMinFootprint && fits($0)
        }).min(by: firstEntered) {
            return c
        }
        guard apps.count(where: \.refreezeEligible) >= Self.refreezeThreshold else { return nil }
        return apps.filter { $0.state == .suspended && $0.refreezeEligible && $0.band == xnu.frozenBand && fits($0) }
            .min(by: firstEntered)
    }
}
