/// Reclaiming (spec §4, §5): when a demand does not fit, the policy orders the candidates and the
/// engine evicts or kills them until it does.
///
/// Triggers: a demand past `appMemory` (`demand`).
extension Simulator {
    /// Evicts or kills apps in the policy's order until `bytes` more fit (spec §5).
    mutating func reclaim(for demander: Int, _ bytes: Bytes) {
        let needed = used + bytes - appMemory
        let takesCompressed = policy.reclaimsCompressed
        var candidates: [PolicyCandidate] = []
        candidates.reserveCapacity(apps.count)
        for j in apps.indices where j != demander {
            let state = apps[j].state
            if state == .suspended || state == .background || (takesCompressed && state == .compressed) {
                candidates.append(policyCandidate(j))
            }
        }
        let ordered = policy.reclaimOrder(candidates)
        var freed: Bytes = 0
        // The decision's candidate list is history: a run without it counts the same without it.
        var considered: [SimEvent.Candidate] = []
        if options.keepsHistory { considered.reserveCapacity(ordered.count) }
        for c in ordered {
            let take = used + bytes > appMemory
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
            kill(c.index, .memoryPressure, requested: nil, evicted: evicted)
        }
        record(.reclaim(SimEvent.Reclaim(neededBytes: needed, freedBytes: freed, usedBytes: used, candidates: considered)),
               demander)
    }

    /// What a policy sees of app `i` now, with its jetsam band if the policy has bands.
    func policyCandidate(_ j: Int) -> PolicyCandidate {
        var c = PolicyCandidate(index: j, state: apps[j].state, footprint: apps[j].footprint,
                                lastForegroundUs: apps[j].lastForegroundUs, isPlayingAudio: apps[j].playing,
                                stateSinceUs: apps[j].stateSinceUs)
        if hasBands, let (band, since) = policy.band(of: c, nowUs: now) {
            c.band = band
            c.bandSinceUs = since
        }
        return c
    }
}
