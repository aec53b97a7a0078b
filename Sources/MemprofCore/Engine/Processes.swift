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
        for k in processes.indices { used += place(k) }
        processMemoryChanged()
    }

    /// Process `k`, alive with its spec's resident size, takes its RAM: in the in-RAM compressor
    /// when it has a ``ProcessSpec/compressorRatio`` and sits in the idle band under the
    /// compressor, otherwise uncompressed. Returns the RAM it holds (not yet in `used`).
    mutating func place(_ k: Int) -> Bytes {
        let spec = processes[k].spec
        let resident = processes[k].resident
        guard compressesInRAM, let ratio = spec.compressorRatio, spec.band == jetsamBands.idleBand else {
            processes[k].held = resident
            return resident
        }
        let held = Self.poolBytes(resident, ratio: ratio)
        // Pages compressed before the run are not counted as compressions of the run.
        pool.add(held, uncompressed: resident, pages: 0)
        processes[k].held = held
        processes[k].pooled = true
        return held
    }

    /// Process `k`'s pages leave the pool, decompressed when it runs (`decompress`); `used` is
    /// left to the caller. Returns the RAM it held.
    mutating func unpool(_ k: Int, decompress: Bool) -> Bytes {
        let held = processes[k].held
        guard processes[k].pooled else { return held }
        let resident = processes[k].resident
        pool.remove(held, uncompressed: resident, decompressedPages: decompress ? pages(resident) : 0)
        processes[k].pooled = false
        processes[k].held = resident
        return held
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
        // A process that runs decompresses first: what it holds in the pool is demanded too.
        let need = bytes + processes[k].resident - processes[k].held
        if level == .normal, level(for: used + need) > .normal {
            summary.memoryWarnings += 1
            sendMemoryWarnings(cause: .pressure)
        }
        if used + need > jetsamLimit { reclaim(for: nil, process: k, need) }
        guard processes[k].alive else { return }
        if used + need > killLimit { return killProcess(k, .memoryPressure) }
        _ = unpool(k, decompress: true)
        processes[k].resident += bytes
        processes[k].held += bytes
        used += need
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
        // A process that runs decompresses first; what it frees then leaves RAM.
        let held = unpool(k, decompress: true)
        processes[k].resident -= freed
        processes[k].held = processes[k].resident
        used += processes[k].held - held
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
            if !processes[k].alive { launchForPush(process: k) }
            guard processes[k].alive else { continue }
            let life = processes[k].lives
            allocate(process: k, service.allocates, action)
            guard processes[k].alive, processes[k].lives == life else { continue }
            schedule(at: now + service.timeUs, .servicePushDone(process: k, bytes: service.allocates, life: life))
        }
    }

    /// A push starts ended extension `k` again with its declared resident size, if memory can
    /// be made for it (reclaiming as for any allocation); with no room it stays ended.
    mutating func launchForPush(process k: Int) {
        let held = heldAtStart(k)
        if used + held > jetsamLimit { reclaim(for: nil, process: k, held) }
        guard used + held <= jetsamLimit else { return }
        start(process: k)
    }

    /// A notification service extension's push is done: it gives back what the push held, unless
    /// it ended since.
    mutating func servicePushDone(_ k: Int, _ bytes: Bytes, _ life: Int) {
        guard processes[k].alive, processes[k].lives == life else { return }
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
    /// A process launchd relaunches is started again ``launchdThrottleUs`` later (Relaunch).
    mutating func killProcess(_ k: Int, _ reason: ExitReason, requested: Bytes? = nil) {
        if !reason.isIdleKill { recordSnapshot(killing: apps.count + k, reason, requested: requested) }
        let bytes = processes[k].resident
        used -= unpool(k, decompress: false)
        processes[k].alive = false
        processes[k].resident = 0
        processes[k].held = 0
        terminations[reason.index] += 1
        recordProcess(.processExit(reason, kind: processes[k].spec.kind, band: processes[k].spec.band, bytes: bytes), k)
        processMemoryChanged()
        processes[k].lives += 1
        if processes[k].spec.relaunches {
            processes[k].diedAtUs = now
            schedule(at: now + Self.launchdThrottleUs, .relaunch(process: k, life: processes[k].lives))
        }
    }

    /// launchd's `ThrottleInterval` default: "by default, jobs will not be spawned more than once
    /// every 10 seconds" (launchd.plist(5), `ThrottleInterval`).
    static let launchdThrottleUs: Microseconds = 10 * .second

    /// launchd starts killed process `k` again: at once if it fits without a kill (`used` stays
    /// within ``jetsamLimit``), otherwise as soon as it does (``relaunchWaiting``). What a
    /// daemon is launched for is not modelled: memprof starts it again with its resident size
    /// once memory allows, the simplest rule (the model-choices article).
    mutating func relaunch(process k: Int, life: Int) {
        guard !processes[k].alive, processes[k].lives == life else { return }
        processes[k].waiting = true
        relaunchWaiting += 1
        relaunchWaiters()
    }

    /// Starts the processes waiting for launchd, in workload order, while each fits above the
    /// pressure threshold. O(processes) while any waits and memory allows one.
    mutating func relaunchWaiters() {
        guard relaunchWaiting > 0 else { return }
        for k in processes.indices where processes[k].waiting {
            guard used + heldAtStart(k) <= jetsamLimit else { continue }
            processes[k].relaunch.record(timeToRelaunchUs: now - processes[k].diedAtUs)
            start(process: k)
        }
    }

    /// The RAM process `k` takes when it starts: its resident size, or its share of the pool.
    func heldAtStart(_ k: Int) -> Bytes {
        let resident = processes[k].spec.resident
        return processes[k].spec.compressorRatio.map { Self.poolBytes(resident, ratio: $0) } ?? resident
    }

    /// Starts ended process `k` again with its declared resident size (launchd's relaunch, or a
    /// push waking an extension).
    mutating func start(process k: Int) {
        if processes[k].waiting {
            processes[k].waiting = false
            relaunchWaiting -= 1
        }
        let resident = processes[k].spec.resident
        processes[k].alive = true
        processes[k].resident = resident
        processes[k].bandSinceUs = now
        used += place(k)
        recordProcess(.processLaunch(kind: processes[k].spec.kind, band: processes[k].spec.band, bytes: resident), k)
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

    /// What a policy sees of process `k` when it reclaims: its band, since it started (the start
    /// of the run, or its relaunch).
    func processCandidate(_ k: Int) -> PolicyCandidate {
        var c = PolicyCandidate(index: apps.count + k, state: .background, footprint: processes[k].resident,
                                lastForegroundUs: 0, isPlayingAudio: false, stateSinceUs: processes[k].bandSinceUs,
                                band: processes[k].spec.band, bandSinceUs: processes[k].bandSinceUs)
        c.process = k
        return c
    }
}

/// The simulator's view of one process that is not an app while a run goes on.
struct ProcessRuntime {
    let spec: ProcessSpec
    /// Its footprint (what a jetsam report shows as `rpages`).
    var resident: Bytes
    /// The RAM it takes, counted in `used`: ``resident``, or its share of the pool while pooled.
    var held: Bytes = 0
    /// Whether its memory is in the in-RAM compressor.
    var pooled = false
    var alive = true
    /// When it entered its band: 0, or when launchd started it again.
    var bandSinceUs: Microseconds = 0
    /// Its deaths so far, to match a relaunch or a push's end with the life it belongs to.
    var lives = 0
    /// Killed, and waiting for memory to be relaunched.
    var waiting = false
    /// When it was last killed, and how soon launchd has started it again after its kills.
    var diedAtUs: Microseconds = 0
    var relaunch = RelaunchBehaviour()

    init(spec: ProcessSpec) {
        self.spec = spec
        resident = spec.resident
        held = spec.resident
    }
}

/// How soon launchd starts a process again after jetsam kills it, as launchd tells the kernel when
/// it spawns it (`posix_spawnattr_set_jetsam_ttr_np`, xnu-11417.121.6
/// libsyscall/wrappers/spawn/posix_spawn.c:2857-2930): each time to relaunch falls in a bucket
/// (up to 5 s, up to 10 s, longer: :2879-2888), and the bucket that first reached the highest
/// count makes the process's relaunch probability high, medium or low
/// (`POSIX_SPAWN_JETSAM_RELAUNCH_BEHAVIOR_*`, bsd/sys/spawn_internal.h:319-321). The reaper spares
/// high and medium (kern_memorystatus.c:6719-6730). memprof passes every relaunch of the run.
struct RelaunchBehaviour {
    enum Probability: Int { case high, medium, low }

    var counts = [0, 0, 0]
    var maxCount = -1
    /// Nil before the first relaunch (xnu's unknown, which the reaper takes).
    var probability: Probability?

    mutating func record(timeToRelaunchUs ttr: Microseconds) {
        let bucket = ttr <= 5 * .second ? 0 : ttr <= 10 * .second ? 1 : 2
        counts[bucket] += 1
        if counts[bucket] > maxCount {
            maxCount = counts[bucket]
            probability = Probability(rawValue: bucket)
        }
    }

    /// Whether the reaper may take it: a low or unknown relaunch probability
    /// (`MEMORYSTATUS_REAPER_REAP_RELAUNCH_MASK_DEFAULT`, kern_memorystatus.c:318-319).
    var isReapable: Bool { probability == nil || probability == .low }
}
