/// The numbers of the `xnu` policy (spec §5), each read from XNU's source at the tag of the kernel
/// era it belongs to (apple-oss-distributions/xnu; XNUSettings+Eras.swift cites tag, file and
/// line for every value of every era). Values an era does not have are nil and left out of the JSON.
public struct XNUSettings: Sendable, Hashable, Codable {
    /// The xnu tag the numbers were read from (`xnu-8792.41.9`); nil in reports of memprof
    /// versions that did not name it.
    public var xnuTag: String?
    /// `JETSAM_PRIORITY_IDLE` (0): suspended apps once aged.
    public var idleBand: Int
    /// Where an app that has just become idle ages (`applications_aging_band`); nil when apps
    /// have no aging band (they go to the idle band at once). Equal to ``idleBand`` under xnu's
    /// legacy aging policy, where the aging is inert: `isProcessInAgingBands` tests
    /// `applications_aging_band &&`, so an app in band 0 is never aging.
    public var agingBand: Int?
    /// `JETSAM_PRIORITY_BACKGROUND`: apps running background work.
    public var backgroundBand: Int
    /// `memorystatus_freeze_jetsam_band`: where frozen apps go; nil before it existed (a frozen
    /// app keeps its band).
    public var frozenBand: Int?
    /// `JETSAM_PRIORITY_FOREGROUND`: the foreground app.
    public var foregroundBand: Int
    /// `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY`: apps playing audio.
    public var audioBand: Int
    /// How long an app stays in the aging band (`memorystatus_apps_idle_time()`); 0 without one.
    public var agingUs: Microseconds
    /// The highest band the freezer takes apps from; nil when it walks every band.
    public var freezeMaxCandidateBand: Int?
    /// The smallest footprint the freezer takes (`memorystatus_freeze_pages_min`, `FREEZE_PAGES_MIN`).
    public var freezeMinFootprint: Bytes
    /// The freezer runs only while available memory is under this fraction of RAM
    /// (`freeze_threshold_percentage`, tested as `memorystatus_available_pages <
    /// memorystatus_freeze_threshold`).
    public var freezeThreshold: Double
    /// The freezer runs only while more than this many suspended apps are not frozen
    /// (`memorystatus_freeze_suspended_threshold` = `FREEZE_SUSPENDED_THRESHOLD_DEFAULT`).
    public var freezeSuspendedThreshold: Int
    /// At most this many apps are frozen at once (`memorystatus_frozen_processes_max` =
    /// `FREEZE_PROCESSES_MAX`); nil before the limit existed.
    public var frozenProcessesMax: Int?
    /// The highwater pass (spec §5) runs while available memory is at or under this fraction of
    /// RAM (`memorystatus_avail_pages_below_pressure`: `memorystatus_available_pages <=
    /// memorystatus_available_pages_pressure`, xnu-8792.41.9 bsd/kern/kern_memorystatus.c:3532-3539).
    /// Up to xnu-8792 that is `pressure_threshold_percentage` (15) of the pages
    /// (xnu-8792.41.9 bsd/kern/kern_memorystatus.c:233 and :6602; xnu-2782.1.97 :112 and :3713);
    /// from xnu-10002 15% up to 6 GB of RAM and 12% above (the table at xnu-10002.1.13
    /// bsd/kern/kern_memorystatus.c:236-241). Nil means 15% (and is left out of the JSON).
    public var pressureThresholdFraction: Double?
    /// The freezer's daily budget of writes to flash, in MB per 24-hour interval
    /// (`memorystatus_freeze_daily_mb_max` = `FREEZE_DAILY_MB_MAX_DEFAULT`); nil where memprof does
    /// not model a budget (eras before xnu-4903, whose older throttle it does not model: see
    /// XNUSettings+Eras.swift). Left out of the JSON when nil.
    public var freezeDailyBudgetMB: Int?
    /// True where a budget interval starts at the freezer's first budget check
    /// (`memorystatus_freeze_update_throttle`) at or after the end of the last one, and lasts 24 h
    /// from that check, with one day's budget on top of what was left and none for days without
    /// a check (xnu-4903 and xnu-6153: FreezerBudget.swift). Nil (left out of the JSON): the
    /// intervals follow one another every 24 h from the freezer's start, as xnu-11215 resets them.
    public var freezeIntervalStartsAtCheck: Bool?
    /// How long the freezer's thread waits after a run before it runs again: from xnu-4903 each
    /// run freezes at most one process (`memorystatus_freeze_top_process`, called once a run:
    /// xnu-4903.221.2 bsd/kern/kern_memorystatus.c:7466, xnu-6153.11.26
    /// bsd/kern/kern_memorystatus_freeze.c:2026; from xnu-8792 `memorystatus_pick_freeze_count_for_wakeup`
    /// gives 1 unless app swap is on, xnu-11215.1.10 bsd/kern/kern_memorystatus_policy.c:736-742,
    /// which memprof does not model) and sets `memorystatus_freezer_thread_next_run_ts` to now plus
    /// `memorystatus_apps_idle_delay_time` (xnu-4903.221.2 :7478; xnu-11215.1.10
    /// kern_memorystatus_freeze.c:2970, with the multiplier 1 off watchOS, :127-137), which
    /// `memorystatus_freeze_thread_should_run` waits for (xnu-4903.221.2 :7515; xnu-11215.1.10
    /// kern_memorystatus_policy.c:726-730). That delay is `DEFERRED_IDLE_EXIT_TIME_SECS`, 10 s
    /// (xnu-11215.1.10 bsd/kern/kern_memorystatus.c:1511, bsd/sys/kern_memorystatus.h:101; the same
    /// 10 s at xnu-4903.221.2 bsd/sys/kern_memorystatus.h:72). Nil before xnu-4903: the thread runs
    /// whenever the page counts change, with no delay. Left out of the JSON when nil.
    public var freezerRunDelayUs: Microseconds?

    /// `memorystatus_available_pages_critical_base` as a fraction of RAM: jetsam's threshold when
    /// no process is idle. 5% (`critical_threshold_percentage`) up to 3 GB of RAM in every era;
    /// above, 4% from xnu-6153 (XNUSettings+Eras.swift). Nil means 5% (and is left out of the JSON).
    public var criticalThresholdFraction: Double?
    /// `memorystatus_available_pages_critical_idle` (from xnu-10002; before, the base plus
    /// `memorystatus_available_pages_critical_idle_offset`) as a fraction of RAM: jetsam's
    /// threshold while the idle band holds a process, which on a phone it always does (its idle
    /// daemons). 10% up to 3 GB of RAM; above, 9% from xnu-6153 and 8% above 6 GB from xnu-10002.
    /// Nil means 10% (and is left out of the JSON).
    public var idleThresholdFraction: Double?
    /// The reaper's threshold of available memory as a fraction of RAM, from xnu-11417: while
    /// available memory is under it, processes idle in the idle band for ``reaperMinIdleUs`` or
    /// more are killed (`long-idle-exit`). Four times the critical base up to 3 GB and above 6 GB
    /// (20%, 16%), 18/4 of it between (18%): the table at xnu-11417.121.6
    /// bsd/kern/kern_memorystatus.c:290-296, `MEMORYSTATUS_REAPER_RATIO_*` :305-306 and :330-331,
    /// set at :2088-2098. Nil before xnu-11417 (no reaper; left out of the JSON).
    public var reaperThresholdFraction: Double?
    /// How long a process must have been in the idle band to be reapable
    /// (`MEMORYSTATUS_REAPER_MIN_AGE_SECS_DEFAULT`, 300 s, c:313; tested in `_memstat_proc_is_reapable`,
    /// c:6712). Bands up to `JETSAM_PRIORITY_IDLE` only (`MEMORYSTATUS_REAPER_MAX_PRIORITY_DEFAULT`,
    /// c:314). Nil without a reaper.
    public var reaperMinIdleUs: Microseconds?
    /// How long after a sweep the reaper waits before it may sweep again
    /// (`MEMORYSTATUS_REAPER_RESCAN_SECS_DEFAULT`, 30 s, c:315; `_memstat_reaper_end_sweep`,
    /// c:4159-4160). Nil without a reaper.
    public var reaperRescanUs: Microseconds?
    /// True from xnu-11417: under the idle threshold jetsam kills only processes in the idle band
    /// (`idle-exit`), and kills in any band (`vm-pageshortage`) only once available memory is under
    /// the critical base (`memorystatus_pick_action`, xnu-11417.121.6
    /// bsd/kern/kern_memorystatus_policy.c:209-216 and :231-252, the system unhealthy below
    /// `memorystatus_get_critical_page_shortage_threshold`, kern_memorystatus.c:4083-4086 and
    /// kern_memorystatus_policy.c:116-124). Before, the critical threshold with a process idle is
    /// the idle one and any band dies there. Nil (left out of the JSON) before xnu-11417.
    public var idleExitSplit: Bool?

    /// The freezer's store on flash, in compressed bytes: `VM_MAX_SWAP_FILE_NUM` swap files of
    /// `MAX_SWAP_FILE_SIZE` (128 MB off macOS). 5 files (640 MB) from xnu-4903 (xnu-4903.221.2
    /// osfmk/vm/vm_compressor_backing_store.c:121 for release kernels, vm_compressor_backing_store.h:45;
    /// xnu-11215.1.10 vm_compressor_backing_store.c:147 and vm_compressor_backing_store_internal.h:50),
    /// 1 file (128 MB) at xnu-4570 (xnu-4570.1.46 vm_compressor_backing_store.c:117, .h:45). With app
    /// swap (``appSwap``) the files scale with the volume from 16 GB to 64 GB
    /// (`VM_MIN_SWAP_FILE_SWAP_ENABLED_NUM`, `VM_MAX_SWAP_FILE_SWAP_ENABLED_NUM`, xnu-11215.1.10
    /// vm_compressor_backing_store.c:149-150 and :423-444): memprof takes the 16 GB of a 128 GB volume.
    /// A frozen app takes its footprint at its compressor ratio. Nil before xnu-4570, whose sources
    /// give an embedded kernel no cap of its own (100 files of 1 GB, the Mac's): the device's
    /// `flash`, counted uncompressed. Left out of the JSON when nil.
    public var freezerSwapBytes: Bytes?
    /// True on an iPad that swaps every app (`memorystatus_swap_all_apps`, from xnu-8792 and
    /// iPadOS 16: ``Device/virtualMemorySwap``): the freezer has 36 slots
    /// (`FREEZE_PROCESSES_MAX_SWAP_ENABLED_DEFAULT`, xnu-11215.1.10 bsd/sys/kern_memorystatus_freeze.h:48,
    /// set by `memorystatus_freeze_configure_for_swap`, kern_memorystatus_freeze.c:1740-1752), no daily
    /// budget ("We don't have a budget when running with full app swap", :1757) and 16 GB of
    /// swap (``freezerSwapBytes``). Nil (left out of the JSON) elsewhere.
    public var appSwap: Bool?
    /// True where the in-RAM compressor low on space (``CompressorLimits``) makes jetsam kill
    /// (`vm-compressor-space-shortage`, `kMemorystatusKilledVMCompressorSpaceShortage`): from
    /// xnu-4903 to xnu-8019 the compressor's thread asks for the kill when `vm_compressor_low_on_space()`
    /// (xnu-4903.221.2 osfmk/vm/vm_compressor.c:1926-1937, xnu-8019.41.5 :2334-2336); xnu-8792 and
    /// xnu-10002 find the system unhealthy (xnu-8792.41.9 bsd/kern/kern_memorystatus_policy.c:79);
    /// xnu-11417 too (xnu-11417.121.6 kern_memorystatus_policy.c:87-88, the cause at
    /// kern_memorystatus.c:9772-9778). Nil in xnu-11215, which overwrites that state with a flag
    /// set only when a frozen segment read back from swap would fill the pool
    /// (xnu-11215.1.10 kern_memorystatus_policy.c:85 and :98; osfmk/vm/vm_compressor.c:5186-5205),
    /// a path memprof's thaw, which reads straight into the app, does not take; and before
    /// xnu-4903, whose compressor asks for no such kill. Left out of the JSON when nil.
    public var compressorSpaceKills: Bool?
    /// True where the freezer, finding its daily budget spent when it would run, demotes one
    /// thawed app from the frozen band to the idle band ("urgent mode..force one demotion",
    /// `memorystatus_demote_frozen_processes(TRUE)`: xnu-6153.11.26 bsd/kern/kern_memorystatus_freeze.c:2028;
    /// xnu-11215.1.10 :2950-2953): the first refreeze-eligible one in the band (the thaw-count
    /// policy, `memorystatus_freezer_use_demotion_list` 0, :218 and :2355-2400), which loses its
    /// elevation and its eligibility but stays frozen (:2318-2351). From xnu-6153; xnu-4903 demotes
    /// only at a new interval (xnu-4903.221.2 bsd/kern/kern_memorystatus.c:7365), which memprof
    /// does not model. Nil (left out of the JSON) elsewhere.
    public var demotesWhenSpent: Bool?

    /// The freezer's swap on `device`, in compressed bytes: ``freezerSwapBytes``, and no more than
    /// the room the device's `flash` gives the store. xnu writes each swap file on the volume before
    /// it uses it (`vm_swap_create_file` asks for `MAX_SWAP_FILE_SIZE`, then half of it down to
    /// `MIN_SWAP_FILE_SIZE`, 64 MB, and creates nothing when `vm_swapfile_preallocate`'s
    /// `vnode_setsize` finds no room: xnu-11215.1.10 osfmk/vm/vm_compressor_backing_store.c:1561-1632,
    /// bsd/vm/vm_compressor_backing_file.c:119; the same at xnu-7195.50.7.100.1
    /// vm_compressor_backing_store.c:1368-1435), so a volume with less room than the files holds
    /// less swap; memprof counts the room to the byte, not in whole files. With app swap
    /// (``appSwap``) xnu sizes the files from the volume itself (:423-444): ``freezerSwapBytes``.
    /// Nil where the store is not capped (before xnu-4570: the device's `flash`, uncompressed).
    public func freezerSwap(on device: Device) -> Bytes? {
        guard let cap = freezerSwapBytes else { return nil }
        return appSwap == true ? cap : min(cap, device.flash)
    }

    /// ``pressureThresholdFraction``, 15% when not given.
    public var pressureThreshold: Double { pressureThresholdFraction ?? 0.15 }

    /// ``criticalThresholdFraction``, 5% when not given.
    public var criticalBaseThreshold: Double { criticalThresholdFraction ?? 0.05 }

    /// ``idleThresholdFraction``, 10% when not given.
    public var idleThreshold: Double { idleThresholdFraction ?? 0.10 }

    /// `memorystatus_available_pages_critical` with a process in the idle band, as a fraction of
    /// RAM: the idle threshold, never above the pressure threshold (`memorystatus_update_levels_locked`,
    /// xnu-2782.1.97 bsd/kern/kern_memorystatus.c:3678-3691, xnu-11215.1.10 :6540-6552). Jetsam
    /// kills while available memory is at or under it (`memorystatus_avail_pages_below_critical`,
    /// xnu-11215.1.10 :3394-3397).
    public var criticalThreshold: Double { min(idleThreshold, pressureThreshold) }

    /// Whether kills at the idle threshold take only the idle band (``idleExitSplit``).
    public var splitsIdleExit: Bool { idleExitSplit ?? false }

    public init(xnuTag: String? = nil, idleBand: Int, agingBand: Int?, backgroundBand: Int, frozenBand: Int?,
                foregroundBand: Int, audioBand: Int, agingUs: Microseconds, freezeMaxCandidateBand: Int?,
                freezeMinFootprint: Bytes, freezeThreshold: Double, freezeSuspendedThreshold: Int,
                frozenProcessesMax: Int?, pressureThresholdFraction: Double? = nil, freezeDailyBudgetMB: Int? = nil,
                freezeIntervalStartsAtCheck: Bool? = nil, freezerRunDelayUs: Microseconds? = nil,
                freezerSwapBytes: Bytes? = nil, compressorSpaceKills: Bool? = nil, demotesWhenSpent: Bool? = nil) {
        self.xnuTag = xnuTag
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
        self.pressureThresholdFraction = pressureThresholdFraction
        self.freezeDailyBudgetMB = freezeDailyBudgetMB
        self.freezeIntervalStartsAtCheck = freezeIntervalStartsAtCheck
        self.freezerRunDelayUs = freezerRunDelayUs
        self.freezerSwapBytes = freezerSwapBytes
        self.compressorSpaceKills = compressorSpaceKills
        self.demotesWhenSpent = demotesWhenSpent
    }

    /// The band an app in `state` sits in, by this era's numbers, without aging (for jetsam
    /// reports under a policy without bands): a frozen app in ``frozenBand``, or, before that
    /// band existed, in the idle band it was frozen from.
    public func band(_ state: AppState, playingAudio: Bool) -> Int? {
        switch state {
        case .notRunning: nil
        case .inactive, .active: foregroundBand
        case .background: playingAudio ? audioBand : backgroundBand
        case .compressed: frozenBand ?? idleBand
        case .suspended: idleBand
        }
    }

    /// Whether apps age in a band of their own before the idle band (``agingBand`` set and not
    /// the idle band, for a time above 0).
    public var appsAge: Bool { agingBand.map { $0 != idleBand } ?? false && agingUs > 0 }
}
