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
        if reason.jetsamReason != nil, !reason.isIdleKill { recordSnapshot(killing: i, reason, requested: requested) }
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
            // The system launches no app the user swiped away for its requests (Scheduler.swift).
            for kind in Self.scheduledKinds { apps[i][due: kind] = nil }
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

    /// Takes the jetsam snapshot of a memory kill of `killed` (an app, or `apps.count + k` for
    /// process `k`), if the run keeps its history: to the sink, or into the result.
    mutating func recordSnapshot(killing killed: Int, _ reason: ExitReason, requested: Bytes?) {
        guard options.keepsHistory else { return }
        var snapshot = Optional(jetsamSnapshot(killing: killed, reason, requested: requested))
        if let sinkRef {
            sinkRef._withUnsafeGuaranteedRef { $0.sink.record(snapshot.take()!) }
        } else {
            jetsamEvents.append(snapshot.take()!.event(appIDs: jetsamNames))
        }
    }

    /// The report of a memory kill in iOS's shape: every app in memory, frozen ones
    /// included, and every process that is not an app still alive, with a pid, its band and its
    /// states in iOS's words; a per-process-limit victim's resident pages are its limit, as real
    /// reports show them. Processes by index (``JetsamSnapshot``, apps first, then processes at
    /// `apps.count + k`): nothing is retained or copied per process.
    func jetsamSnapshot(killing killed: Int, _ reason: ExitReason, requested: Bytes?) -> JetsamSnapshot {
        let pageSize = workload.device.pageSize
        let appCount = apps.count
        let total = appCount + processes.count
        // A memoryLimit victim shows what it asked for, capped at its limit (Limits.swift): exactly
        // the limit when it passed it (as real reports show), its demand when memory ran out first.
        func shown(_ j: Int) -> Bytes {
            if j == killed && reason == .memoryLimit {
                let limit = memoryLimit(ofSnapshotIndex: j)
                return min(requested ?? limit, limit)
            }
            return j >= appCount ? processes[j - appCount].resident : apps[j].footprint
        }
        // Largest first, ties by name (`nameRank`), then by index: sorted as one integer each, the
        // bytes (counted down from `limit`) above the rank above the index, so the processes are
        // built once, in order. The index, in the low bits, is always whole: bytes past `limit`
        // (more than 2^50 for 50 apps) are sorted by comparing the apps instead.
        let bits = UInt64.bitWidth - UInt64(total).leadingZeroBitCount
        let mask = UInt64(1) << bits - 1
        let limit: Bytes = 2 * bits < 62 ? 1 << (62 - 2 * bits) : 0
        var order: [UInt64] = []
        order.reserveCapacity(total)
        var fits = true
        for j in 0..<total {
            if j < appCount {
                guard apps[j].state.isResident || apps[j].state == .compressed || j == killed else { continue }
            } else {
                guard processes[j - appCount].alive || j == killed else { continue }
            }
            let bytes = shown(j)
            if bytes < 0 || bytes >= limit { fits = false }
            order.append(UInt64(truncatingIfNeeded: limit &- 1 &- bytes) << (2 * bits) | UInt64(nameRank[j]) << bits | UInt64(j))
        }
        let inMemory = order.count
        let before: (UInt64, UInt64) -> Bool = fits ? { $0 < $1 } : { a, b in
            let (i, j) = (Int(a & mask), Int(b & mask))
            return (-shown(i), nameRank[i], i) < (-shown(j), nameRank[j], j)
        }
        if inMemory > JetsamEvent.listLimit {
            // The largest `listLimit` and the killed process (in place of the last of them when
            // it is not among them): a run of thousands of processes writes a bounded list per kill.
            order = Self.first(JetsamEvent.listLimit, of: order, by: before)
            if !order.contains(where: { Int($0 & mask) == killed }) {
                order[order.count - 1] = UInt64(killed)
            }
        } else {
            order.sort(by: before)
        }
        // Appended in place (`map` builds each process and then copies it into the array).
        var listed: [JetsamSnapshot.Process] = []
        listed.reserveCapacity(order.count)
        for key in order {
            let j = Int(key & mask)
            let rpages = (shown(j) + pageSize - 1) / pageSize
            if j >= appCount {
                let spec = processes[j - appCount].spec
                listed.append(JetsamSnapshot.Process(app: j, priority: spec.band, rpages: rpages, state: .background,
                                                        playingAudio: false, kind: spec.kind))
                continue
            }
            let state = apps[j].state
            let playing = apps[j].playing
            listed.append(JetsamSnapshot.Process(
                app: j, priority: policyCandidate(j).band ?? jetsamBands.band(state, playingAudio: playing),
                rpages: rpages, state: state, playingAudio: playing))
        }
        var unlisted: JetsamEvent.Unlisted?
        if inMemory > listed.count {
            // Every process in memory's pages, less the listed ones'.
            var pages: Int64 = 0
            for j in 0..<total {
                if j < appCount {
                    guard apps[j].state.isResident || apps[j].state == .compressed || j == killed else { continue }
                } else {
                    guard processes[j - appCount].alive || j == killed else { continue }
                }
                pages &+= (shown(j) + pageSize - 1) / pageSize
            }
            unlisted = JetsamEvent.Unlisted(processes: inMemory - listed.count,
                                            rpages: pages &- listed.reduce(0) { $0 &+ $1.rpages })
        }
        return JetsamSnapshot(atUs: now, killed: killed, exitReason: reason,
                              largestProcess: order.first.map { Int($0 & mask) } ?? killed,
                              pageSize: pageSize, processes: listed,
                              compressor: compressesInRAM ? pool.counters(pageSize: pageSize) : nil, unlisted: unlisted)
    }

    /// The first `count` of `keys` in the order `before` gives, in that order: a heap of the
    /// `count` first so far, each other key compared with its last (O(n log count), not a sort of all).
    static func first(_ count: Int, of keys: [UInt64], by before: (UInt64, UInt64) -> Bool) -> [UInt64] {
        var heap = Array(keys.prefix(count))
        // A max-heap by `before`: the root is the last of those kept.
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var top = i
                if l < heap.count && before(heap[top], heap[l]) { top = l }
                if r < heap.count && before(heap[top], heap[r]) { top = r }
                if top == i { return }
                heap.swapAt(i, top)
                i = top
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        for key in keys.dropFirst(count) where before(key, heap[0]) {
            heap[0] = key
            siftDown(0)
        }
        heap.sort(by: before)
        return heap
    }
}
