/// Processes that are not apps (spec §5): daemons, extensions and system processes, resident
/// from the start of the run in their jetsam band and counted in `used`. Under `xnu` they end by
/// the highwater pass (`highwater`) and by band when memory is reclaimed (`memoryPressure`);
/// under `seed-2015` and on a Mac their memory is fixed.
///
/// Triggers: the start of the run (`startProcesses`); `allocate`/`free` on a process key;
/// `push: APP` for the notification service extensions tied to the app (`wakeServiceExtensions`)
/// and the end of each push (`servicePushDone`); after every occurrence under `xnu`
/// (`runHighwaterPass`); reclaiming (Reclaiming.swift).
extension Simulator {
    /// Whether processes can grow, shrink and be killed: under a policy with bands (`xnu`) on a phone.
    var processesAreLive: Bool { hasBands && limitsMemory }

    /// Puts every process in memory at time 0.
    mutating func startProcesses() {
        guard !processes.isEmpty else { return }
        for k in processes.indices { used += processes[k].resident }
        processMemoryChanged()
    }

    /// `used` changed because of a process: the series, the peak and the pressure level follow.
    mutating func processMemoryChanged() {
        if let sinkRef {
            let (now, used, compressed, pool) = (now, used, compressedUsed, pool.bytes)
            sinkRef._withUnsafeGuaranteedRef {
                $0.sink.memoryChanged(atUs: now, app: -1, appBytes: 0, usedBytes: used, compressedBytes: compressed,
                                      compressorBytes: pool)
            }
        } else if options.keepsHistory {
            usedSeries.record(now, used)
        }
        if used > summary.peakUsedBytes { summary.peakUsedBytes = used }
        updateLevel()
    }

    /// `allocate: PROCESS` (spec §5): the process demands `bytes` like an app; past its fatal
    /// limit it is killed for `per-process-limit` (Limits.swift), and for page shortage when
    /// nothing below frees enough.
    mutating func allocate(process k: Int, _ bytes: Bytes, _ action: ScriptAction) {
        guard processesAreLive else { return ignoredProcess(action, k, .fixedMemory) }
        guard processes[k].alive else { return ignoredProcess(action, k, .processEnded) }
        guard bytes > 0 else { return }
        if killIfOverLimit(process: k, adding: bytes) { return }
        if level == .normal, level(for: used + bytes) > .normal {
            summary.memoryWarnings += 1
            sendMemoryWarnings(cause: .pressure)
        }
        if used + bytes > jetsamLimit { reclaim(for: nil, process: k, bytes) }
        guard processes[k].alive else { return }
        if used + bytes > jetsamLimit { return killProcess(k, .memoryPressure) }
        processes[k].resident += bytes
        used += bytes
        processMemoryChanged()
    }

    /// `free: PROCESS`: the process gives back up to `bytes` (never below nothing).
    mutating func free(process k: Int, _ bytes: Bytes, _ action: ScriptAction) {
        guard processesAreLive else { return ignoredProcess(action, k, .fixedMemory) }
        guard processes[k].alive else { return ignoredProcess(action, k, .processEnded) }
        release(process: k, bytes)
    }

    /// Process `k` gives back up to `bytes`.
    mutating func release(process k: Int, _ bytes: Bytes) {
        let freed = min(bytes, processes[k].resident)
        guard freed > 0 else { return }
        processes[k].resident -= freed
        used -= freed
        processMemoryChanged()
    }

    /// `push: APP` wakes the notification service extensions tied to the app (``ProcessSpec/PushService``):
    /// one that ended is launched again with its declared resident size (reclaiming for it as
    /// for any allocation; with no room it stays ended), then it holds its push's allocation
    /// (killed past its fatal limit, `per-process-limit`) until the push's time is over.
    mutating func wakeServiceExtensions(for i: Int, _ action: ScriptAction) {
        for k in processes.indices {
            guard let service = processes[k].spec.pushService, service.app == apps[i].spec.id else { continue }
            guard processesAreLive else {
                ignoredProcess(action, k, .fixedMemory)
                continue
            }
            if !processes[k].alive { relaunch(process: k) }
            guard processes[k].alive else { continue }
            let life = processes[k].life
            allocate(process: k, service.allocates, action)
            guard processes[k].alive, processes[k].life == life else { continue }
            schedule(at: now + service.timeUs, .servicePushDone(process: k, bytes: service.allocates, life: life))
        }
    }

    /// An ended process starts again with its declared resident size, if memory can be made for it.
    mutating func relaunch(process k: Int) {
        let bytes = processes[k].spec.resident
        if used + bytes > jetsamLimit { reclaim(for: nil, process: k, bytes) }
        guard used + bytes <= jetsamLimit else { return }
        processes[k].alive = true
        processes[k].life &+= 1
        processes[k].resident = bytes
        used += bytes
        processMemoryChanged()
    }

    /// A notification service extension's push is done: it gives back what the push held, unless
    /// it ended since.
    mutating func servicePushDone(_ k: Int, _ bytes: Bytes, _ life: UInt64) {
        guard processes[k].alive, processes[k].life == life else { return }
        release(process: k, bytes)
    }

    /// Whether available memory is at or under the pressure threshold, where xnu's highwater
    /// pass runs (`memorystatus_avail_pages_below_pressure`, see ``XNUSettings/pressureThreshold``).
    func belowPressure(availableBytes: Bytes) -> Bool {
        guard let x = policy.settings.xnu else { return false }
        return Double(availableBytes) <= x.pressureThreshold * Double(workload.device.ram)
    }

    /// The next process over its high-water mark, lowest band first and, within a band, in the
    /// order it entered it (processes are there from the start: in workload order), as
    /// `memorystatus_kill_hiwat_proc` walks the bands from `memorystatus_get_first_proc_locked`
    /// and skips a process whose footprint is not above its limit (`footprint_in_bytes <=
    /// memlimit_in_bytes`), xnu-8792.41.9 bsd/kern/kern_memorystatus.c:6027-6068.
    func nextOverHighWaterMark() -> Int? {
        var best: Int?
        for k in processes.indices where processes[k].alive {
            guard let mark = processes[k].spec.highWaterMark, processes[k].resident > mark else { continue }
            if best == nil || processes[k].spec.band < processes[best!].spec.band { best = k }
        }
        return best
    }

    /// xnu's highwater pass (spec §5): while available memory is under the pressure threshold,
    /// one process over its high-water mark dies after another (`memorystatus_act_on_hiwat_processes`,
    /// xnu-8792.41.9 bsd/kern/kern_memorystatus.c:3648-3666, called first by the jetsam thread).
    /// Run after every occurrence under `xnu` when the workload has processes.
    mutating func runHighwaterPass() {
        while belowPressure(availableBytes: appMemory - used), let k = nextOverHighWaterMark() {
            killProcess(k, .highwater)
        }
    }

    /// Ends process `k` with `reason` (`highwater`, `memoryPressure` by band, or `memoryLimit` past
    /// its fatal limit, having asked for `requested` in all), with the jetsam snapshot of the kill.
    mutating func killProcess(_ k: Int, _ reason: ExitReason, requested: Bytes? = nil) {
        recordSnapshot(killing: apps.count + k, reason, requested: requested)
        let bytes = processes[k].resident
        processes[k].alive = false
        processes[k].resident = 0
        used -= bytes
        terminations[reason.index] += 1
        recordProcess(.processExit(reason, kind: processes[k].spec.kind, band: processes[k].spec.band, bytes: bytes), k)
        processMemoryChanged()
    }

    /// Records what happened to process `k` now (an event named by its key, with no app index).
    mutating func recordProcess(_ payload: consuming SimEvent.Payload, _ k: Int) {
        guard options.keepsHistory else { return }
        var handed = Optional(SimEvent(atUs: now, app: processes[k].spec.id, payload))
        guard let sinkRef else { return events.append(handed.take()!) }
        sinkRef._withUnsafeGuaranteedRef { $0.sink.record(handed.take()!, app: nil) }
    }

    mutating func ignoredProcess(_ action: ScriptAction, _ k: Int, _ why: IgnoredReason) {
        recordProcess(.ignored(action: action.name, reason: why), k)
    }

    /// What a policy sees of process `k` when it reclaims: its band, since the start of the run.
    func processCandidate(_ k: Int) -> PolicyCandidate {
        var c = PolicyCandidate(index: apps.count + k, state: .background, footprint: processes[k].resident,
                                lastForegroundUs: 0, isPlayingAudio: false, stateSinceUs: 0,
                                band: processes[k].spec.band, bandSinceUs: 0)
        c.process = k
        return c
    }
}

/// The simulator's view of one process that is not an app while a run goes on.
struct ProcessRuntime {
    let spec: ProcessSpec
    var resident: Bytes
    var alive = true
    /// Counts its launches: what a push's end must still match (a relaunch starts a new life).
    var life: UInt64 = 0

    init(spec: ProcessSpec) {
        self.spec = spec
        resident = spec.resident
    }
}
