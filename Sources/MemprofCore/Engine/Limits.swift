/// Per-process memory limits (spec §4, §5): each app's and process's fatal limit, active or
/// inactive by its state, as xnu keeps them.
///
/// xnu gives every process two limits, `p_memstat_memlimit_active` and
/// `p_memstat_memlimit_inactive`, each fatal or not (`P_MEMSTAT_MEMLIMIT_ACTIVE_FATAL`,
/// `P_MEMSTAT_MEMLIMIT_INACTIVE_FATAL`, set at xnu-11215.1.10 bsd/kern/kern_memorystatus.c:2598-2608).
/// The one in force is cached as `p_memstat_memlimit` when the process's state changes
/// (`_memstat_update_memlimit_locked`, :189-213), and for an app (a process that does not track
/// dirtiness) the active one applies while its band is at least `JETSAM_PRIORITY_FOREGROUND`
/// (`_memstat_proc_is_active_locked`, :4199-4227): in the foreground, or playing audio (band 120,
/// or 12 on the 0–21 scale). The limit goes to the task's ledger, which checks it at the next
/// allocation (osfmk/kern/ledger.c:1336-1369 sets it without checking the balance); passing a
/// fatal limit kills the process at once for `per-process-limit`
/// (`memorystatus_on_ledger_footprint_exceeded`, :4087-4122). Passing a limit that is not fatal
/// only marks the process for the highwater pass (Processes.swift: a process's `highWaterMark`).
///
/// Triggers: every demand of an app (`demand`, Memory.swift) and every `allocate` of a process
/// (Processes.swift). O(1), no allocation.
extension Simulator {
    /// App `i`'s fatal limit in its present state: the active limit in the foreground or while it
    /// plays audio, the inactive one otherwise.
    func memoryLimit(ofApp i: Int) -> Bytes {
        // Read in place: a copy of the spec would retain its collections on every demand.
        guard apps[i].spec.inactiveLimit != nil || apps[i].spec.increasedMemoryLimit else { return workload.device.appLimit }
        let active = apps[i].state == .active || apps[i].state == .inactive || apps[i].playing
        let activeLimit = apps[i].spec.increasedMemoryLimit ? workload.device.entitledAppLimit : workload.device.appLimit
        return active ? activeLimit : apps[i].spec.inactiveLimit ?? activeLimit
    }

    /// The share of its limit past which xnu warns an app (`PHYS_FOOTPRINT_WARNING_LEVEL`, 80%,
    /// xnu-11215.1.10 osfmk/kern/task.c:427).
    static let limitWarningPercent: Int64 = 80

    /// Under `xnu` on a phone, an app whose footprint just rose from `old` past 80% of its
    /// present limit gets a memory warning of its own (``MemoryWarningCause/limit``): the ledger
    /// warns on the way up only, once per rise, and again after the footprint has fallen back
    /// under the level. An app that runs no code (suspended, frozen) has no allocation to rise by.
    mutating func warnNearLimit(_ i: Int, from old: Bytes) {
        guard apps[i].state.runsCode else { return }
        let level = memoryLimit(ofApp: i) / 100 * Self.limitWarningPercent
        guard old < level, apps[i].footprint >= level else { return }
        warn(i, .limit)
    }

    /// The fatal limit of the process a jetsam snapshot numbers `j` (apps, then processes).
    func memoryLimit(ofSnapshotIndex j: Int) -> Bytes {
        j < apps.count ? memoryLimit(ofApp: j) : processes[j - apps.count].spec.limit ?? workload.device.appLimit
    }

    /// Whether process `k` would pass its fatal limit by taking `bytes` more; if so it is killed
    /// for `per-process-limit` and the answer is true.
    mutating func killIfOverLimit(process k: Int, adding bytes: Bytes) -> Bool {
        guard let limit = processes[k].spec.limit, processes[k].resident + bytes > limit else { return false }
        killProcess(k, .memoryLimit, requested: processes[k].resident + bytes)
        return true
    }
}
