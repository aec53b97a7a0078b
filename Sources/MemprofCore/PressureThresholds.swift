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

    /// From xnu-11417 (``XNUSettings/idleExitSplit``) on a phone: the most `used` may reach before
    /// jetsam kills outside the idle band, one byte under `appMemory −` the critical base
    /// (``XNUSettings/criticalBaseThreshold``), and `used` past which available memory is under
    /// the reaper's threshold (``XNUSettings/reaperThresholdFraction``; nil without a reaper:
    /// the reaper's test is `available_page_count < threshold`, xnu-11417.121.6
    /// bsd/kern/kern_memorystatus.c:4248). Nil before xnu-11417.
    public func idleExitLimits(on device: Device) -> (killLimit: Bytes, reaperUsed: Bytes?)? {
        guard let xnu, xnu.splitsIdleExit, device.platform == .ios else { return nil }
        let app = device.appMemory
        func up(_ fraction: Double) -> Bytes { Bytes((fraction * Double(device.ram)).rounded(.up)) }
        let critical = up(xnu.criticalBaseThreshold)
        return (max(0, app - critical - 1), xnu.reaperThresholdFraction.map { app - up($0) })
    }

    /// Whether the pressure levels come from xnu's thresholds of available memory on `device`
    /// (the `xnu` policy on a phone, which has the in-RAM compressor).
    public func hasInRAMCompressor(on device: Device) -> Bool { xnu != nil && device.platform == .ios }
}
