/// Background execution: tasks, fetch, push, audio, location and VoIP (spec §2.2).
extension Simulator {
    /// Runs a handler's work, if it has any and a performer is installed, and says how long the
    /// handler runs and what it holds: its declared time, or with `timing: measured` its work's
    /// measured time × the device's `cpuScale`; past `window` when the work overran it (the
    /// work gets `window` ÷ `cpuScale` of wall time); and with `allocates: measured` the work's
    /// measured peak in use, else the declared allocation (spec §8, §8.1).
    mutating func runWork(of handler: HandlerSpec, _ i: Int, _ kind: HandlerKind,
                          window: Microseconds?) -> (time: Microseconds, allocates: Bytes) {
        guard let work = handler.work, var performer = options.performer else {
            return (handler.timeUs, handler.allocates)
        }
        let scale = workload.device.cpuScale
        let limit = window.map { Microseconds((Double($0) / max(scale, 1e-9)).rounded(.up)) }
        let outcome = performer.run(work, app: apps[i].spec.id, handler: kind, wallLimitUs: limit)
        options.performer = performer
        // A measured peak is bounded (1 PiB) so no arithmetic on footprints can overflow.
        let allocates = handler.allocatesMeasured ? min(max(outcome.peakBytes, 0), 1 << 50) : handler.allocates
        if let window, outcome.overran { return (max(handler.timeUs, window + 1), allocates) }
        guard handler.timing == .measured else { return (handler.timeUs, allocates) }
        return (Microseconds((Double(outcome.wallMicroseconds) * scale).rounded()), allocates)
    }

    mutating func startBackgroundTask(_ i: Int, _ task: BackgroundTaskSpec) {
        let (time, allocates) = runWork(of: task.handler, i, .backgroundTask,
                                        window: workload.policy.backgroundTaskLimitUs)
        guard demand(i, allocates) else { return }
        setFootprint(i, apps[i].footprint + allocates)
        let token = makeToken()
        apps[i].task = HandlerRun(token: token, allocated: allocates)
        apps[i].stats.backgroundTasks.started += 1
        summary.backgroundTasks.started += 1
        record(.handlerStart, i) {
            $0.handler = HandlerKind.backgroundTask.rawValue
            $0.bytes = allocates
        }
        schedule(at: now + time, .taskDone(i, token))
    }

    /// Ends the running task, releasing what it held.
    mutating func endTask(_ i: Int, _ outcome: String) {
        guard let run = apps[i].task else { return }
        apps[i].task = nil
        setFootprint(i, apps[i].footprint - min(run.allocated, apps[i].footprint))
        record(.handlerEnd, i) {
            $0.handler = HandlerKind.backgroundTask.rawValue
            $0.detail = outcome
        }
    }

    mutating func taskDone(_ i: Int, _ token: UInt64) {
        guard apps[i].task?.token == token else { return }
        apps[i].stats.backgroundTasks.completed += 1
        summary.backgroundTasks.completed += 1
        endTask(i, "completed")
        suspendIfIdle(i)
    }

    /// The background-task limit, counted from entering the background (spec §2.2).
    mutating func taskLimit(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].state == .background, apps[i].task != nil,
              let spec = apps[i].spec.backgroundTask else { return }
        if spec.endsOnExpiration {
            apps[i].stats.backgroundTasks.expiredEnded += 1
            summary.backgroundTasks.expiredEnded += 1
            endTask(i, "expiredEnded")
            suspendIfIdle(i)
        } else {
            apps[i].stats.backgroundTasks.expiredKilled += 1
            summary.backgroundTasks.expiredKilled += 1
            endTask(i, "expiredKilled")
            kill(i, .backgroundTaskTimeout, requested: nil)
        }
    }

    /// Schedules the next fetch wake: `interval` after the later of leaving the foreground and
    /// the start of the last fetch.
    mutating func scheduleFetchWake(_ i: Int) {
        guard apps[i].spec.modes.contains(.fetch), let interval = apps[i].spec.fetch?.intervalUs else { return }
        let token = makeToken()
        apps[i].fetchWakeToken = token
        let base = max(apps[i].lastForegroundUs, apps[i].lastFetchStartUs)
        schedule(at: max(now, base + interval), .fetchWake(i, token))
    }

    mutating func fetchWake(_ i: Int, _ token: UInt64) {
        guard apps[i].fetchWakeToken == token else { return }
        switch apps[i].state {
        case .inactive, .active:
            return
        case .notRunning:
            guard mayLaunchInBackground(i) else { return }
            apps[i].lastFetchStartUs = now
            backgroundLaunch(i, for: .fetch)
        case .background, .suspended, .compressed:
            apps[i].lastFetchStartUs = now
            if apps[i].fetchRun == nil { runHandler(i, .fetch) }
        }
        scheduleFetchWake(i)
    }

    /// An app the system ended (not the user) is launched into the background for a wake.
    func mayLaunchInBackground(_ i: Int) -> Bool {
        apps[i].everLaunched && !apps[i].userQuit && apps[i].lastExit != nil
    }

    /// `push app` (spec §2.2).
    mutating func push(_ i: Int) {
        guard apps[i].spec.modes.contains(.remoteNotification) else {
            return record(.pushDelivered, i) { $0.detail = "no remote-notification mode" }
        }
        switch apps[i].state {
        case .notRunning:
            if mayLaunchInBackground(i) {
                backgroundLaunch(i, for: .push)
            } else {
                let why = apps[i].userQuit ? "the user quit the app" : "the app was never launched"
                record(.pushDelivered, i) { $0.detail = why }
            }
        default:
            if apps[i].pushRun != nil { return ignored(.push(i), "a push handler is already running") }
            runHandler(i, .push)
        }
    }

    /// Runs a fetch or push handler, waking the app into the background first if needed.
    mutating func runHandler(_ i: Int, _ kind: HandlerKind) {
        guard wakeIntoBackground(i) else { return }
        let spec = (kind == .fetch ? apps[i].spec.fetch?.handler : apps[i].spec.push) ?? HandlerSpec()
        let inForeground = apps[i].state.isForeground
        let window = kind == .fetch ? workload.policy.fetchWindowUs : workload.policy.pushWindowUs
        let (time, allocates) = runWork(of: spec, i, kind, window: inForeground ? nil : window)
        guard demand(i, allocates) else { return }
        setFootprint(i, apps[i].footprint + allocates)
        let token = makeToken()
        let run = HandlerRun(token: token, allocated: allocates)
        if kind == .fetch { apps[i].fetchRun = run } else { apps[i].pushRun = run }
        updateCounts(i, kind) { $0.started += 1 }
        record(.handlerStart, i) {
            $0.handler = kind.rawValue
            $0.bytes = allocates
            if inForeground { $0.detail = "in the foreground" }
        }
        schedule(at: now + time, .handlerDone(i, kind, token))
        if !inForeground && time > window {
            schedule(at: now + window, .handlerTimeout(i, kind, token))
        }
    }

    mutating func updateCounts(_ i: Int, _ kind: HandlerKind, _ change: (inout HandlerCounts) -> Void) {
        if kind == .fetch {
            change(&apps[i].stats.fetches)
            change(&summary.fetches)
        } else {
            change(&apps[i].stats.pushes)
            change(&summary.pushes)
        }
    }

    mutating func handlerDone(_ i: Int, _ kind: HandlerKind, _ token: UInt64) {
        let run = kind == .fetch ? apps[i].fetchRun : apps[i].pushRun
        guard let run, run.token == token else { return }
        if kind == .fetch { apps[i].fetchRun = nil } else { apps[i].pushRun = nil }
        setFootprint(i, apps[i].footprint - min(run.allocated, apps[i].footprint))
        updateCounts(i, kind) { $0.completed += 1 }
        record(.handlerEnd, i) {
            $0.handler = kind.rawValue
            $0.detail = "completed"
        }
        suspendIfIdle(i)
    }

    /// Past the fetch or push window the app is killed, unless the user has brought it forward.
    mutating func handlerTimeout(_ i: Int, _ kind: HandlerKind, _ token: UInt64) {
        let run = kind == .fetch ? apps[i].fetchRun : apps[i].pushRun
        guard let run, run.token == token, !apps[i].state.isForeground else { return }
        updateCounts(i, kind) { $0.timedOut += 1 }
        record(.handlerEnd, i) {
            $0.handler = kind.rawValue
            $0.detail = "timedOut"
        }
        kill(i, kind == .fetch ? .fetchTimeout : .pushTimeout, requested: nil)
    }

    /// A cold launch that leaves the app in `background`, for a fetch, push or VoIP wake.
    mutating func backgroundLaunch(_ i: Int, for wake: HandlerKind?) {
        let footprint = apps[i].spec.launchFootprint
        guard demand(i, footprint) else { return }
        startLife(i)
        setFootprint(i, footprint)
        apps[i].launchingInBackground = true
        setState(i, .background)
        apps[i].launchEndsUs = now + apps[i].spec.launchTimeUs
        apps[i].stats.launches.background += 1
        summary.backgroundLaunches += 1
        record(.launch, i) {
            $0.detail = "background"
            $0.bytes = footprint
            $0.handler = wake?.rawValue
        }
        schedule(at: now + apps[i].spec.launchTimeUs, .backgroundLaunchDone(i, apps[i].lifeToken, wake))
    }

    mutating func backgroundLaunchDone(_ i: Int, _ token: UInt64, _ wake: HandlerKind?) {
        guard apps[i].lifeToken == token, apps[i].launchingInBackground else { return }
        apps[i].launchingInBackground = false
        apps[i].launchEndsUs = nil
        deliver(.applicationDidFinishLaunching, to: i)
        if apps[i].leftDuringLaunch {
            // A cold launch the user left: now that it has launched, it enters the background.
            apps[i].leftDuringLaunch = false
            deliver(.applicationDidEnterBackground, to: i)
            return startBackgroundWork(i)
        }
        switch wake {
        case .fetch where apps[i].fetchRun == nil: runHandler(i, .fetch)
        case .push where apps[i].pushRun == nil: runHandler(i, .push)
        default: break
        }
        suspendIfIdle(i)
    }

    mutating func play(_ i: Int, _ action: ScriptAction) {
        guard apps[i].state.runsCode else { return ignored(action, "the app runs no code while \(apps[i].state.rawValue)") }
        guard !apps[i].playing else { return ignored(action, "already playing") }
        let why = "interrupted by \(apps[i].spec.id)"
        for j in apps.indices where j != i && apps[j].playing {
            apps[j].playing = false
            record(.handlerEnd, j) { $0.handler = "audio"; $0.detail = why }
            suspendIfIdle(j)
        }
        apps[i].playing = true
        record(.handlerStart, i) { $0.handler = "audio" }
    }

    mutating func stop(_ i: Int, _ action: ScriptAction) {
        guard apps[i].playing else { return ignored(action, "not playing") }
        apps[i].playing = false
        record(.handlerEnd, i) { $0.handler = "audio"; $0.detail = "completed" }
        suspendIfIdle(i)
    }

    /// A VoIP call: the app runs without suspension for its length.
    mutating func voipCall(_ i: Int, _ length: Microseconds, _ action: ScriptAction) {
        guard apps[i].state != .notRunning else { return ignored(action, "the app is not running") }
        guard apps[i].voipCallToken == nil else { return ignored(action, "a call is already going on") }
        guard wakeIntoBackground(i) else { return }
        let token = makeToken()
        apps[i].voipCallToken = token
        record(.handlerStart, i) { $0.handler = "voipCall" }
        schedule(at: now + length, .voipCallEnd(i, token))
    }

    mutating func voipCallEnd(_ i: Int, _ token: UInt64) {
        guard apps[i].voipCallToken == token else { return }
        apps[i].voipCallToken = nil
        record(.handlerEnd, i) { $0.handler = "voipCall"; $0.detail = "completed" }
        suspendIfIdle(i)
    }

    /// The keep-alive interval: the app's, but never shorter than the policy allows (spec §2.2:
    /// "at least 10 minutes"; a workload built in code does not pass through the parser's check).
    func keepaliveInterval(_ voip: VoIPSpec) -> Microseconds {
        max(voip.keepaliveUs, workload.policy.voipMinKeepaliveUs)
    }

    /// The VoIP keep-alive: a short handler every `keepalive` while the app lives.
    mutating func voipKeepalive(_ i: Int, _ token: UInt64) {
        guard apps[i].lifeToken == token, apps[i].state != .notRunning, let voip = apps[i].spec.voip else { return }
        schedule(at: now + keepaliveInterval(voip), .voipKeepalive(i, token))
        guard apps[i].voipHandlerToken == nil, wakeIntoBackground(i) else { return }
        let handlerToken = makeToken()
        apps[i].voipHandlerToken = handlerToken
        record(.handlerStart, i) { $0.handler = "voipKeepalive" }
        schedule(at: now + voip.timeUs, .voipHandlerDone(i, handlerToken))
    }

    mutating func voipHandlerDone(_ i: Int, _ token: UInt64) {
        guard apps[i].voipHandlerToken == token else { return }
        apps[i].voipHandlerToken = nil
        record(.handlerEnd, i) { $0.handler = "voipKeepalive"; $0.detail = "completed" }
        suspendIfIdle(i)
    }
}
