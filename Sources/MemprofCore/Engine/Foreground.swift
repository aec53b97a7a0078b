/// In the foreground (spec §2.1): resuming, becoming active, interruptions and growth.
///
/// Triggers: `open` of a `suspended`, `background` or `compressed` app; the scheduled
/// `resumeDone`; `interrupt` and its `interruptionEnd`; the end of an answered call
/// (`answeredCallEnd`); `growthTick` once a second while the app grows.
extension Simulator {
    mutating func resume(_ i: Int, fromCompressed: Bool) {
        let readBytes = fromCompressed ? flashReadBytes(i) : 0
        apps[i].userQuit = false
        if fromCompressed {
            guard decompress(i, into: .inactive) else { return }
        } else {
            guard decompressionFits(i) else { return }
            setState(i, .inactive, cause: .callback(platform.returnCallback))
        }
        deliver(platform.returnCallback, to: i)
        enterForeground(i)
        let restored = apps[i].releasedOnBackground
        apps[i].releasedOnBackground = 0
        guard demand(i, restored) else { return }
        setFootprint(i, apps[i].footprint + restored)
        var latency = apps[i].spec.resumeTimeUs
        if fromCompressed {
            latency += readBytes * 1_000_000 / max(1, workload.device.flashReadRate)
            apps[i].stats.launches.fromCompressed += 1
            summary.compressedResumes += 1
        } else {
            apps[i].stats.launches.warm += 1
            summary.warmResumes += 1
        }
        apps[i].activationPending = true
        schedule(at: now + latency, .resumeDone(app: i, foregroundToken: apps[i].foregroundToken, latencyUs: latency,
                                                fromCompressed: fromCompressed))
    }

    /// Bookkeeping shared by launches and resumes once the app is `inactive` in the foreground.
    mutating func enterForeground(_ i: Int) {
        foreground = i
        if schedulesTasks { userStartsUsingPhone() }
        apps[i].activationPending = false
        apps[i].interruptedUntilUs = 0
        apps[i].foregroundToken = makeToken()
        apps[i].backgroundToken = makeToken()
        apps[i].enterBackgroundHandlerRunning = false
        apps[i].fetchWakeToken = makeToken()
        if apps[i].spec.growth != nil {
            apps[i].growthCarry = 0
            apps[i].lastGrowthUs = now
            scheduleGrowthTick(i, foregroundToken: apps[i].foregroundToken)
        }
    }

    mutating func resumeDone(_ i: Int, _ token: UInt64, _ latency: Microseconds, _ fromCompressed: Bool) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive else { return }
        apps[i].activationPending = false
        if apps[i].interruptedUntilUs <= now {
            deliver(.applicationDidBecomeActive, to: i)
            setState(i, .active, cause: .resume(fromCompressed ? .fromCompressed : .warm))
        }
        apps[i].resumeLatencies.append(latency)
        record(.resume(fromCompressed ? .fromCompressed : .warm, latencyUs: latency), i)
    }

    /// `interrupt` (spec §2.1): the foreground app goes `inactive` for `length`, or with an
    /// answered call goes to the background and is opened again when the call ends. An
    /// interruption while the app is already `inactive` (another interruption, a launch or a
    /// resume) keeps it `inactive` until the later of the ends.
    mutating func interrupt(_ kind: InterruptionKind, _ length: Microseconds, answer: Bool, _ action: ScriptAction) {
        guard let f = foreground else { return ignored(action, .noAppInForeground) }
        if kind == .call && answer {
            // The phone app takes the screen from the foreground app, active or inactive.
            leaveForeground(f, startsBackgroundWork: true)
            schedule(at: now + length, .answeredCallEnd(app: f))
            return
        }
        if apps[f].state == .active {
            deliver(.applicationWillResignActive, to: f)
            setState(f, .inactive, cause: .callback(.applicationWillResignActive))
        }
        apps[f].interruptedUntilUs = max(apps[f].interruptedUntilUs, now + length)
        schedule(at: now + length, .interruptionEnd(app: f, foregroundToken: apps[f].foregroundToken))
    }

    mutating func interruptionEnd(_ i: Int, _ token: UInt64) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive, foreground == i,
              apps[i].interruptedUntilUs <= now, !apps[i].activationPending else { return }
        deliver(.applicationDidBecomeActive, to: i)
        setState(i, .active, cause: .callback(.applicationDidBecomeActive))
    }

    /// When an answered call ends, its app is opened again unless another app took the screen.
    mutating func answeredCallEnd(_ i: Int) {
        guard foreground == nil else {
            return record(.ignored(action: "callEnded", reason: .anotherAppInForeground), i)
        }
        open(i)
    }

    /// Growth while in the foreground, applied once a second, up to `maxFootprint`.
    mutating func growthTick(_ i: Int, _ token: UInt64) {
        guard apps[i].foregroundToken == token, apps[i].state.isForeground,
              let rate = apps[i].spec.growth else { return }
        let elapsed = now - apps[i].lastGrowthUs
        apps[i].lastGrowthUs = now
        let total = apps[i].growthCarry + rate.bytes * elapsed
        var delta = total / rate.perUs
        apps[i].growthCarry = total % rate.perUs
        if let cap = apps[i].spec.maxFootprint {
            delta = min(delta, cap - apps[i].footprint)
            if delta <= 0 {
                if apps[i].footprint >= cap { return }
                delta = 0
            }
        }
        if delta > 0 {
            guard demand(i, delta) else { return }
            setFootprint(i, apps[i].footprint + delta)
        }
        scheduleGrowthTick(i, foregroundToken: token)
    }
}
