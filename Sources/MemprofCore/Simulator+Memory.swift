/// Memory: state and footprint bookkeeping, demands, warnings, reclaiming, kills (spec §4, §5).
extension Simulator {

    func level(for bytes: Bytes) -> PressureLevel {
        bytes >= criticalBytes ? .critical : bytes >= warningBytes ? .warning : .normal
    }

    /// Moves app `i` to `state`, keeping `used`, `compressedUsed`, the series and time in state right.
    mutating func setState(_ i: Int, _ state: AppState) {
        let old = apps[i].state
        guard old != state else { return }
        apps[i].timeInState[old.index] += now - apps[i].stateSinceUs
        apps[i].stateSinceUs = now
        let footprint = apps[i].footprint
        if old.isResident != state.isResident {
            used += state.isResident ? footprint : -footprint
        }
        if old == .compressed { compressedUsed -= footprint }
        if state == .compressed { compressedUsed += footprint }
        apps[i].state = state
        record(.transition, i) {
            $0.from = old
            $0.to = state
        }
        memoryChanged(i)
    }

    /// Sets app `i`'s footprint, keeping `used` and the series right.
    mutating func setFootprint(_ i: Int, _ footprint: Bytes) {
        let delta = footprint - apps[i].footprint
        guard delta != 0 else { return }
        apps[i].footprint = footprint
        switch apps[i].state {
        case .compressed: compressedUsed += delta
        case let s where s.isResident: used += delta
        default: break
        }
        if footprint > apps[i].stats.peakFootprintBytes { apps[i].stats.peakFootprintBytes = footprint }
        memoryChanged(i)
    }

    mutating func memoryChanged(_ i: Int) {
        apps[i].bytes.record(now, apps[i].residentBytes)
        usedSeries.record(now, used)
        compressedSeries.record(now, compressedUsed)
        if used > summary.peakUsedBytes { summary.peakUsedBytes = used }
        if compressedUsed > summary.peakCompressedBytes { summary.peakCompressedBytes = compressedUsed }
        if isMac { trackSwap() }
        let newLevel = level(for: used)
        if newLevel != level {
            summary.timeAtPressureUs[level] += now - levelSinceUs
            levelSinceUs = now
            level = newLevel
            if let last = levelChanges.last, last.atUs == now {
                levelChanges.removeLast()
            }
            if levelChanges.last?.level != newLevel {
                levelChanges.append(Timeline.LevelChange(atUs: now, level: newLevel))
            }
            var event = SimEvent(atUs: now, kind: .pressure)
            event.level = newLevel
            event.usedBytes = used
            record(event)
        }
    }

    /// App `i` needs `bytes` more (spec §4 "Demand"). Returns false when the app was killed instead.
    mutating func demand(_ i: Int, _ bytes: Bytes) -> Bool {
        // A Mac pages out instead (spec §3): no limit, no warning, no reclaiming.
        guard bytes > 0, !isMac else { return true }
        let own = apps[i].residentBytes
        if own + bytes > workload.device.appLimit {
            kill(i, .memoryLimit, requested: own + bytes)
            return false
        }
        // One warning per rise out of `normal`: while the level is above it no demand warns again,
        // and once it is `normal` (back down, or never left because the warned apps' releases
        // or a failed demand kept it there) the next rise warns.
        if level == .normal, level(for: used + bytes) > .normal {
            summary.memoryWarnings += 1
            sendMemoryWarnings(cause: "pressure")
        }
        if used + bytes > appMemory {
            reclaim(for: i, bytes)
        }
        if used + bytes > appMemory {
            kill(i, .memoryLimit, requested: own + bytes)
            return false
        }
        return true
    }

    /// How much of `bytes` app `i` can release without going under its floor (`minFootprint`).
    func releasable(_ i: Int, _ bytes: Bytes) -> Bytes {
        max(0, min(bytes, apps[i].footprint - apps[i].spec.footprintFloor))
    }

    /// A memory warning to every app that runs code; each releases its `onMemoryWarning.release`.
    mutating func sendMemoryWarnings(cause: String) {
        for i in apps.indices where apps[i].state.runsCode {
            deliver(.applicationDidReceiveMemoryWarning, to: i)
            apps[i].stats.memoryWarnings += 1
            let freed = releasable(i, apps[i].spec.memoryWarningRelease)
            setFootprint(i, apps[i].footprint - freed)
            record(.memoryWarning, i) {
                $0.detail = cause
                $0.freedBytes = freed
            }
        }
    }

    /// Evicts or kills apps in the policy's order until `bytes` more fit (spec §5).
    mutating func reclaim(for demander: Int, _ bytes: Bytes) {
        let needed = used + bytes - appMemory
        let takesCompressed = policy.reclaimsCompressed
        let candidates = apps.indices.compactMap { j -> PolicyCandidate? in
            let state = apps[j].state
            guard j != demander, state == .suspended || state == .background || (takesCompressed && state == .compressed)
            else { return nil }
            return policyCandidate(j)
        }
        let ordered = policy.reclaimOrder(candidates)
        var freed: Bytes = 0
        var considered: [SimEvent.Candidate] = []
        for c in ordered {
            let take = used + bytes > appMemory
            considered.append(SimEvent.Candidate(app: apps[c.index].spec.id, state: c.state,
                                                 footprintBytes: c.footprint,
                                                 lastForegroundUs: c.lastForegroundUs, taken: take, band: c.band))
            guard take else { continue }
            // RAM given back: a frozen app under `xnu` frees flash, not RAM (jetsam picks by band,
            // not by what a kill returns). Equal to the footprint for every app `seed-2015` takes.
            freed += apps[c.index].residentBytes
            if apps[c.index].state == .compressed && !takesCompressed {
                violations.append("t=\(now): compressed app \(apps[c.index].spec.id) chosen for eviction")
            }
            if apps[c.index].state == .suspended || apps[c.index].state == .compressed {
                summary.evictions += 1
                apps[c.index].stats.evictions += 1
                record(.eviction, c.index) { $0.bytes = c.footprint }
            }
            kill(c.index, .memoryPressure, requested: nil)
        }
        let usedAfter = used
        record(.reclaim, demander) {
            $0.neededBytes = needed
            $0.freedBytes = freed
            $0.usedBytes = usedAfter
            $0.candidates = considered
        }
    }

    /// What a policy sees of app `i` now, with its jetsam band if the policy has bands.
    func policyCandidate(_ j: Int) -> PolicyCandidate {
        var c = PolicyCandidate(index: j, state: apps[j].state, footprint: apps[j].footprint,
                                lastForegroundUs: apps[j].lastForegroundUs, isPlayingAudio: apps[j].playing,
                                stateSinceUs: apps[j].stateSinceUs)
        if let (band, since) = policy.band(of: c, nowUs: now) {
            c.band = band
            c.bandSinceUs = since
        }
        return c
    }

    /// The `xnu` freezer (spec §5), run by the engine after every occurrence it handles (a script
    /// action or anything the simulation scheduled) under a policy with a freezer: it freezes
    /// (compresses) one app after another for as long as the policy names one.
    mutating func runFreezer() {
        while true {
            let running = apps.indices.filter { apps[$0].state != .notRunning }.map(policyCandidate)
            let memory = MemoryView(ram: workload.device.ram, availableBytes: appMemory - used,
                                    compressedUsed: compressedUsed, flash: workload.device.flash)
            guard let c = policy.nextToFreeze(running, memory: memory),
                  apps[c.index].state == .suspended else { return }
            let i = c.index
            let footprint = apps[i].footprint
            let usedBefore = used
            let detail = "freezer: band \(c.band ?? 0), \(running.count { $0.state == .suspended }) suspended not frozen, "
                + "\(running.count { $0.state == .compressed }) frozen, \(memory.availableBytes) bytes available"
            compress(i, footprint: footprint, usedBefore: usedBefore, detail: detail)
        }
    }

    /// Ends app `i` with `reason`. No callback: callers that owe one deliver it first.
    /// `requested` is the footprint a memory-limit kill asked for, for the jetsam snapshot.
    mutating func kill(_ i: Int, _ reason: ExitReason, requested: Bytes?) {
        // An app that posted to a dangling observer in this step has already crashed (spec §7).
        if reason != .badAccess, apps[i].objects.pendingCrash != nil { return kill(i, .badAccess, requested: nil) }
        if reason.jetsamReason != nil {
            jetsamEvents.append(jetsamSnapshot(killing: i, reason, requested: requested))
        }
        let from = apps[i].state
        setState(i, .notRunning)
        setFootprint(i, 0)
        endObjects(i)
        if foreground == i { foreground = nil }
        apps[i].lifeToken = makeToken()
        apps[i].foregroundToken = makeToken()
        apps[i].backgroundToken = makeToken()
        apps[i].launchingInBackground = false
        apps[i].launchEndsUs = nil
        apps[i].leftDuringLaunch = false
        apps[i].enterBackgroundHandlerRunning = false
        apps[i].task = nil
        apps[i].fetchRun = nil
        apps[i].pushRun = nil
        apps[i].voipHandlerToken = nil
        apps[i].voipCallToken = nil
        apps[i].playing = false
        apps[i].tracking = false
        apps[i].lastExit = reason
        apps[i].releasedOnBackground = 0
        if reason == .userQuit {
            apps[i].userQuit = true
            apps[i].fetchWakeToken = makeToken()
        } else if from.isForeground && !isMac {
            // A system kill in the foreground counts as leaving it (spec §2.2): the app stays
            // eligible for its fetch wake, as it would be had it been killed in the background.
            apps[i].lastForegroundUs = now
            scheduleFetchWake(i)
        }
        apps[i].stats.exits[reason.rawValue, default: 0] += 1
        summary.terminations[reason.rawValue, default: 0] += 1
        record(.exit, i) {
            $0.reason = reason
            $0.from = from
        }
    }

    func jetsamSnapshot(killing killed: Int, _ reason: ExitReason, requested: Bytes?) -> JetsamEvent {
        let pageSize = workload.device.pageSize
        var processes: [(bytes: Bytes, process: JetsamEvent.Process)] = []
        for j in apps.indices where apps[j].state.isResident || j == killed {
            let bytes = j == killed ? (requested ?? apps[j].footprint) : apps[j].footprint
            var states: [String] = [apps[j].state.rawValue]
            if apps[j].state.isForeground { states.insert("frontmost", at: 0) }
            let process = JetsamEvent.Process(
                name: apps[j].spec.id, rpages: (bytes + pageSize - 1) / pageSize, states: states,
                reason: j == killed ? reason.jetsamReason : nil)
            processes.append((bytes, process))
        }
        processes.sort { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.process.name < $1.process.name }
        return JetsamEvent(atUs: now, killed: apps[killed].spec.id, exitReason: reason,
                           largestProcess: processes.first?.process.name ?? apps[killed].spec.id,
                           pageSize: pageSize, processes: processes.map(\.process))
    }

    /// Suspends a background app with nothing left to run, and compresses it if the policy says so.
    mutating func suspendIfIdle(_ i: Int) {
        // Never on a Mac (spec §3); an app about to crash (spec §7) ends from `background`.
        guard apps[i].state == .background, !apps[i].keepsRunning, !isMac,
              apps[i].objects.pendingCrash == nil else { return }
        setState(i, .suspended)
        let footprint = apps[i].footprint
        if policy.shouldCompress(footprint: footprint, compressedUsed: compressedUsed,
                                 flash: workload.device.flash) {
            compress(i, footprint: footprint, usedBefore: nil, detail: nil)
        }
    }

    /// Moves a suspended app to flash and records it; `usedBefore` and `detail` say why, for the
    /// xnu freezer.
    mutating func compress(_ i: Int, footprint: Bytes, usedBefore: Bytes?, detail: String?) {
        setState(i, .compressed)
        summary.compressions += 1
        apps[i].stats.compressions += 1
        let compressedAfter = compressedUsed
        record(.compression, i) {
            $0.bytes = footprint
            $0.compressedBytes = compressedAfter
            $0.usedBytes = usedBefore
            $0.detail = detail
        }
    }

    /// Brings a compressed app back into RAM as `state`. Returns false when the demand killed it.
    mutating func decompress(_ i: Int, into state: AppState) -> Bool {
        guard demand(i, apps[i].footprint) else { return false }
        let footprint = apps[i].footprint
        setState(i, state)
        record(.decompression, i) { $0.bytes = footprint }
        return true
    }

    /// Wakes a suspended or compressed app into `background`. Returns false when it could not be.
    mutating func wakeIntoBackground(_ i: Int) -> Bool {
        switch apps[i].state {
        case .compressed: return decompress(i, into: .background)
        case .suspended:
            setState(i, .background)
            return true
        case .notRunning: return false
        default: return true
        }
    }
}
