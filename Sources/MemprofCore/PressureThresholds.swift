extension PolicySettings {
    /// The pressure level's thresholds and jetsam's limit on `used` (`warning` from the first,
    /// `critical` from the second; a demand fits while `used` stays within the third): the
    /// fractions of app memory `warningLevel` and `criticalLevel` with app memory the limit, or,
    /// under `xnu` on a phone (which has the in-RAM compressor, Engine/Compressor.swift), from
    /// xnu's thresholds of available memory (``XNUSettings/pressureThreshold``,
    /// ``XNUSettings/criticalThreshold``), available memory being `appMemory − used`:
    ///
    /// - `warning` while available memory is at or under the pressure threshold
    ///   (`memorystatus_avail_pages_below_pressure`: `memorystatus_available_pages <=
    ///   memorystatus_available_pages_pressure`, xnu-11215.1.10 bsd/kern/kern_memorystatus.c:3384-3387);
    /// - `critical` while it is at or under the critical threshold (`…_below_critical`, :3394-3397);
    /// - jetsam kills while it is at or under the critical threshold (`memorystatus_thread`'s
    ///   kills while `memorystatus_avail_pages_below_critical()`, :3980-3996), so a demand fits
    ///   while `used` stays one byte under `appMemory − critical threshold`.
    ///
    /// Each threshold is its fraction of RAM in pages (`MEMSTAT_PERCENT_TOTAL_PAGES`, or
    /// `percentage * atop_64(max_mem) / 100` before xnu-10002), rounded up to bytes here.
    public func levelBytes(on device: Device) -> (warning: Bytes, critical: Bytes, limit: Bytes) {
        let app = device.appMemory
        func up(_ fraction: Double, of bytes: Bytes) -> Bytes { Bytes((fraction * Double(bytes)).rounded(.up)) }
        guard let xnu, device.platform == .ios else {
            return (up(warningLevel, of: app), up(criticalLevel, of: app), app)
        }
        let pressure = up(xnu.pressureThreshold, of: device.ram)
        let critical = up(xnu.criticalThreshold, of: device.ram)
        return (max(0, app - pressure), max(0, app - critical), max(0, app - critical - 1))
    }

    /// Whether the pressure levels come from xnu's thresholds of available memory on `device`
    /// (the `xnu` policy on a phone, which has the in-RAM compressor).
    public func hasInRAMCompressor(on device: Device) -> Bool { xnu != nil && device.platform == .ios }
}

extension XNUSettings {
    /// The kernel's major version, from `xnuTag` (`xnu-8792.41.9` → 8792); the default kernel's
    /// when the tag is unknown.
    var kernelMajor: Int {
        let tag = xnuTag ?? Self.kernel.xnuTag ?? ""
        return Int(tag.dropFirst("xnu-".count).prefix { $0.isNumber }) ?? 8792
    }

    /// How long the freezer's thread waits after a run before it runs again, where it waits: from
    /// xnu-4903 each run freezes at most one process (`memorystatus_freeze_top_process`, called once
    /// a run: xnu-4903.221.2 bsd/kern/kern_memorystatus.c:7466, xnu-6153.11.26
    /// bsd/kern/kern_memorystatus_freeze.c:2026; from xnu-8792 `memorystatus_pick_freeze_count_for_wakeup`
    /// gives 1 unless app swap is on, xnu-11215.1.10 bsd/kern/kern_memorystatus_policy.c:736-742,
    /// which memprof does not model) and sets `memorystatus_freezer_thread_next_run_ts` to now plus
    /// `memorystatus_apps_idle_delay_time` (xnu-4903.221.2 :7478; xnu-11215.1.10
    /// kern_memorystatus_freeze.c:2970, with the multiplier 1 off watchOS, :127-137), which
    /// `memorystatus_freeze_thread_should_run` waits for (xnu-4903.221.2 :7515; xnu-11215.1.10
    /// kern_memorystatus_policy.c:726-730). That delay is `DEFERRED_IDLE_EXIT_TIME_SECS`, 10 s
    /// (xnu-11215.1.10 bsd/kern/kern_memorystatus.c:1511, bsd/sys/kern_memorystatus.h:101; the same
    /// 10 s at xnu-4903.221.2 bsd/sys/kern_memorystatus.h:72). Nil before xnu-4903: the thread runs
    /// whenever the page counts change, with no delay.
    public var freezerRunDelayUs: Microseconds? { kernelMajor < 4903 ? nil : 10 * .second }
}
