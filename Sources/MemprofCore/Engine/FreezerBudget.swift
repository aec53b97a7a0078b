/// The `xnu` freezer's daily budget of writes to flash (spec §5 `xnu`), for the eras that have
/// one without a live degraded window (``XNUSettings/freezeDailyBudgetMB``: xnu-7195 and later).
///
/// What xnu does, at xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c (`f`) and
/// bsd/sys/kern_memorystatus_freeze.h (`fh`); xnu-7195 to xnu-10002 the same, 1024 MB a day:
/// - the budget is `memorystatus_freeze_daily_mb_max` (fh:88 `FREEZE_DAILY_MB_MAX_DEFAULT`, 2048 MB)
///   in pages of `PAGE_SIZE` (f:2536), granted for an interval of `NORMAL_WINDOW_MINS` (f:185,
///   24 h) that starts when the freezer starts (f:1728-1733): memprof's run starts one;
/// - a freeze writes the app's dirty pages, at most what the budget has left (f:1854 `max_pages =
///   MIN(memorystatus_freeze_pages_max, memorystatus_freeze_budget_pages_remaining)`), and debits
///   them (f:1941 `throttle_intervals[i].pageouts += dirty`, f:1944);
/// - with nothing left the freezer freezes nothing (f:2943-2954) and marks the processes it would
///   have frozen `kMemorystatusFreezeSkipReasonOutOfBudget` (f:2772); the `freeze` sysctl is
///   refused too (xnu-8792.41.9 f:1994-1996);
/// - when the interval ends a new one starts with the day's budget plus what was left
///   (f:1602-1609, `budget_rollover`; f:2505-2550 adds nothing for missed days when it starts on
///   time, as memprof's intervals do);
/// - the degraded 30-minute window cannot start: `memorystatus_freeze_update_throttle` compares
///   with a `freeze_daily_pageouts_max` it leaves 0 (f:2821, f:2869), so only the normal window
///   limits (from xnu-7195.50.7.100.1 f:2221; in xnu-4903 and xnu-6153 it is computed and the
///   degraded window is live, which memprof does not model: their freezer has no budget here).
///
/// A frozen app that comes back reads its pages from flash: the resume (or wake) waits
/// `footprint ÷ flashReadRate` on top of its own time (Foreground.swift), the same read as any
/// compressed app's; the ledger counts it as a thaw (`memorystatus_thaw_count`, xnu-11215.1.10
/// bsd/kern/kern_memorystatus.c:3227).
///
/// Every step is O(1) but marking skipped apps, which walks the apps once per freeze (as the
/// freezer's own choice does). With the budget spent the freezer costs nothing per step: it is
/// not asked to choose.
struct FreezerLedger {
    static let intervalUs: Microseconds = 24 * 60 * 60 * 1_000_000

    let dailyPages: Int64
    let pageSize: Bytes
    var remainingPages: Int64
    var intervalEndsUs: Microseconds = intervalUs
    var figures: FreezerSummary
    /// Each app's skip reason (`FreezeSkipReason.rawValue`, 0 for none) and since when the app it
    /// was given to had been suspended: a reason lasts while the app stays suspended.
    var skipReason: [UInt8]
    var skipSinceUs: [Microseconds]

    /// Nil when the policy has no budget (`seed-2015`, xnu eras before xnu-7195).
    init?(policy: PolicySettings, device: Device, appCount: Int) {
        guard let mb = policy.xnu?.freezeDailyBudgetMB, device.pageSize > 0 else { return nil }
        pageSize = device.pageSize
        dailyPages = Int64(mb) * .megabyte / pageSize
        remainingPages = dailyPages
        figures = FreezerSummary(dailyBudgetBytes: Int64(mb) * .megabyte, pageSize: pageSize)
        skipReason = Array(repeating: 0, count: appCount)
        skipSinceUs = Array(repeating: 0, count: appCount)
    }

    var isSpent: Bool { remainingPages == 0 }

    /// Starts the intervals due by `nowUs`, each with a day's budget on top of what was left.
    mutating func roll(to nowUs: Microseconds) {
        while nowUs >= intervalEndsUs {
            remainingPages += dailyPages
            intervalEndsUs += Self.intervalUs
            figures.intervalsStarted += 1
        }
    }

    /// Debits a freeze of `footprint` bytes: its pages, at most what is left. Returns whether the
    /// budget ran out with it.
    mutating func debit(footprint: Bytes, nowUs: Microseconds) -> Bool {
        let pages = min((footprint + pageSize - 1) / pageSize, remainingPages)
        remainingPages -= pages
        figures.freezes += 1
        figures.pagesWritten += pages
        figures.bytesWritten += pages * pageSize
        guard remainingPages == 0 else { return false }
        figures.budgetExhaustions += 1
        if figures.firstExhaustedAtUs == nil { figures.firstExhaustedAtUs = nowUs }
        return true
    }

    /// Gives app `i`, suspended since `suspendedSinceUs`, `reason`; counted when it is new to it.
    mutating func skip(_ i: Int, _ reason: FreezeSkipReason, suspendedSinceUs: Microseconds) {
        if skipReason[i] == reason.rawValue, skipSinceUs[i] == suspendedSinceUs { return }
        skipReason[i] = reason.rawValue
        skipSinceUs[i] = suspendedSinceUs
        figures.skips[reason] += 1
    }

    /// What must hold of the ledger (Invariants.swift): never below nothing, and every page granted
    /// either written or left (the budget has no overshoot: a freeze writes at most what is left).
    var violation: String? {
        if remainingPages < 0 { return "the freezer's budget is \(remainingPages) pages" }
        let granted = dailyPages * Int64(figures.intervalsStarted + 1)
        if figures.pagesWritten + remainingPages != granted {
            return "the freezer wrote \(figures.pagesWritten) pages and has \(remainingPages) left of \(granted) granted"
        }
        return nil
    }

    /// The figures at the end of the run.
    func summary() -> FreezerSummary {
        var s = figures
        s.budgetRemainingPages = remainingPages
        s.budgetRemainingBytes = remainingPages * pageSize
        return s
    }
}

extension Simulator {
    /// Marks every suspended app the freezer could take (its band, at least the minimum) with
    /// `reason`, as `memorystatus_freeze_mark_eligible_processes_with_skip_reason` does when the
    /// budget runs out or the slots fill (xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:2561-2583).
    mutating func markEligibleSkipped(_ reason: FreezeSkipReason) {
        guard freezerLedger != nil, let x = policy.settings.xnu else { return }
        for i in apps.indices where apps[i].state == .suspended && apps[i].footprint >= x.freezeMinFootprint {
            if let max = x.freezeMaxCandidateBand, policyCandidate(i).band ?? .max > max { continue }
            freezerLedger!.skip(i, reason, suspendedSinceUs: apps[i].suspendedSinceUs)
        }
    }

    /// The freezer froze an app: each suspended app of its bands that it passed over gets the
    /// reason it was passed over for (below the minimum, or no room in the compressed store;
    /// xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:1000 and :2616). memprof takes every
    /// suspended app of its bands as considered when it freezes one, and marks none when it
    /// freezes nothing (a walk per step would cost the engine more than the figure is worth).
    mutating func markPassedOver(_ memory: MemoryView) {
        guard freezerLedger != nil, let x = policy.settings.xnu else { return }
        for i in apps.indices where apps[i].state == .suspended {
            if let max = x.freezeMaxCandidateBand, policyCandidate(i).band ?? .max > max { continue }
            let footprint = apps[i].footprint
            let reason: FreezeSkipReason? = footprint < x.freezeMinFootprint ? .belowMinPages
                : memory.compressedUsed + footprint > memory.flash ? .noCompressorSpace : nil
            if let reason { freezerLedger!.skip(i, reason, suspendedSinceUs: apps[i].suspendedSinceUs) }
        }
    }

    /// A freeze wrote app `i`'s pages: debited, and the apps left marked when the budget ran out
    /// or the slots filled.
    mutating func debitFreeze(_ i: Int, footprint: Bytes) {
        guard freezerLedger != nil else { return }
        if freezerLedger!.debit(footprint: footprint, nowUs: now) { markEligibleSkipped(.outOfBudget) }
        if let max = policy.settings.xnu?.frozenProcessesMax, apps.count(where: { $0.state == .compressed }) == max {
            markEligibleSkipped(.outOfSlots)
        }
    }

    /// App `i` has just been suspended: with the budget spent it is out of budget at once, as xnu
    /// marks a process that starts while the budget is spent (`memorystatus_freeze_init_proc`,
    /// xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:3093-3103; memprof marks it when it
    /// becomes a candidate instead, when it is suspended). O(1).
    mutating func noteSuspendedWhileSpent(_ i: Int) {
        freezerLedger!.roll(to: now)
        guard freezerLedger!.isSpent, let x = policy.settings.xnu, apps[i].footprint >= x.freezeMinFootprint else { return }
        freezerLedger!.skip(i, .outOfBudget, suspendedSinceUs: apps[i].suspendedSinceUs)
    }

    /// A frozen app read back into RAM (a thaw).
    mutating func noteThaw(bytes: Bytes) {
        guard freezerLedger != nil else { return }
        freezerLedger!.figures.thaws += 1
        freezerLedger!.figures.bytesReadBack += bytes
    }
}
