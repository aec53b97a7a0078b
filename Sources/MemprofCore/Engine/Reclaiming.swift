/// Reclaiming (spec §4, §5): when a demand does not fit, the policy orders the candidates and the
/// engine evicts or kills them until it does.
///
/// Triggers: a demand past `jetsamLimit` (`demand`, or a process's `allocate`).
extension Simulator {
    /// Evicts or kills apps (and, under `xnu`, processes) in the policy's order until `bytes` more
    /// fit (spec §5). `demander` is the demanding app, or nil when process `demandingProcess` demands.
    ///
    /// Under `xnu`, processes over their high-water mark go first (the jetsam thread's highwater
    /// pass precedes its kills by band), then apps and processes together up the bands. The
    /// reclaim event lists the apps considered; each process killed has its own `processExit`.
    ///
    /// From xnu-11417 (``splitsIdleExit``) the idle band dies for `idle-exit` while `used` is past
    /// ``jetsamLimit`` (available memory under the idle threshold), and the bands above it for
    /// `vm-pageshortage` only while it is past ``killLimit`` (under the critical base).
    mutating func reclaim(for demander: Int?, process demandingProcess: Int?, _ bytes: Bytes) {
        let needed = used + bytes - jetsamLimit
        let takesCompressed = policy.reclaimsCompressed
        var freed: Bytes = 0
        let withProcesses = runsHighwater
        if withProcesses {
            while used + bytes > jetsamLimit, let k = nextOverHighWaterMark() {
                freed += processes[k].held
                killProcess(k, .highwater)
            }
        }
        let ordered = used + bytes > jetsamLimit
            ? policy.reclaimOrder(reclaimCandidates(except: demander, process: demandingProcess)) : []
        // The decision's candidate list is history: a run without it counts the same without it.
        var considered: [SimEvent.Candidate] = []
        if options.keepsHistory { considered.reserveCapacity(ordered.count) }
        let idleBand = jetsamBands.idleBand
        for c in ordered {
            let idle = splitsIdleExit && c.band == idleBand
            let take = used + bytes > (idle || !splitsIdleExit ? jetsamLimit : killLimit)
            let reason: ExitReason = idle ? .idleExit : .memoryPressure
            if let k = c.process {
                if take {
                    freed += processes[k].held
                    killProcess(k, reason)
                }
                continue
            }
            if options.keepsHistory {
                considered.append(SimEvent.Candidate(app: apps[c.index].spec.id, state: c.state,
                                                     footprintBytes: c.footprint,
                                                     lastForegroundUs: c.lastForegroundUs, taken: take, band: c.band))
            }
            guard take else { continue }
            // RAM given back: a frozen app under `xnu` frees flash, not RAM (jetsam picks by band,
            // not by what a kill returns). Equal to the footprint for every app `seed-2015` takes.
            freed += apps[c.index].residentBytes
            if apps[c.index].state == .compressed && !takesCompressed {
                violations.append("t=\(now): compressed app \(apps[c.index].spec.id) chosen for eviction")
            }
            let evicted = apps[c.index].state == .suspended || apps[c.index].state == .compressed
            if evicted {
                summary.evictions += 1
                apps[c.index].stats.evictions += 1
                record(.eviction(bytes: c.footprint), c.index)
            }
            kill(c.index, reason, requested: nil, evicted: evicted)
        }
        if withProcesses, used + bytes > killLimit { freed += killLargerInForegroundBand(bytes, than: demander, process: demandingProcess) }
        let decision = SimEvent.Reclaim(neededBytes: needed, freedBytes: freed, usedBytes: used, candidates: considered)
        if let demander {
            record(.reclaim(decision), demander)
        } else if let demandingProcess {
            recordProcess(.reclaim(decision), demandingProcess)
        }
    }

    /// What jetsam may take besides the demander (app `demander` or process `demandingProcess`):
    /// suspended and background apps, frozen ones where the policy takes them, and under `xnu` on
    /// a phone every live process.
    func reclaimCandidates(except demander: Int?, process demandingProcess: Int?) -> [PolicyCandidate] {
        let takesCompressed = policy.reclaimsCompressed
        var candidates: [PolicyCandidate] = []
        candidates.reserveCapacity(apps.count + (runsHighwater ? processes.count : 0))
        for j in apps.indices where j != demander {
            let state = apps[j].state
            if state == .suspended || state == .background || (takesCompressed && state == .compressed) {
                candidates.append(policyCandidate(j))
            }
        }
        if runsHighwater {
            for k in processes.indices where processes[k].alive && k != demandingProcess {
                candidates.append(processCandidate(k))
            }
        }
        return candidates
    }

    /// The bands below did not free enough and the demander sits in the foreground band: xnu sorts
    /// that band largest first before its kill loop walks it (`memorystatus_sort_bucket_locked`,
    /// xnu-8792.41.9 bsd/kern/kern_memorystatus.c:1073-1092, by process when there are no
    /// coalitions, called at :5593-5595 before the kills), so the processes of the band larger
    /// than the demander die first, largest first (`vm-pageshortage`), until the demand fits; the
    /// demander dies when its turn comes (the caller). memprof has no coalitions: each process is
    /// its own. Returns the bytes freed.
    mutating func killLargerInForegroundBand(_ bytes: Bytes, than demander: Int?, process demandingProcess: Int?) -> Bytes {
        let band = jetsamBands.foregroundBand
        let own: Bytes
        if let demander, apps[demander].state.isForeground {
            own = apps[demander].footprint
        } else if let k = demandingProcess, processes[k].spec.band == band {
            own = processes[k].resident
        } else {
            return 0
        }
        let larger = processes.indices.filter {
            $0 != demandingProcess && processes[$0].alive && processes[$0].spec.band == band && processes[$0].resident > own
        }.sorted { (processes[$0].resident, -$0) > (processes[$1].resident, -$1) }
        var freed: Bytes = 0
        for k in larger where used + bytes > killLimit {
            freed += processes[k].held
            killProcess(k, .memoryPressure)
        }
        return freed
    }

    /// What a policy sees of app `i` now, with its jetsam band if the policy has bands.
    func policyCandidate(_ j: Int) -> PolicyCandidate {
        var c = PolicyCandidate(index: j, state: apps[j].state, footprint: apps[j].footprint,
                                lastForegroundUs: apps[j].lastForegroundUs, isPlayingAudio: apps[j].playing,
                                stateSinceUs: apps[j].stateSinceUs)
        c.suspendedSinceUs = apps[j].suspendedSinceUs
        c.frozen = apps[j].frozen
        c.refreezeEligible = apps[j].refreezeEligible
        c.demotedAtUs = apps[j].demotedAtUs
        if swapCap != nil { c.storeBytes = storeBytes(j) }
        if hasBands, let (band, since) = policy.band(of: c, nowUs: now) {
            c.band = band
            c.bandSinceUs = since
        }
        return c
    }
}
