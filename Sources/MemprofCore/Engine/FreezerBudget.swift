/// The `xnu` freezer's daily budget of writes to flash (spec §5 `xnu`), for the eras that have
/// one (``XNUSettings/freezeDailyBudgetMB``: xnu-4903 and later).
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
///   have frozen `kMemorystatusFreezeSkipReasonOutOfBudget` (f:2772); the `freeze` sysctl, which
///   `freeze:` models, neither asks nor debits it ("We don't care about the global freezer
///   budget", f:571-575; only `memorystatus_freeze_process_sync`, called from kern_proc.c:6266 and
///   not modelled, is refused without budget, xnu-8792.41.9 f:1994-1996);
/// - when the interval ends a new one starts with the day's budget plus what was left
///   (f:1602-1609, `budget_rollover`; f:2505-2550 adds nothing for missed days when it starts on
///   time, as memprof's intervals do);
/// - the degraded 30-minute window cannot start: `memorystatus_freeze_update_throttle` compares
///   with a `freeze_daily_pageouts_max` it leaves 0 (f:2821, f:2869), so only the normal window
///   limits (the same in every era, below).
///
/// xnu-6153.11.26 (iOS 13; `f`, `fh` at that tag) differs in when an interval starts
/// (``XNUSettings/freezeIntervalStartsAtCheck``), xnu-4903.221.2 (iOS 12; bsd/kern/kern_memorystatus.c
/// `c`, bsd/sys/kern_memorystatus.h `h`) the same at the lines given second:
/// - the budget: fh:68 (h:505) 1024 MB a day in pages (f:1919, c:7349); the first is granted when
///   the freezer starts (f:986, c:6601), and a freeze writes at most what is left (f:1422, c:6935)
///   and debits it (f:1490-1491, c:7014-7015);
/// - every interval, the first too, starts at a budget check, `memorystatus_freeze_update_throttle`,
///   at or after the end of the last (f:1905, c:7335; the first interval's end is 0, f:147-150,
///   c:820-823) and ends 24 h after that check (f:1924-1926, c:7354-7356): the freezer's thread
///   checks when it runs, while available memory is under the freeze threshold, fewer than 20
///   apps are frozen and more than 4 suspended ones are not (f:2018-2023 and f:1689-1695,
///   c:7457-7463), and `memorystatus_freeze_process_sync` checks (f:1162-1166, c:6704-6707), not
///   the `freeze` sysctl (c:1279). A new interval grants what was left plus one day (f:1921-1922,
///   c:7351-7352) and nothing for days without a check. memprof checks where the freezer would
///   run (``XNUPolicy/freezerRuns(_:memory:)``);
/// - the degraded 30-minute window (f:144, c:817) cannot start either: `freeze_daily_pageouts_max`
///   is a local set to 0 (f:1873, c:7301) and computed only when a new interval starts (f:1919,
///   c:7349), so in the running interval the 25% threshold is 0 (f:1964, c:7399) and `budget_left
///   <= budget_threshold` (f:1973, c:7408) never holds with budget left (f:1960-1963): the only
///   line that sets `memorystatus_freeze_degradation` (f:1989, c:7426) is never reached, and the
///   freezer takes all that is left at once, as in later eras;
/// - there is no `p_memstat_freeze_skip_reason` (first in xnu-7195.141.2): memprof names the same
///   decisions (out of budget, out of slots, below the minimum, no room) as it does for xnu-7195;
/// - left out, as in later eras: the demotion of frozen apps to the idle band, at each new
///   interval up to 2 thawed fewer than 5 times (f:1935, c:7365; the limits at c:1881-1882 and
///   xnu-6153.11.26 bsd/kern/kern_memorystatus.c:1275-1276) and, in xnu-6153, one thawed app when
///   the budget is spent (f:2028, f:1785-1792): memprof keeps frozen apps in the frozen band; and the storage's
///   own budget (`vm_swap_max_budget`, f:1914, c:7344), which no source publishes: memprof keeps
///   the default.
///
/// A frozen app that comes back reads its pages from flash: what its freeze wrote, at most its
/// footprint (a freeze cut short by the budget wrote less, and xnu leaves the pages it did not
/// write in RAM: `max_pages` bounds the pageout, xnu-11215.1.10 f:1854); the resume waits that ÷ `flashReadRate`
/// on top of its own time (Foreground.swift); the ledger counts it as a thaw
/// (`memorystatus_thaw_count`, xnu-11215.1.10 bsd/kern/kern_memorystatus.c:3227). A page read
/// back leaves flash: a fault decompresses it with flags 0 and the compressor frees its slot
/// unless `C_KEEP`, which only a copy-on-write fault from a backing object passes
/// (xnu-6153.11.26 osfmk/vm/vm_fault.c:1564-1570 and :4323-4325, osfmk/vm/vm_compressor.c:3864-3880).
/// memprof's thaw reads every page written, so none stays on flash and a refreeze writes the whole
/// footprint again, as xnu writes again every resident page it freezes.
///
/// Every step is O(1) but marking skipped apps, which walks the apps once per freeze (as the
/// freezer's own choice does). With the budget spent the freezer costs nothing per step: it is
/// not asked to choose.
struct FreezerLedger {
    static let intervalUs: Microseconds = 24 * 60 * 60 * 1_000_000

    let dailyPages: Int64
    let pageSize: Bytes
    /// ``XNUSettings/freezeIntervalStartsAtCheck``: intervals start at budget checks, not every 24 h.
    let startsAtCheck: Bool
    var remainingPages: Int64
    /// When the interval ends; nil before the first budget check where intervals start at checks.
    var intervalEndsUs: Microseconds?
    var figures: FreezerSummary
    /// Each app's skip reason (`FreezeSkipReason.rawValue`, 0 for none) and since when the app it
    /// was given to had been suspended: a reason lasts while the app stays suspended.
    var skipReason: [UInt8]
    var skipSinceUs: [Microseconds]
    /// What each app's last freeze wrote, in bytes (whole pages).
    var writtenBytes: [Bytes]

    /// Nil when the policy has no budget (`seed-2015`, xnu eras before xnu-4903).
    init?(policy: PolicySettings, device: Device, appCount: Int) {
        guard let x = policy.xnu, let mb = x.freezeDailyBudgetMB, device.pageSize > 0 else { return nil }
        pageSize = device.pageSize
        dailyPages = Int64(mb) * .megabyte / pageSize
        remainingPages = dailyPages
        startsAtCheck = x.freezeIntervalStartsAtCheck ?? false
        intervalEndsUs = startsAtCheck ? nil : Self.intervalUs
        figures = FreezerSummary(dailyBudgetBytes: Int64(mb) * .megabyte, pageSize: pageSize)
        skipReason = Array(repeating: 0, count: appCount)
        skipSinceUs = Array(repeating: 0, count: appCount)
        writtenBytes = Array(repeating: 0, count: appCount)
    }

    /// Whether a budget check at `nowUs` would find nothing left: none left and, where intervals
    /// start at checks, the interval not over (a check after its end starts a new one).
    func isSpent(at nowUs: Microseconds) -> Bool {
        guard remainingPages == 0 else { return false }
        guard startsAtCheck, let end = intervalEndsUs else { return true }
        return nowUs < end
    }

    /// Starts the intervals due by `nowUs`, each with a day's budget on top of what was left.
    /// Where intervals start at checks time alone starts none: ``check(at:)`` does.
    mutating func roll(to nowUs: Microseconds) {
        guard !startsAtCheck else { return }
        while nowUs >= intervalEndsUs! {
            remainingPages += dailyPages
            intervalEndsUs! += Self.intervalUs
            figures.intervalsStarted += 1
        }
    }

    /// The freezer checks its budget (`memorystatus_freeze_update_throttle`) at `nowUs`. Where
    /// intervals start at checks: the first check starts the first interval with the budget
    /// granted at the start, a check at or after an interval's end starts the next with what was
    /// left plus one day (xnu-6153.11.26 bsd/kern/kern_memorystatus_freeze.c:1905-1926); each lasts
    /// 24 h from its check. Elsewhere the same as ``roll(to:)``.
    mutating func check(at nowUs: Microseconds) {
        guard startsAtCheck else { return roll(to: nowUs) }
        if let end = intervalEndsUs {
            guard nowUs >= end else { return }
            remainingPages += dailyPages
            figures.intervalsStarted += 1
        }
        intervalEndsUs = nowUs + Self.intervalUs
    }

    /// Debits a freeze of app `i`'s `footprint` bytes: its pages, at most what is left. Returns
    /// whether the budget ran out with it.
    mutating func debit(_ i: Int, footprint: Bytes, nowUs: Microseconds) -> Bool {
        let pages = min((footprint + pageSize - 1) / pageSize, remainingPages)
        remainingPages -= pages
        writtenBytes[i] = pages * pageSize
        figures.freezes += 1
        figures.pagesWritten += pages
        figures.bytesWritten += pages * pageSize
        guard remainingPages == 0 else { return false }
        figures.budgetExhaustions += 1
        if figures.firstExhaustedAtUs == nil { figures.firstExhaustedAtUs = nowUs }
        return true
    }

    /// `freeze:` wrote app `i`'s `footprint` outside the budget (the sysctl does not touch it:
    /// xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:571-575): a freeze and its bytes, no
    /// pages of the budget.
    mutating func recordForced(_ i: Int, footprint: Bytes) {
        let bytes = (footprint + pageSize - 1) / pageSize * pageSize
        writtenBytes[i] = bytes
        figures.freezes += 1
        figures.bytesWritten += bytes
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
        if figures.bytesReadBack > figures.bytesWritten {
            return "the freezer read back \(figures.bytesReadBack) bytes of the \(figures.bytesWritten) it wrote"
        }
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
    /// reason it was passed over for (below the minimum, or no room in the freezer's swap:
    /// `kMemorystatusFreezeSkipReasonNoSwapSpace`, as `FREEZER_ERROR_NO_SWAP_SPACE` becomes in
    /// `memorystatus_freeze_handle_error`; xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:1000
    /// and :2616). memprof takes every
    /// suspended app of its bands as considered when it freezes one, and marks none when it
    /// freezes nothing (a walk per step would cost the engine more than the figure is worth).
    mutating func markPassedOver() {
        guard freezerLedger != nil, let x = policy.settings.xnu else { return }
        for i in apps.indices where apps[i].state == .suspended {
            if let max = x.freezeMaxCandidateBand, policyCandidate(i).band ?? .max > max { continue }
            let footprint = apps[i].footprint
            let reason: FreezeSkipReason? = footprint < x.freezeMinFootprint ? .belowMinPages
                : !storeFits(i) ? .noSwapSpace : nil
            if let reason { freezerLedger!.skip(i, reason, suspendedSinceUs: apps[i].suspendedSinceUs) }
        }
    }

    /// A freeze wrote app `i`'s pages: debited, and the apps left marked when the budget ran out
    /// or the slots filled.
    mutating func debitFreeze(_ i: Int, footprint: Bytes) {
        guard freezerLedger != nil else { return }
        if freezerLedger!.debit(i, footprint: footprint, nowUs: now) { markEligibleSkipped(.outOfBudget) }
        if let max = policy.settings.xnu?.frozenProcessesMax, apps.count(where: \.frozen) == max {
            markEligibleSkipped(.outOfSlots)
        }
    }

    /// What freezing app `i` takes of the freezer's store: its footprint at its compressor ratio
    /// where xnu caps the swap in compressed bytes (``swapCap``), its footprint otherwise.
    func storeBytes(_ i: Int) -> Bytes {
        swapCap == nil ? apps[i].footprint : Self.poolBytes(apps[i].footprint, ratio: apps[i].spec.compressorRatio)
    }

    /// What the freezer's store holds and may hold, in the unit of ``storeBytes(_:)``.
    var storeUsed: Bytes { swapCap == nil ? compressedUsed : swapUsed }
    var storeCapacity: Bytes { swapCap ?? workload.device.flash }

    /// Whether app `i`, frozen, fits in what the store has left.
    func storeFits(_ i: Int) -> Bool { storeUsed + storeBytes(i) <= storeCapacity }

    /// App `i` has just been suspended: with the budget spent it is out of budget at once, as xnu
    /// marks a process that starts while the budget is spent (`memorystatus_freeze_init_proc`,
    /// xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:3093-3103; memprof marks it when it
    /// becomes a candidate instead, when it is suspended). O(1).
    mutating func noteSuspendedWhileSpent(_ i: Int) {
        freezerLedger!.roll(to: now)
        guard freezerLedger!.isSpent(at: now), !apps[i].frozen, let x = policy.settings.xnu,
              apps[i].footprint >= x.freezeMinFootprint else { return }
        freezerLedger!.skip(i, .outOfBudget, suspendedSinceUs: apps[i].suspendedSinceUs)
    }

    /// What compressed app `i` reads from flash when it comes back: its footprint, or under a
    /// budget what its last freeze wrote, at most its footprint. O(1).
    func flashReadBytes(_ i: Int) -> Bytes {
        guard let ledger = freezerLedger else { return apps[i].footprint }
        return min(apps[i].footprint, ledger.writtenBytes[i])
    }

    /// Frozen app `i` is read back into RAM (a thaw), before it leaves the compressed state.
    mutating func noteThaw(_ i: Int) {
        guard freezerLedger != nil else { return }
        let bytes = flashReadBytes(i)
        freezerLedger!.figures.thaws += 1
        freezerLedger!.figures.bytesReadBack += bytes
    }
}
