/// The `xnu` policy's numbers per kernel era, as each tag of apple-oss-distributions/xnu writes
/// them. `c` is bsd/kern/kern_memorystatus.c, `h` bsd/sys/kern_memorystatus.h, `f`
/// bsd/kern/kern_memorystatus_freeze.c and `fh` bsd/sys/kern_memorystatus_freeze.h, at the tag
/// named on each era.
///
/// Which kernel an iOS version runs: a tag's config/MasterVersion gives its Darwin version, and
/// Darwin's major is iOS's plus 6 (xnu-2422.1.72: 13.0.0, iOS 7; xnu-2782.1.97: 14.0.0;
/// xnu-3248.20.55: 15.2.0; xnu-3789.1.32: 16.0.0; xnu-4570.1.46: 17.0.0; xnu-4903.221.2: 18.2.0;
/// xnu-6153.11.26: 19.0.0; xnu-7195.50.7.100.1: 20.1.0; xnu-8019.41.5: 21.1.0; xnu-8792.41.9:
/// 22.1.0), as published jetsam reports confirm (iOS 11.4.1: "Darwin Kernel Version 17.7.0 …
/// xnu-4570.70.24", iOS 14.2: "20.1.0 … xnu-7195.40.113", iOS 18.5: "24.5.0 … xnu-11417.122.4";
/// Tests/MemprofFieldTests/Fixtures). xnu-10002 (iOS 17) and xnu-11215 (iOS 18) have no
/// MasterVersion; they are the releases of Darwin 23 and 24. iOS 7's own xnu-2423 is not
/// published: xnu-2422.1.72 (OS X 10.9, Darwin 13) is the same line and stands for it.
extension XNUSettings {
    /// The numbers of the kernel a device's iOS version runs (spec §5): the era of its major
    /// version (iOS 7 and before: ``xnu2422``; iOS 18 and after: ``xnu11215``). A device
    /// without a version, or a Mac, gets ``kernel``.
    public static func forDevice(_ device: Device) -> XNUSettings {
        guard device.platform == .ios, let version = device.osVersion.flatMap(Device.version) else { return .kernel }
        var x = era(iosMajor: version.major, minor: version.minor)
        x.setThresholds(iosMajor: version.major, ram: device.ram)
        if device.virtualMemorySwap != nil, version.major >= 16 { x.setAppSwap() }
        return x
    }

    /// An iPad that swaps every app (``appSwap``), from iPadOS 16 (xnu-8792, the first tag with
    /// `memorystatus_swap_all_apps` and `VM_MAX_SWAP_FILE_SWAP_ENABLED_NUM`, xnu-8792.41.9
    /// osfmk/vm/vm_compressor_backing_store.c:145): 36 slots, no daily budget, and the 16 GB of
    /// swap xnu gives a 128 GB volume (`VM_MIN_SWAP_FILE_SWAP_ENABLED_NUM` × 128 MB; up to 64 GB on
    /// volumes of 512 GB or more, which memprof's presets do not tell apart).
    mutating func setAppSwap() {
        appSwap = true
        frozenProcessesMax = 36
        freezeDailyBudgetMB = nil
        freezerSwapBytes = 16 * .gigabyte
    }

    /// The era of an iOS version: ``era(iosMajor:)``, but iOS 18.4 and later run xnu-11417
    /// (``xnu11417``): a published iOS 18.5 report names "xnu-11417.122.4"
    /// (Tests/MemprofFieldTests/Fixtures/ios18-iphone14-excerpt.ips), and xnu-11417.101.15 is the
    /// tag published with iOS 18.4. iOS 26 and 27 get xnu-11417 too while it is the newest
    /// published tag (apple-oss-distributions/xnu has no later one): their own kernels' numbers
    /// are not published, and the newest that are stand for them.
    public static func era(iosMajor major: Int, minor: Int) -> XNUSettings {
        if major > 18 || (major == 18 && minor >= 4) { return xnu11417 }
        return era(iosMajor: major)
    }

    /// The bands a run under a policy without bands (`seed-2015`) gives apps in its jetsam
    /// snapshots: the device's era's (``forDevice(_:)``), and for an app the seeds compressed to
    /// flash, in an era with no frozen band, `JETSAM_PRIORITY_UI_SUPPORT` (8, xnu-2782.1.97
    /// bsd/sys/kern_memorystatus.h:47), where xnu-4903 put frozen apps. The kernels before
    /// xnu-4903 have no band for a frozen app (it keeps its own), and the seeds' compression to
    /// flash is the seeds' model, not theirs; so `seed-2015` keeps the band its reports have
    /// always given a compressed app, and its reports stay the same.
    public static func reportBands(for device: Device) -> XNUSettings {
        var x = forDevice(device)
        if x.frozenBand == nil { x.frozenBand = 8 }
        return x
    }

    /// The thresholds of available memory (critical, idle, pressure) for a device with `ram`,
    /// where the era makes them depend on it; the eras' constants hold those up to 3 GB (5%, 10%,
    /// 15% of the pages in every era: `critical_threshold_percentage`, `idle_offset_percentage`
    /// added to it, `pressure_threshold_percentage`; xnu-2422.1.72 c:77-80, :621-624, :3075-3081).
    ///
    /// - xnu-6153 (iOS 13), above 3 GB (c:217 `config_jetsam_large_memory_cutoff`): c:1314-1317 set
    ///   `critical_threshold_percentage` and `delta_percentage` to 4 (c:218-219), so the critical
    ///   base is 4% (c:1390), the idle threshold 4% + 5% (c:1389, :6239-6240) and the pressure
    ///   threshold `(15 / 4) * 4%` in integer arithmetic (c:6259): 12%.
    /// - xnu-7195 to xnu-8792 (iOS 14–16), above 3 GB: the same 4% and 9%, but the pressure
    ///   threshold is 15% of the pages (xnu-7195.50.7.100.1 c:1443-1445, :1518-1519, :6661;
    ///   xnu-8019.41.5 c:1458, :6739; xnu-8792.41.9 c:1363, :1399-1400, :6602).
    /// - xnu-10002 and after (iOS 17–18): the table at xnu-10002.1.13 c:236-241 (xnu-11215.1.10
    ///   c:286-291): 4%, 9%, 15% above 3 GB, and 4%, 8%, 12% above 6 GB.
    mutating func setThresholds(iosMajor major: Int, ram: Bytes) {
        guard major >= 13, ram > 3 * .gigabyte else { return }
        criticalThresholdFraction = 0.04
        idleThresholdFraction = 0.09
        if major == 13 { pressureThresholdFraction = 0.12 }
        if major >= 17 && ram > 6 * .gigabyte {
            idleThresholdFraction = 0.08
            pressureThresholdFraction = 0.12
        }
        // xnu-11417's reaper: 18/4 of the 4% critical base up to 6 GB, 4 times it above
        // (xnu-11417.121.6 bsd/kern/kern_memorystatus.c:2088-2098).
        if reaperThresholdFraction != nil { reaperThresholdFraction = ram > 6 * .gigabyte ? 0.16 : 0.18 }
    }

    /// The era of an iOS major version.
    public static func era(iosMajor major: Int) -> XNUSettings {
        switch major {
        case ...7: xnu2422
        case 8: xnu2782
        case 9: xnu3248
        case 10: xnu3789
        case 11: xnu4570
        case 12: xnu4903
        case 13: xnu6153
        case 14: xnu7195
        case 15: xnu8019
        case 16: xnu8792
        case 17: xnu10002
        default: xnu11215
        }
    }

    /// Every era, oldest first.
    public static let eras: [XNUSettings] = [xnu2422, xnu2782, xnu3248, xnu3789, xnu4570, xnu4903, xnu6153, xnu7195,
                                             xnu8019, xnu8792, xnu10002, xnu11215, xnu11417]

    /// What the eras before xnu-4903 share, on the 0–21 scale: no frozen band (a frozen app keeps
    /// its band: the freezer only sets `P_MEMSTAT_FROZEN`), a freezer that walks every band
    /// (`memorystatus_get_first_proc_locked(&i, TRUE)`), a 1 MB minimum (`FREEZE_PAGES_MIN` =
    /// 1 MB ÷ `PAGE_SIZE`) and no limit on frozen apps (no `FREEZE_PROCESSES_MAX`).
    private static func early(_ tag: String, agingBand: Int?, agingUs: Microseconds) -> XNUSettings {
        XNUSettings(xnuTag: tag, idleBand: 0, agingBand: agingBand, backgroundBand: 3, frozenBand: nil, foregroundBand: 10,
                    audioBand: 12, agingUs: agingUs, freezeMaxCandidateBand: nil, freezeMinFootprint: 1 * .megabyte,
                    freezeThreshold: 0.5, freezeSuspendedThreshold: 4, frozenProcessesMax: nil)
    }

    /// From xnu-4903 to xnu-8020, on the 0–21 scale: frozen apps in `JETSAM_PRIORITY_UI_SUPPORT`
    /// (8), an 8 MB minimum, at most 20 frozen, a daily budget of 1024 MB, a freezer thread that
    /// runs 10 s apart at the least (``XNUSettings/freezerRunDelayUs``); the aging, the freezer's
    /// candidates and when a budget interval starts as given.
    private static func uiSupportFrozen(_ tag: String, agingBand: Int, agingUs: Microseconds, freezeMaxCandidateBand: Int,
                                        intervalStartsAtCheck: Bool? = nil) -> XNUSettings {
        XNUSettings(xnuTag: tag, idleBand: 0, agingBand: agingBand, backgroundBand: 3, frozenBand: 8, foregroundBand: 10,
                    audioBand: 12, agingUs: agingUs, freezeMaxCandidateBand: freezeMaxCandidateBand,
                    freezeMinFootprint: 8 * .megabyte, freezeThreshold: 0.5, freezeSuspendedThreshold: 4,
                    frozenProcessesMax: 20, freezeDailyBudgetMB: 1024, freezeIntervalStartsAtCheck: intervalStartsAtCheck,
                    freezerRunDelayUs: 10 * .second, freezerSwapBytes: 5 * 128 * .megabyte, compressorSpaceKills: true)
    }

    /// From xnu-8792, the 0–210 scale: aging 2 s in band 20, frozen apps in 75, candidates up
    /// to band 20, an 8 MB minimum, at most 20 frozen, a freezer thread that runs 10 s apart at
    /// the least, and a daily budget of writes to flash.
    private static func freezerBand(_ tag: String, dailyBudgetMB: Int) -> XNUSettings {
        XNUSettings(xnuTag: tag, idleBand: 0, agingBand: 20, backgroundBand: 30, frozenBand: 75, foregroundBand: 100,
                    audioBand: 120, agingUs: 2 * .second, freezeMaxCandidateBand: 20, freezeMinFootprint: 8 * .megabyte,
                    freezeThreshold: 0.5, freezeSuspendedThreshold: 4, frozenProcessesMax: 20,
                    freezeDailyBudgetMB: dailyBudgetMB, freezerRunDelayUs: 10 * .second,
                    freezerSwapBytes: 5 * 128 * .megabyte, compressorSpaceKills: true, demotesWhenSpent: true)
    }

    /// iOS 7 (xnu-2422.1.72): bands h:39 `IDLE` 0, h:42 `BACKGROUND` 3, h:47 `FOREGROUND` 10, h:48
    /// `AUDIO_AND_ACCESSORY` 12. No aging band for apps: only a process with a deferred dirty
    /// transition goes to `JETSAM_PRIORITY_IDLE_DEFERRED` (c:1024, `P_DIRTY_DEFER_IN_PROGRESS`),
    /// others straight to `IDLE`. Freezer: c:2178 walks every band; h:277 `FREEZE_PAGES_MIN` 1 MB;
    /// h:281 `FREEZE_SUSPENDED_THRESHOLD_DEFAULT` 4; c:81 `freeze_threshold_percentage` 50;
    /// c:80 `pressure_threshold_percentage` 15.
    public static let xnu2422 = early("xnu-2422.1.72", agingBand: nil, agingUs: 0)

    /// iOS 8 (xnu-2782.1.97): bands h:41, h:44, h:49, h:50 (0, 3, 10, 12). No aging band for apps
    /// (c:1290: only `P_DIRTY_DEFER_IN_PROGRESS` daemons go to band 1 for
    /// `DEFERRED_IDLE_EXIT_TIME_SECS`, h:66, 10 s). Freezer: c:2721 every band; h:289 1 MB; h:293 4;
    /// c:113 50%; c:112 pressure 15%.
    public static let xnu2782 = early("xnu-2782.1.97", agingBand: nil, agingUs: 0)

    /// iOS 9 (xnu-3248.20.55): bands h:41, h:44, h:49, h:50 (0, 3, 10, 12). No aging band for apps
    /// (c:1801, as xnu-2782). Freezer: c:3945 every band; h:388 1 MB; h:392 4; c:179 50%;
    /// c:178 pressure 15%.
    public static let xnu3248 = early("xnu-3248.20.55", agingBand: nil, agingUs: 0)

    /// iOS 10 (xnu-3789.1.32): bands h:43, h:48, h:54, h:55 (0, 3, 10, 12). The legacy aging policy
    /// (c:276 `jetsam_aging_policy = kJetsamAgingPolicyLegacy`, kept at boot c:1446-1451): apps age
    /// in c:264 `applications_aging_band = JETSAM_PRIORITY_IDLE` for c:1415
    /// `memorystatus_apps_idle_delay_time` = `DEFERRED_IDLE_EXIT_TIME_SECS` (h:71, 10 s), which
    /// is no band of their own. Freezer: c:5528 every band; h:436 1 MB; h:440 4; c:186 50%;
    /// c:185 pressure 15%.
    public static let xnu3789 = early("xnu-3789.1.32", agingBand: 0, agingUs: 10 * .second)

    /// iOS 11 (xnu-4570.1.46): bands h:44, h:49, h:55, h:56 (0, 3, 10, 12). Legacy aging as
    /// xnu-3789 (c:315, c:1514-1519; c:303 idle band; c:1491 and h:72, 10 s). Freezer: c:5779
    /// every band; h:443 1 MB; h:447 4; c:221 50%; c:220 pressure 15%.
    public static let xnu4570: XNUSettings = {
        var x = early("xnu-4570.1.46", agingBand: 0, agingUs: 10 * .second)
        x.freezerSwapBytes = 128 * .megabyte
        return x
    }()

    /// iOS 12 (xnu-4903.221.2): bands h:44, h:49, h:55, h:56 (0, 3, 10, 12). Legacy aging as
    /// xnu-3789 (c:326, c:1929-1934; c:306 idle band; c:1906 and h:72, 10 s). The frozen band
    /// appears: c:1875 `memorystatus_freeze_jetsam_band = JETSAM_PRIORITY_UI_SUPPORT` (h:53, 8).
    /// The freezer takes only the idle band (c:6852 `band = JETSAM_PRIORITY_IDLE`, c:6869
    /// `memorystatus_get_first_proc_locked(&band, FALSE)`); h:499 `FREEZE_PAGES_MIN` 8 MB; h:502 4;
    /// h:503 `FREEZE_PROCESSES_MAX` 20; c:225 50%; c:224 pressure 15%. The daily budget, the first
    /// era with one: h:505 `FREEZE_DAILY_MB_MAX_DEFAULT` 1024 MB (c:806) per c:818
    /// `NORMAL_WINDOW_MINS` (24 h), an interval starting at a budget check (c:7335-7356; see
    /// ``freezeIntervalStartsAtCheck`` and FreezerBudget.swift, which cites the rest).
    public static let xnu4903 = uiSupportFrozen("xnu-4903.221.2", agingBand: 0, agingUs: 10 * .second, freezeMaxCandidateBand: 0,
                                                intervalStartsAtCheck: true)

    /// iOS 13 (xnu-6153.11.26): bands h:42, h:47, h:53, h:54 (0, 3, 10, 12). Apps age in a band of
    /// their own: c:280 and c:1335-1340 `kJetsamAgingPolicySysProcsReclaimedFirst`, which sets
    /// `applications_aging_band = JETSAM_PRIORITY_AGING_BAND2` (h:46 = `BACKGROUND_OPPORTUNISTIC`,
    /// h:45, 2) for c:342-353 `memorystatus_apps_idle_time()` = c:1304 10 s ÷ c:302
    /// `kJetsamAppsIdleDelayTimeRatio` (5) = 2 s. Frozen band c:1269 `UI_SUPPORT` (h:51, 8). The
    /// freezer takes only the idle band (f:1308, `FALSE` below it); fh:62 8 MB; fh:65 4; fh:66 20;
    /// f:95 50%; c:221 pressure 15%. The daily budget: fh:68 `FREEZE_DAILY_MB_MAX_DEFAULT` 1024 MB
    /// (f:108) per f:145 `NORMAL_WINDOW_MINS` (24 h), an interval starting at a budget check
    /// (f:1905-1926; see ``freezeIntervalStartsAtCheck`` and FreezerBudget.swift).
    public static let xnu6153: XNUSettings = {
        var x = uiSupportFrozen("xnu-6153.11.26", agingBand: 2, agingUs: 2 * .second, freezeMaxCandidateBand: 0,
                                intervalStartsAtCheck: true)
        x.demotesWhenSpent = true
        return x
    }()

    /// iOS 14 (xnu-7195.50.7.100.1): bands h:42, h:47, h:53, h:54 (0, 3, 10, 12). Aging as xnu-6153
    /// (c:317, c:1464-1469, c:1490 `AGING_BAND2`; c:379-390 and c:339: 2 s). Frozen band c:1398
    /// `UI_SUPPORT` (h:51, 8). The freezer takes only the idle band: f:1543 `band =
    /// JETSAM_PRIORITY_IDLE` and f:1567-1577 `memorystatus_get_first_proc_locked(&band, FALSE)`;
    /// fh:67 8 MB; fh:70 4; fh:46 20; f:95 50%; c:222 pressure 15%. The daily budget: fh:72
    /// `FREEZE_DAILY_MB_MAX_DEFAULT` 1024 MB per f:202 `NORMAL_WINDOW_MINS` (24 h), first set at
    /// f:1190; the degraded window cannot start (f:2221, as in xnu-4903 and xnu-6153: FreezerBudget.swift).
    public static let xnu7195: XNUSettings = {
        var x = uiSupportFrozen("xnu-7195.50.7.100.1", agingBand: 2, agingUs: 2 * .second, freezeMaxCandidateBand: 0)
        x.demotesWhenSpent = true
        return x
    }()

    /// iOS 15 (xnu-8019.41.5; xnu-8020.101.4 the same): bands h:43, h:48, h:58, h:59 (0, 3, 10,
    /// 12). Aging as xnu-6153 (c:325, c:1479-1484; h:47 `AGING_BAND2` 2; c:1427: 2 s after the
    /// ratio). Frozen band c:1402 `UI_SUPPORT` (h:56, 8). The freezer's candidates go up to a band:
    /// f:115 `memorystatus_freeze_max_candidate_band = FREEZE_MAX_CANDIDATE_BAND` = fh:85
    /// `JETSAM_PRIORITY_AGING_BAND2` (2), walked at f:2127-2129; fh:72 8 MB; fh:75 4; fh:47 20;
    /// f:99 50%; c:232 pressure 15%. Budget fh:77 1024 MB per f:161 24 h (f:1597, f:2893).
    public static let xnu8019: XNUSettings = {
        var x = uiSupportFrozen("xnu-8019.41.5", agingBand: 2, agingUs: 2 * .second, freezeMaxCandidateBand: 2)
        x.demotesWhenSpent = true
        return x
    }()

    /// iOS 16 (xnu-8792.41.9), the 0–210 scale: h:43 `IDLE` 0, h:47-48 `AGING_BAND2` 20, h:49
    /// `BACKGROUND` 30, h:57 `FREEZER` 75, h:60 `FOREGROUND` 100, h:61 `AUDIO_AND_ACCESSORY` 120.
    /// Aging: c:340 `applications_aging_band = JETSAM_PRIORITY_AGING_BAND2`, c:356
    /// `kJetsamAgingPolicySysProcsReclaimedFirst`, c:411-413 and c:380: 10 s (c:1332, h:93) ÷ 5 =
    /// 2 s. Frozen band c:1307 `JETSAM_PRIORITY_FREEZER`. Freezer: f:116 and fh:90 up to
    /// `AGING_BAND2`; fh:74 8 MB; fh:79 4; fh:47 20; f:100 50%; c:233 pressure 15%. Budget fh:81
    /// 1024 MB per f:161 24 h (f:1654, f:2746).
    public static let xnu8792 = freezerBand("xnu-8792.41.9", dailyBudgetMB: 1024)

    /// iOS 17 (xnu-10002.1.13): bands h:44, h:48-49, h:50, h:58, h:61, h:62 (0, 20, 30, 75, 100,
    /// 120). Aging c:383, c:399, c:423, c:454-456 (2 s). Frozen band c:1376 `FREEZER`. Freezer:
    /// fh:89 up to `AGING_BAND2`; fh:74 8 MB; fh:79 4; fh:47 20; 50% and the pressure level in the
    /// table at c:236-241 (15% up to 6 GB of RAM, 12% above: ``forDevice(_:)``). Budget fh:81
    /// 1024 MB per f:163 24 h (f:1663, f:2764).
    public static let xnu10002 = freezerBand("xnu-10002.1.13", dailyBudgetMB: 1024)

    /// iOS 18 (xnu-11215.1.10): bands h:44, h:49-50, h:51, h:59, h:62, h:63 (0, 20, 30, 75, 100,
    /// 120). Aging c:475, c:514, c:545-547 (2 s). Frozen band c:480 `FREEZER`. Freezer (not a
    /// watch): fh:105 up to `AGING_BAND2`; fh:76 8 MB; fh:85 4; fh:47 `FREEZE_PROCESSES_MAX_DEFAULT`
    /// 20; 50% and the pressure level in the table at c:287-291 (as xnu-10002). Budget fh:88
    /// `FREEZE_DAILY_MB_MAX_DEFAULT` 2048 MB (doubled) per f:185 24 h (f:1713, f:2821).
    public static let xnu11215: XNUSettings = {
        var x = freezerBand("xnu-11215.1.10", dailyBudgetMB: 2048)
        x.compressorSpaceKills = nil
        return x
    }()

    /// iOS 18.4 and later (xnu-11417.121.6), as xnu-11215 (the same bands, h:47, h:53-54, h:62,
    /// h:65-66; aging c:532; frozen band c:537; the freezer's fh:47, fh:85, fh:88, fh:105 as
    /// xnu-11215; the threshold table c:290-296 as xnu-11215's for critical, idle and pressure),
    /// with the reaper (``reaperThresholdFraction``: 20% up to 3 GB of RAM, c:290-306, set per
    /// device by ``forDevice(_:)``; 300 s idle, c:313; 30 s between sweeps, c:315) and the
    /// idle/critical split (``idleExitSplit``).
    public static let xnu11417: XNUSettings = {
        var x = freezerBand("xnu-11417.121.6", dailyBudgetMB: 2048)
        x.reaperThresholdFraction = 0.20
        x.reaperMinIdleUs = 300 * .second
        x.reaperRescanUs = 30 * .second
        x.idleExitSplit = true
        return x
    }()

    /// The numbers of the `xnu` preset, for a device that names no iOS version: xnu-8792 (iOS 16),
    /// the era spec §5 describes.
    public static let kernel = xnu8792

    /// The iOS major version of ``kernel``'s era.
    public static let kernelIOSMajor = 16
}
