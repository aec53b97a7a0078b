/// Ending an app (spec §6): every exit, for any reason, and the jetsam snapshot of a memory kill.
///
/// Triggers: `quit`; reclaiming, and a demand that still does not fit (`memoryPressure`); a demand
/// past the app limit (`memoryLimit`); the background-task limit, fetch and push windows and the
/// enter-background watchdog; a post to a dangling observer (`badAccess`); suspension with a file
/// lock held (`suspendedWithLockedFile`) and the background CPU limit (`cpuResourceLimit`).
extension Simulator {
    /// Ends app `i` with `reason`. No callback: callers that owe one deliver it first.
    /// `requested` is the footprint a memory-limit kill asked for, for the jetsam snapshot;
    /// `evicted` says a reclaim took the app while suspended or compressed.
    mutating func kill(_ i: Int, _ reason: ExitReason, requested: Bytes?, evicted: Bool = false) {
        // An app that posted to a dangling observer in this step has already crashed (spec §7).
        if reason != .badAccess, apps[i].objects.pendingCrash != nil { return kill(i, .badAccess, requested: nil) }
        if reason.jetsamReason != nil, options.keepsHistory {
            var snapshot = Optional(jetsamSnapshot(killing: i, reason, requested: requested))
            if let sinkRef {
                sinkRef._withUnsafeGuaranteedRef { $0.sink.record(snapshot.take()!) }
            } else {
                jetsamEvents.append(snapshot.take()!)
            }
        }
        let from = apps[i].state
        setState(i, .notRunning, cause: evicted ? .evicted : .exit(reason))
        setFootprint(i, 0)
        endObjects(i)
        if foreground == i { foreground = nil }
        let tokens = AppRuntime.Tokens(life: makeToken(), foreground: makeToken(), background: makeToken())
        apps[i].endLife(reason, tokens: tokens)
        if reason == .userQuit {
            apps[i].userQuit = true
            apps[i].fetchWakeToken = makeToken()
        } else if from.isForeground && entersBackground {
            // A system kill in the foreground counts as leaving it (spec §2.2): the app stays
            // eligible for its fetch wake, as it would be had it been killed in the background.
            apps[i].lastForegroundUs = now
            scheduleFetchWake(i)
        }
        // Counted by index; `finish` turns the counts into the reports' dictionaries.
        apps[i].exits[reason.index] += 1
        if from.isForeground { apps[i].foregroundExits[reason.index] += 1 }
        terminations[reason.index] += 1
        record(.exit(reason, from: from), i)
    }

    /// The report of a memory kill in iOS's shape (issue 16): every app in memory, frozen ones
    /// included, with a pid, its band and its states in iOS's words; a per-process-limit victim's
    /// resident pages are its limit, as real reports show them.
    func jetsamSnapshot(killing killed: Int, _ reason: ExitReason, requested: Bytes?) -> JetsamEvent {
        let pageSize = workload.device.pageSize
        // Sorted as small keys first (largest first, ties by name: `nameRank`), so the processes
        // are built once, in order.
        var order: [(negatedBytes: Bytes, rank: Int, app: Int)] = []
        order.reserveCapacity(apps.count)
        for j in apps.indices where apps[j].state.isResident || apps[j].state == .compressed || j == killed {
            // A memoryLimit victim shows what it asked for, capped at the per-app limit: exactly the
            // limit when it passed it (as real reports show), its demand when memory ran out first.
            let bytes = j == killed && reason == .memoryLimit
                ? min(requested ?? workload.device.appLimit, workload.device.appLimit) : apps[j].footprint
            order.append((-bytes, nameRank[j], j))
        }
        order.sort { ($0.negatedBytes, $0.rank) < ($1.negatedBytes, $1.rank) }
        // Appended in place (`map` builds each process and then copies it into the array).
        var processes: [JetsamEvent.Process] = []
        processes.reserveCapacity(order.count)
        for (negatedBytes, _, j) in order {
            let bytes = -negatedBytes
            let state = apps[j].state
            processes.append(JetsamEvent.Process(
                pid: 300 + 7 * j, priority: policyCandidate(j).band ?? jetsamBands.band(state, playingAudio: apps[j].playing),
                name: apps[j].spec.id, rpages: (bytes + pageSize - 1) / pageSize,
                states: state.jetsamStates(playingAudio: apps[j].playing),
                reason: j == killed ? reason.jetsamReason : nil))
        }
        return JetsamEvent(atUs: now, killed: apps[killed].spec.id, exitReason: reason,
                           largestProcess: apps[order.first?.app ?? killed].spec.id,
                           pageSize: pageSize, processes: processes)
    }
}
