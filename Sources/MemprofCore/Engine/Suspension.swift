/// Suspension and compression (spec §2.1, §5): an idle background app is suspended and, by the
/// policy's rule, compressed to flash; the `xnu` freezer compresses more; a compressed app is read
/// back into RAM when it is needed.
///
/// Triggers: the end of whatever kept an app running (a handler, task, audio, location, a VoIP
/// call or keep-alive); after every occurrence under a policy with a freezer (`runFreezer`, under
/// the daily budget of FreezerBudget.swift where the era has one); a resume or wake of a
/// compressed app (`decompress`).
extension Simulator {
    /// Suspends a background app with nothing left to run, and compresses it if the policy says
    /// so. `cause` is what just ended (the state's cause when the app is suspended).
    mutating func suspendIfIdle(_ i: Int, after cause: StateCause?) {
        // Never on a Mac (spec §3); an app about to crash (spec §7) ends from `background`.
        guard apps[i].state == .background, !apps[i].keepsRunning, suspendsIdleApps,
              apps[i].objects.pendingCrash == nil else { return }
        // A file lock still held at suspension: iOS kills the app then (0xdead10cc).
        if apps[i].holdsFileLock { return kill(i, .suspendedWithLockedFile, requested: nil) }
        releaseForBackground(i, atSuspension: true)
        setState(i, .suspended, cause: cause)
        if freezerLedger != nil { noteSuspendedWhileSpent(i) }
        let footprint = apps[i].footprint
        apps[i].suspendedFootprints.add(footprint)
        if policy.shouldCompress(footprint: footprint, compressedUsed: compressedUsed,
                                 flash: workload.device.flash) {
            compress(i, footprint: footprint, freezer: nil)
        }
    }

    /// Moves a suspended app to flash and records it, with the `xnu` freezer's reasons if it chose.
    /// Under `xnu` it is marked frozen (`P_MEMSTAT_FROZEN`); a refreeze uses up its eligibility.
    mutating func compress(_ i: Int, footprint: Bytes, freezer: FreezerDecision?) {
        if hasFreezer {
            apps[i].frozen = true
            apps[i].refreezeEligible = false
            apps[i].demotedAtUs = nil
        }
        setState(i, .compressed, cause: .compressed)
        summary.compressions += 1
        apps[i].stats.compressions += 1
        let compressedAfter = compressedUsed
        record(.compression(bytes: footprint, compressedBytes: compressedAfter, freezer: freezer), i)
    }

    /// The `xnu` freezer (spec §5), run by the engine after every occurrence it handles (a script
    /// action or anything the simulation scheduled) under a policy with a freezer: it freezes
    /// (compresses) one app after another for as long as the policy names one. Where its era
    /// paces its thread (``XNUSettings/freezerRunDelayUs``, from xnu-4903) it freezes at most one
    /// app a run, and a run that found the freezer's conditions met holds the next one off for
    /// the delay: the next occurrence at or after it runs the freezer again.
    mutating func runFreezer() {
        if freezerLedger != nil { freezerLedger!.roll(to: now) }
        let delay = workload.policy.xnu?.freezerRunDelayUs
        if delay != nil, now < freezerNextRunUs { return }
        while true {
            // With its daily budget spent the freezer freezes nothing (FreezerBudget.swift): O(1),
            // unless a thawed app may be demoted.
            if freezerLedger?.isSpent(at: now) == true { return demoteWhenSpent(delay: delay) }
            let running = apps.indices.filter { apps[$0].state != .notRunning }.map(policyCandidate)
            let memory = MemoryView(ram: workload.device.ram, availableBytes: appMemory - used,
                                    compressedUsed: storeUsed, flash: storeCapacity)
            guard policy.freezerRuns(running, memory: memory) else { return }
            if let delay { freezerNextRunUs = now + delay }
            // Where a budget interval starts at a check, the freezer checks whenever it runs.
            if freezerLedger?.startsAtCheck == true { freezerLedger!.check(at: now) }
            guard let c = policy.nextToFreeze(running, memory: memory),
                  apps[c.index].state == .suspended else { return }
            let i = c.index
            // The in-RAM compressor low on space: the freeze of its pick fails and the freezer
            // stops (CompressorLimits).
            if poolLowOnSpace {
                if freezerLedger != nil { freezerLedger!.skip(i, .noCompressorSpace, suspendedSinceUs: apps[i].suspendedSinceUs) }
                return
            }
            markPassedOver()
            let footprint = apps[i].footprint
            let decision = FreezerDecision(band: c.band ?? 0, suspendedNotFrozen: running.count { $0.state == .suspended && !$0.frozen },
                                           frozen: running.count { $0.frozen },
                                           availableBytes: memory.availableBytes, usedBytes: used)
            compress(i, footprint: footprint, freezer: decision)
            debitFreeze(i, footprint: footprint)
            if delay != nil { return }
        }
    }

    /// The freezer would run but its budget is spent: where the era does
    /// (``XNUSettings/demotesWhenSpent``), it demotes the first thawed app of the frozen band to
    /// the idle band, which keeps it frozen, and waits for its next run. O(apps) when a thawed app
    /// keeps the frozen band, O(1) otherwise.
    mutating func demoteWhenSpent(delay: Microseconds?) {
        guard policy.settings.xnu?.demotesWhenSpent == true,
              apps.contains(where: { $0.refreezeEligible && $0.demotedAtUs == nil }) else { return }
        let running = apps.indices.filter { apps[$0].state != .notRunning }.map(policyCandidate)
        let memory = MemoryView(ram: workload.device.ram, availableBytes: appMemory - used,
                                compressedUsed: storeUsed, flash: storeCapacity)
        guard policy.freezerRuns(running, memory: memory) else { return }
        if let delay { freezerNextRunUs = now + delay }
        let frozenBand = policy.settings.xnu?.frozenBand
        guard let c = running.filter({ $0.refreezeEligible && $0.band == frozenBand })
            .min(by: { ($0.bandSinceUs, $0.index) < ($1.bandSinceUs, $1.index) }) else { return }
        apps[c.index].demotedAtUs = now
        apps[c.index].refreezeEligible = false
    }

    /// `freeze: APP` (spec §5 `xnu`): writes an app to flash at once, whatever the freezer's own
    /// conditions, as the `kern.memorystatus_freeze` sysctl freezes the pid it is given
    /// (`sysctl_memorystatus_freeze`, xnu-8792.41.9 bsd/kern/kern_memorystatus_freeze.c:494 and
    /// :677; xnu-2782.1.97 bsd/kern/kern_memorystatus.c:559 and :595). The sysctl ignores the daily
    /// budget and does not ask that the process be suspended ("We don't care about the global
    /// freezer budget", "The jetsam path also verifies that the process is a suspended App. We
    /// don't care about that here": xnu-11215.1.10 kern_memorystatus_freeze.c:571-575 and :591,
    /// the same from xnu-4903.221.2 bsd/kern/kern_memorystatus.c:1279 and :1300; before, there is
    /// no budget and no such check, xnu-3789.1.32 :1098-1170). So it neither asks nor debits the
    /// budget. A suspended app goes to flash; a running one (in the foreground or the background)
    /// is marked frozen and lifted to the frozen band like a thawed one, its pages written and, as
    /// it runs, read straight back (memprof has no working set: it keeps them resident). Refused
    /// when the policy has no freezer, the app is not running or is frozen on flash already, the
    /// in-RAM compressor is low on space, or the freezer's swap has no room (`ENOSPC`, :614-619).
    mutating func freeze(_ i: Int, _ action: ScriptAction) {
        guard hasFreezer else { return ignored(action, .noFreezer) }
        let state = apps[i].state
        guard state != .notRunning else { return ignored(action, .notRunning) }
        guard state != .compressed else { return ignored(action, .alreadyFrozen) }
        guard !poolLowOnSpace else { return ignored(action, .compressorLowOnSpace) }
        guard storeFits(i) else { return ignored(action, .flashFull) }
        let footprint = apps[i].footprint
        if state == .suspended {
            compress(i, footprint: footprint, freezer: nil)
        } else {
            apps[i].frozen = true
            summary.compressions += 1
            apps[i].stats.compressions += 1
            record(.compression(bytes: footprint, compressedBytes: compressedUsed, freezer: nil), i)
        }
        if freezerLedger != nil { freezerLedger!.recordForced(i, footprint: footprint) }
    }

    /// Brings a compressed app back into RAM as `state`. Returns false when the demand killed it.
    mutating func decompress(_ i: Int, into state: AppState) -> Bool {
        guard demand(i, apps[i].footprint) else { return false }
        let footprint = apps[i].footprint
        noteThaw(i)
        // Each page read back faults in from flash: a decompression (`DBG_COMPRESSOR_SWAPIN_FAULT`,
        // xnu-11215.1.10 osfmk/vm/vm_fault.c:2540-2541).
        if compressesInRAM { pool.decompressions += pages(flashReadBytes(i)) }
        // From xnu-4903 a resumed frozen app stays frozen ("could have state on disk AND so will
        // deserve some protection in the jetsam bands") and may be refrozen
        // (`memorystatus_on_resume`, xnu-11215.81.4 bsd/kern/kern_memorystatus.c:3500-3540;
        // xnu-4903.221.2 :3732-3735); before, the resume clears `P_MEMSTAT_FROZEN`.
        if policy.settings.xnu?.frozenBand != nil {
            apps[i].refreezeEligible = true
        } else {
            apps[i].frozen = false
        }
        setState(i, state, cause: .readBackFromFlash)
        record(.decompression(bytes: footprint), i)
        return true
    }
}
