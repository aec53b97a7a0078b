/// Why the `xnu` freezer left a suspended app unfrozen, in xnu's words
/// (`memorystatus_freeze_skip_reason_t`, `kMemorystatusFreezeSkipReason*`, xnu-8792.41.9
/// bsd/sys/kern_memorystatus.h:177-189; the enum first appears in xnu-8019.41.5 h:175-187, and
/// memprof names the same decisions of xnu-7195 with it). The reasons memprof can tell from the
/// simulation's state; the others (shared memory, probability of use, elevated) need what it does
/// not model.
public enum FreezeSkipReason: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// `kMemorystatusFreezeSkipReasonNoCompressorSpace` (3): the in-RAM compressor is low on space
    /// (``CompressorLimits``): the freezer's pick fails with `FREEZER_ERROR_NO_COMPRESSOR_SPACE`
    /// and it stops (xnu-11215.1.10 bsd/kern/kern_memorystatus_freeze.c:2185).
    case noCompressorSpace = 3
    /// `kMemorystatusFreezeSkipReasonNoSwapSpace` (4): the freezer's swap on flash has no room for
    /// the app (``XNUSettings/freezerSwapBytes``; `FREEZER_ERROR_NO_SWAP_SPACE`). xnu-11215.1.10
    /// bsd/sys/kern_memorystatus.h:171-172.
    case noSwapSpace = 4
    /// `kMemorystatusFreezeSkipReasonBelowMinPages` (5): under `memorystatus_freeze_pages_min`.
    case belowMinPages = 5
    /// `kMemorystatusFreezeSkipReasonOutOfBudget` (8): the daily budget of writes is spent.
    case outOfBudget = 8
    /// `kMemorystatusFreezeSkipReasonOutOfSlots` (9): `memorystatus_frozen_processes_max` apps are frozen.
    case outOfSlots = 9
}

/// How often each ``FreezeSkipReason`` was given to an app: once per app and reason for as long
/// as it stays suspended, as xnu keeps a process's `p_memstat_freeze_skip_reason` until it is
/// reconsidered.
public struct FreezeSkipCounts: Sendable, Hashable, Codable {
    public var noCompressorSpace = 0
    public var noSwapSpace = 0
    public var belowMinPages = 0
    public var outOfBudget = 0
    public var outOfSlots = 0

    public init() {}

    /// Reads the counts; a report of a memprof that named no swap (before the freezer's swap was
    /// bounded) has no `noSwapSpace`: 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        noCompressorSpace = try c.decode(Int.self, forKey: .noCompressorSpace)
        noSwapSpace = try c.decodeIfPresent(Int.self, forKey: .noSwapSpace) ?? 0
        belowMinPages = try c.decode(Int.self, forKey: .belowMinPages)
        outOfBudget = try c.decode(Int.self, forKey: .outOfBudget)
        outOfSlots = try c.decode(Int.self, forKey: .outOfSlots)
    }

    subscript(reason: FreezeSkipReason) -> Int {
        get {
            switch reason {
            case .noCompressorSpace: noCompressorSpace
            case .noSwapSpace: noSwapSpace
            case .belowMinPages: belowMinPages
            case .outOfBudget: outOfBudget
            case .outOfSlots: outOfSlots
            }
        }
        set {
            switch reason {
            case .noCompressorSpace: noCompressorSpace = newValue
            case .noSwapSpace: noSwapSpace = newValue
            case .belowMinPages: belowMinPages = newValue
            case .outOfBudget: outOfBudget = newValue
            case .outOfSlots: outOfSlots = newValue
            }
        }
    }
}

/// The `xnu` freezer's writes to flash under its daily budget (spec §5 `xnu`, report.json's
/// `summary.freezer`); present for the eras whose budget memprof models
/// (``XNUSettings/freezeDailyBudgetMB``).
public struct FreezerSummary: Sendable, Hashable, Codable {
    /// `memorystatus_freeze_daily_mb_max` in bytes: what each 24-hour interval allows.
    public var dailyBudgetBytes: Bytes
    /// The device's page size, the unit the budget counts in.
    public var pageSize: Bytes
    /// Apps frozen, by the freezer or by `freeze:` (refreezes of thawed apps too).
    public var freezes = 0
    /// Pages of the budget written to flash by the freezer (at most what the budget had left each
    /// time), and every byte written, `freeze:`'s too (which the budget does not count).
    public var pagesWritten: Int64 = 0
    public var bytesWritten: Bytes = 0
    /// Intervals started after the first: one every 24 h of the run, or under xnu-4903 and
    /// xnu-6153 one at the freezer's first budget check 24 h or more after the last began
    /// (``XNUSettings/freezeIntervalStartsAtCheck``).
    public var intervalsStarted = 0
    /// Pages the budget had left at the end of the run.
    public var budgetRemainingPages: Int64 = 0
    public var budgetRemainingBytes: Bytes = 0
    /// Times the budget ran out (at most once per interval).
    public var budgetExhaustions = 0
    /// When it first ran out; nil when it never did.
    public var firstExhaustedAtUs: Microseconds?
    /// Frozen apps read back into RAM (`memorystatus_thaw_count`), and the bytes they read.
    public var thaws = 0
    public var bytesReadBack: Bytes = 0
    public var skips = FreezeSkipCounts()

    public init(dailyBudgetBytes: Bytes, pageSize: Bytes) {
        self.dailyBudgetBytes = dailyBudgetBytes
        self.pageSize = pageSize
    }
}
