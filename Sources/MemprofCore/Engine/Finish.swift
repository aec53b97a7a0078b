/// Closing a run (spec §10): final accounting and the result.
///
/// Triggers: the end of the run's duration.
extension Simulator {
    mutating func finish() -> SimulationResult {
        summary.timeAtPressureUs[level] += now - levelSinceUs
        summary.terminations = ExitReason.counts(terminations, withHighwater: !processes.isEmpty)
        levelSinceUs = now
        var stats: [AppStats] = []
        var timeline = Timeline()
        var posted: [String: [String: Int]] = [:]
        var observers: [String: ObserverReport] = [:]
        if pagesOut { summary.swap = finishSwap() }
        if compressesInRAM {
            summary.compressor = pool.summary
            summary.compressor?.ratios = apps.map { .init(app: $0.spec.id, ratio: $0.spec.compressorRatio) }
        }
        if var ledger = freezerLedger {
            ledger.roll(to: now)
            summary.freezer = ledger.summary()
        }
        var intervals: [String: [StateInterval]] = [:]
        for i in apps.indices {
            apps[i].leaveState(at: now, keepsInterval: keepsIntervals)
            intervals[apps[i].spec.id] = apps[i].intervals
            var s = apps[i].stats
            for (k, state) in AppState.allCases.enumerated() {
                s.timeInStateUs[state.rawValue] = apps[i].timeInState[k]
            }
            s.resumeLatencyUs = LatencySummary(samples: apps[i].resumeLatencies)
            s.suspendedMemory = apps[i].suspendedFootprints.summary
            s.exits = ExitReason.counts(apps[i].exits)
            s.foregroundExits = ExitReason.counts(apps[i].foregroundExits)
            if options.checksInvariants {
                let total = apps[i].timeInState.reduce(0, +)
                if total != workload.durationUs {
                    violations.append("\(apps[i].spec.id): time in states adds up to \(total), not \(workload.durationUs)")
                }
            }
            stats.append(s)
            timeline.appBytes[apps[i].spec.id] = apps[i].bytes.pairs
            var counts: [String: Int] = [:]
            for callback in LifecycleCallback.allCases where apps[i].posted[callback.index] > 0 {
                let name = platform.notificationName(of: callback)
                counts[name] = apps[i].posted[callback.index]
            }
            posted[apps[i].spec.id] = counts
            observers[apps[i].spec.id] = observerReport(i)
        }
        timeline.usedBytes = usedSeries.pairs
        timeline.compressedBytes = compressedSeries.pairs
        if compressesInRAM { timeline.compressorBytes = compressorSeries.pairs }
        timeline.levels = levelChanges
        return SimulationResult(workload: workload, summary: summary, apps: stats, events: events,
                                stateIntervals: intervals, timeline: timeline, jetsamEvents: jetsamEvents, notificationsPosted: posted,
                                observers: observers,
                                processedOccurrences: processed, invariantViolations: violations)
    }
}
