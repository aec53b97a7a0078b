/// Closing a run: final accounting, the result, and the model's invariants.
extension Simulator {
    mutating func finish() -> SimulationResult {
        summary.timeAtPressureUs[level] += now - levelSinceUs
        levelSinceUs = now
        var stats: [AppStats] = []
        var timeline = Timeline()
        var posted: [String: [String: Int]] = [:]
        var observers: [String: ObserverReport] = [:]
        if isMac { summary.swap = finishSwap() }
        for i in apps.indices {
            apps[i].timeInState[apps[i].state.index] += now - apps[i].stateSinceUs
            apps[i].stateSinceUs = now
            var s = apps[i].stats
            for (k, state) in AppState.allCases.enumerated() {
                s.timeInStateUs[state.rawValue] = apps[i].timeInState[k]
            }
            s.resumeLatencyUs = LatencySummary(samples: apps[i].resumeLatencies)
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
                let name = isMac ? callback.notificationName(on: .macos) ?? callback.notificationName
                    : callback.notificationName
                counts[name] = apps[i].posted[callback.index]
            }
            posted[apps[i].spec.id] = counts
            observers[apps[i].spec.id] = observerReport(i)
        }
        timeline.usedBytes = usedSeries.pairs
        timeline.compressedBytes = compressedSeries.pairs
        timeline.levels = levelChanges
        return SimulationResult(workload: workload, summary: summary, apps: stats, events: events,
                                timeline: timeline, jetsamEvents: jetsamEvents, notificationsPosted: posted,
                                observers: observers,
                                processedOccurrences: processed, invariantViolations: violations)
    }

    /// Checks what must hold after every step (spec §4 and the README's invariants).
    mutating func checkInvariants() {
        var resident: Bytes = 0
        var compressed: Bytes = 0
        var foregroundApps: [Int] = []
        for i in apps.indices {
            let app = apps[i]
            if app.state.isResident { resident += app.footprint }
            if app.state == .compressed { compressed += app.footprint }
            if app.state.isForeground { foregroundApps.append(i) }
            if app.footprint < 0 { violations.append("t=\(now): \(app.spec.id) has a negative footprint") }
            if app.state == .notRunning && app.footprint != 0 {
                violations.append("t=\(now): \(app.spec.id) is not running but holds \(app.footprint) bytes")
            }
        }
        if resident != used { violations.append("t=\(now): used is \(used) but resident footprints add up to \(resident)") }
        if used > appMemory && !isMac { violations.append("t=\(now): used \(used) exceeds app memory \(appMemory)") }
        if compressed != compressedUsed {
            violations.append("t=\(now): compressedUsed is \(compressedUsed) but compressed footprints add up to \(compressed)")
        }
        if compressedUsed > workload.device.flash {
            violations.append("t=\(now): compressed bytes \(compressedUsed) exceed flash \(workload.device.flash)")
        }
        if foregroundApps.count > 1 { violations.append("t=\(now): \(foregroundApps.count) apps in the foreground") }
        if foregroundApps.first != foreground {
            violations.append("t=\(now): foreground is \(String(describing: foreground)) but \(foregroundApps) are")
        }
    }
}
