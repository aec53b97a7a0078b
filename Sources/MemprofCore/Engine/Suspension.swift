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
    mutating func compress(_ i: Int, footprint: Bytes, freezer: FreezerDecision?) {
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
            // With its daily budget spent the freezer freezes nothing (FreezerBudget.swift): O(1).
            if freezerLedger?.isSpent(at: now) == true { return }
            let running = apps.indices.filter { apps[$0].state != .notRunning }.map(policyCandidate)
            let memory = MemoryView(ram: workload.device.ram, availableBytes: appMemory - used,
                                    compressedUsed: compressedUsed, flash: workload.device.flash)
            guard policy.freezerRuns(running, memory: memory) else { return }
            if let delay { freezerNextRunUs = now + delay }
            // Where a budget interval starts at a check, the freezer checks whenever it runs.
            if freezerLedger?.startsAtCheck == true { freezerLedger!.check(at: now) }
            guard let c = policy.nextToFreeze(running, memory: memory),
                  apps[c.index].state == .suspended else { return }
            let i = c.index
            markPassedOver(memory)
            let footprint = apps[i].footprint
            let decision = FreezerDecision(band: c.band ?? 0, suspendedNotFrozen: running.count { $0.state == .suspended },
                                           frozen: running.count { $0.state == .compressed },
                                           availableBytes: memory.availableBytes, usedBytes: used)
            compress(i, footprint: footprint, freezer: decision)
            debitFreeze(i, footprint: footprint)
            if delay != nil { return }
        }
    }

    /// `freeze: APP` (spec §5 `xnu`): compresses a suspended app to flash at once, whatever the
    /// freezer's own conditions, as the `kern.memorystatus_freeze` sysctl freezes the pid it is
    /// given (`sysctl_memorystatus_freeze`, xnu-8792.41.9 bsd/kern/kern_memorystatus_freeze.c:494
    /// and :677; xnu-2782.1.97 bsd/kern/kern_memorystatus.c:559 and :595); refused when the policy
    /// has no freezer, the app is not suspended, or it does not fit in the compressed store.
    mutating func freeze(_ i: Int, _ action: ScriptAction) {
        guard hasFreezer else { return ignored(action, .noFreezer) }
        guard apps[i].state == .suspended else { return ignored(action, .notSuspended(apps[i].state)) }
        let footprint = apps[i].footprint
        guard compressedUsed + footprint <= workload.device.flash else { return ignored(action, .flashFull) }
        if freezerLedger != nil {
            // The sysctl is refused with the budget spent (FreezerBudget.swift).
            freezerLedger!.check(at: now)
            if freezerLedger!.isSpent(at: now) {
                freezerLedger!.figures.refusedFreezes += 1
                return ignored(action, .freezerOutOfBudget)
            }
        }
        compress(i, footprint: footprint, freezer: nil)
        debitFreeze(i, footprint: footprint)
    }

    /// Brings a compressed app back into RAM as `state`. Returns false when the demand killed it.
    mutating func decompress(_ i: Int, into state: AppState) -> Bool {
        guard demand(i, apps[i].footprint) else { return false }
        let footprint = apps[i].footprint
        noteThaw(i)
        // Each page read back faults in from flash: a decompression (`DBG_COMPRESSOR_SWAPIN_FAULT`,
        // xnu-11215.1.10 osfmk/vm/vm_fault.c:2540-2541).
        if compressesInRAM { pool.decompressions += pages(flashReadBytes(i)) }
        setState(i, state, cause: .readBackFromFlash)
        record(.decompression(bytes: footprint), i)
        return true
    }
}
