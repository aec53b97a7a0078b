/// Script actions and the foreground: launches, resumes, leaving, interruptions, quits (spec §2.1).
extension Simulator {
    mutating func perform(_ action: ScriptAction) {
        if isMac, let why = notApplicableOnMac(action) { return ignored(action, why) }
        switch action {
        case .open(let i): open(i)
        case .home:
            guard let f = foreground else { return ignored(action, "the home screen is already showing") }
            leaveForeground(f, startsBackgroundWork: true)
        case .interrupt(let kind, let length, let answer): interrupt(kind, length, answer: answer, action)
        case .quit(let i): quit(i, action)
        case .push(let i): push(i)
        case .allocate(let i, let bytes):
            guard apps[i].state.runsCode else { return ignored(action, "the app runs no code while \(apps[i].state.rawValue)") }
            if demand(i, bytes) { setFootprint(i, apps[i].footprint + bytes) }
        case .free(let i, let bytes):
            guard apps[i].state.runsCode else { return ignored(action, "the app runs no code while \(apps[i].state.rawValue)") }
            setFootprint(i, apps[i].footprint - releasable(i, bytes))
        case .memoryWarning: sendMemoryWarnings(cause: "script")
        case .play(let i): play(i, action)
        case .stop(let i): stop(i, action)
        case .track(let i):
            guard apps[i].state.runsCode else { return ignored(action, "the app runs no code while \(apps[i].state.rawValue)") }
            guard !apps[i].tracking else { return ignored(action, "already tracking") }
            apps[i].tracking = true
            record(.handlerStart, i) { $0.handler = "location" }
        case .untrack(let i):
            guard apps[i].tracking else { return ignored(action, "not tracking") }
            apps[i].tracking = false
            record(.handlerEnd, i) { $0.handler = "location"; $0.detail = "completed" }
            suspendIfIdle(i)
        case .voipCall(let i, let length): voipCall(i, length, action)
        case .show(let i, let object): show(i, object, action)
        case .dismiss(let i, let object): dismiss(i, object, action)
        }
    }

    /// `open app` (spec §2.1).
    mutating func open(_ i: Int) {
        if foreground == i { return ignored(.open(i), "already in the foreground") }
        if let f = foreground { leaveForeground(f, startsBackgroundWork: true) }
        switch apps[i].state {
        case .notRunning: coldLaunch(i)
        case .background where apps[i].launchEndsUs != nil: finishLaunchInForeground(i)
        case .suspended, .background: resume(i, fromCompressed: false)
        case .compressed: resume(i, fromCompressed: true)
        case .inactive, .active: break
        }
    }

    mutating func coldLaunch(_ i: Int) {
        let spec = apps[i].spec
        let killedBefore = apps[i].lastExit.map { $0 != .userQuit } ?? false
        apps[i].userQuit = false
        guard demand(i, spec.launchFootprint) else { return }
        startLife(i)
        setFootprint(i, spec.launchFootprint)
        setState(i, .inactive)
        enterForeground(i)
        apps[i].stats.launches.cold += 1
        summary.coldLaunches += 1
        if killedBefore {
            apps[i].stats.coldRelaunchesAfterKill += 1
            summary.coldRelaunchesAfterKill += 1
        }
        record(.launch, i) { $0.detail = "cold"; $0.bytes = spec.launchFootprint }
        if isMac { recordMacNotApplicable(i) }
        apps[i].launchEndsUs = now + spec.launchTimeUs
        apps[i].activationPending = true
        schedule(at: now + spec.launchTimeUs, .launchDone(i, apps[i].foregroundToken))
    }

    /// Opened while a launch is still under way in the background (a background launch, or a
    /// cold launch the user left): the app comes to the foreground and finishes launching there,
    /// so `applicationDidFinishLaunching` still comes first, at the launch's end.
    mutating func finishLaunchInForeground(_ i: Int) {
        apps[i].launchingInBackground = false
        apps[i].leftDuringLaunch = false
        apps[i].userQuit = false
        setState(i, .inactive)
        enterForeground(i)
        apps[i].activationPending = true
        schedule(at: max(now, apps[i].launchEndsUs ?? now), .launchDone(i, apps[i].foregroundToken))
    }

    /// A new life of the app: launched at all, cold or into the background.
    mutating func startLife(_ i: Int) {
        apps[i].everLaunched = true
        apps[i].lifeToken = makeToken()
        if !isMac, apps[i].spec.modes.contains(.voip), let voip = apps[i].spec.voip {
            schedule(at: now + keepaliveInterval(voip), .voipKeepalive(i, apps[i].lifeToken))
        }
    }

    mutating func resume(_ i: Int, fromCompressed: Bool) {
        let footprint = apps[i].footprint
        apps[i].userQuit = false
        if fromCompressed {
            guard decompress(i, into: .inactive) else { return }
        } else {
            setState(i, .inactive)
        }
        deliver(isMac ? .applicationWillBecomeActive : .applicationWillEnterForeground, to: i)
        enterForeground(i)
        let restored = apps[i].releasedOnBackground
        apps[i].releasedOnBackground = 0
        guard demand(i, restored) else { return }
        setFootprint(i, apps[i].footprint + restored)
        var latency = apps[i].spec.resumeTimeUs
        if fromCompressed {
            latency += footprint * 1_000_000 / max(1, workload.device.flashReadRate)
            apps[i].stats.launches.fromCompressed += 1
            summary.compressedResumes += 1
        } else {
            apps[i].stats.launches.warm += 1
            summary.warmResumes += 1
        }
        apps[i].activationPending = true
        schedule(at: now + latency, .resumeDone(i, apps[i].foregroundToken, latency, fromCompressed))
    }

    /// Bookkeeping shared by launches and resumes once the app is `inactive` in the foreground.
    mutating func enterForeground(_ i: Int) {
        foreground = i
        apps[i].activationPending = false
        apps[i].interruptedUntilUs = 0
        apps[i].foregroundToken = makeToken()
        apps[i].backgroundToken = makeToken()
        apps[i].enterBackgroundHandlerRunning = false
        apps[i].fetchWakeToken = makeToken()
        if apps[i].spec.growth != nil {
            apps[i].growthCarry = 0
            apps[i].lastGrowthUs = now
            schedule(at: now + Self.growthTickUs, .growthTick(i, apps[i].foregroundToken))
        }
    }

    mutating func launchDone(_ i: Int, _ token: UInt64) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive else { return }
        apps[i].launchEndsUs = nil
        apps[i].activationPending = false
        deliver(.applicationDidFinishLaunching, to: i)
        // An interruption still on screen keeps it inactive until its end (spec §2.1).
        guard apps[i].interruptedUntilUs <= now else { return }
        if isMac { deliver(.applicationWillBecomeActive, to: i) }
        deliver(.applicationDidBecomeActive, to: i)
        setState(i, .active)
    }

    mutating func resumeDone(_ i: Int, _ token: UInt64, _ latency: Microseconds, _ fromCompressed: Bool) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive else { return }
        apps[i].activationPending = false
        if apps[i].interruptedUntilUs <= now {
            deliver(.applicationDidBecomeActive, to: i)
            setState(i, .active)
        }
        apps[i].resumeLatencies.append(latency)
        record(.resume, i) {
            $0.latencyUs = latency
            $0.detail = fromCompressed ? "fromCompressed" : "warm"
        }
    }

    /// What leaving the front does on both platforms: resign (with `extra` delivered after the
    /// app is `inactive`, for the Mac's `applicationDidResignActive`), `background`, new tokens.
    mutating func moveToBackground(_ i: Int, afterResign extra: LifecycleCallback?) {
        if apps[i].state == .active {
            deliver(.applicationWillResignActive, to: i)
            setState(i, .inactive)
            if let extra { deliver(extra, to: i) }
        }
        setState(i, .background)
        foreground = nil
        apps[i].foregroundToken = makeToken()
        apps[i].backgroundToken = makeToken()
        apps[i].lastForegroundUs = now
    }

    /// Leaving the foreground (`home`, `open` of another app, an answered call, a quit).
    mutating func leaveForeground(_ i: Int, startsBackgroundWork: Bool) {
        if isMac { return resignActiveOnMac(i) }
        moveToBackground(i, afterResign: nil)
        if let launchEnd = apps[i].launchEndsUs {
            // Left before its launch completed: it finishes launching in the background, gets
            // didFinishLaunching at the launch's end, and only then enters the background.
            apps[i].launchingInBackground = true
            apps[i].leftDuringLaunch = startsBackgroundWork
            schedule(at: launchEnd, .backgroundLaunchDone(i, apps[i].lifeToken, nil))
            return
        }
        deliver(.applicationDidEnterBackground, to: i)
        guard startsBackgroundWork else { return }
        startBackgroundWork(i)
    }

    /// What an app does on entering the background (spec §2.1): release, the enter-background
    /// handler, its background task and the next fetch wake; then it suspends if idle.
    mutating func startBackgroundWork(_ i: Int) {
        let spec = apps[i].spec
        let released = releasable(i, spec.backgroundRelease)
        apps[i].releasedOnBackground += released
        setFootprint(i, apps[i].footprint - released)
        startEnterBackgroundHandler(i)
        guard apps[i].state == .background else { return }
        if let task = spec.backgroundTask {
            if apps[i].task == nil { startBackgroundTask(i, task) }
            if apps[i].task != nil {
                schedule(at: now + workload.policy.backgroundTaskLimitUs,
                         .taskLimit(i, apps[i].backgroundToken))
            }
        }
        guard apps[i].state == .background else { return }
        scheduleFetchWake(i)
        suspendIfIdle(i)
    }

    mutating func startEnterBackgroundHandler(_ i: Int) {
        let time = apps[i].spec.backgroundHandlerTimeUs
        guard time > 0 else { return }
        apps[i].enterBackgroundHandlerRunning = true
        let limit = workload.policy.enterBackgroundLimitUs
        if time > limit {
            schedule(at: now + limit, .enterBackgroundWatchdog(i, apps[i].backgroundToken))
        } else {
            schedule(at: now + time, .enterBackgroundHandlerDone(i, apps[i].backgroundToken))
        }
    }

    mutating func enterBackgroundHandlerDone(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].enterBackgroundHandlerRunning else { return }
        apps[i].enterBackgroundHandlerRunning = false
        suspendIfIdle(i)
    }

    mutating func enterBackgroundWatchdog(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].enterBackgroundHandlerRunning else { return }
        kill(i, .watchdog, requested: nil)
    }

    /// `interrupt` (spec §2.1): the foreground app goes `inactive` for `length`, or with an
    /// answered call goes to the background and is opened again when the call ends. An
    /// interruption while the app is already `inactive` (another interruption, a launch or a
    /// resume) keeps it `inactive` until the later of the ends.
    mutating func interrupt(_ kind: InterruptionKind, _ length: Microseconds, answer: Bool, _ action: ScriptAction) {
        guard let f = foreground else { return ignored(action, "no app in the foreground") }
        if kind == .call && answer {
            // The phone app takes the screen from the foreground app, active or inactive.
            leaveForeground(f, startsBackgroundWork: true)
            schedule(at: now + length, .answeredCallEnd(f))
            return
        }
        if apps[f].state == .active {
            deliver(.applicationWillResignActive, to: f)
            setState(f, .inactive)
        }
        apps[f].interruptedUntilUs = max(apps[f].interruptedUntilUs, now + length)
        schedule(at: now + length, .interruptionEnd(f, apps[f].foregroundToken))
    }

    mutating func interruptionEnd(_ i: Int, _ token: UInt64) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive, foreground == i,
              apps[i].interruptedUntilUs <= now, !apps[i].activationPending else { return }
        deliver(.applicationDidBecomeActive, to: i)
        setState(i, .active)
    }

    /// When an answered call ends, its app is opened again unless another app took the screen.
    mutating func answeredCallEnd(_ i: Int) {
        guard foreground == nil else {
            var event = SimEvent(atUs: now, kind: .ignored, app: apps[i].spec.id)
            event.action = "callEnded"
            event.detail = "another app is in the foreground"
            return record(event)
        }
        open(i)
    }

    /// `quit app` (spec §2.1): swiped away in the task switcher.
    mutating func quit(_ i: Int, _ action: ScriptAction) {
        switch apps[i].state {
        case .notRunning:
            return ignored(action, "the app is not running")
        case .inactive, .active:
            leaveForeground(i, startsBackgroundWork: false)
            deliver(.applicationWillTerminate, to: i)
        case .background:
            deliver(.applicationWillTerminate, to: i)
        case .suspended, .compressed:
            break
        }
        kill(i, .userQuit, requested: nil)
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
        schedule(at: now + Self.growthTickUs, .growthTick(i, token))
    }
}
