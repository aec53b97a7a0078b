/// Waking in the background (spec §2.2): fetch, push and VoIP, and the handlers they run.
///
/// Triggers: `fetchWake` (scheduled `interval` after leaving the foreground or the last fetch),
/// `push`, `voipCall` and its `voipCallEnd`, `voipKeepalive` every keep-alive interval while the app
/// lives, the scheduled ends `handlerDone`, `handlerTimeout` and `voipHandlerDone`.
extension Simulator {
    /// Wakes a suspended or compressed app into `background` for `activity`. Returns false when
    /// it could not be.
    mutating func wakeIntoBackground(_ i: Int, for activity: BackgroundActivity) -> Bool {
        switch apps[i].state {
        case .compressed: return decompress(i, into: .background)
        case .suspended:
            guard decompressionFits(i) else { return false }
            setState(i, .background, cause: .woken(for: activity))
            return true
        case .notRunning: return false
        default: return true
        }
    }

    /// Schedules the next fetch wake: `interval` after the later of leaving the foreground and
    /// the start of the last fetch.
    /// From iOS 13 under `xnu` the wake is a request BGTaskScheduler runs at a time it chooses,
    /// no earlier than that (Scheduler.swift).
    mutating func scheduleFetchWake(_ i: Int) {
        guard apps[i].fetchMode, let interval = apps[i].spec.fetch?.intervalUs else { return }
        let base = max(apps[i].lastForegroundUs, apps[i].lastFetchStartUs)
        if schedulesTasks { return submit(i, .fetch, earliest: max(now, base + interval)) }
        let token = makeToken()
        apps[i].fetchWakeToken = token
        schedule(at: max(now, base + interval), .fetchWake(app: i, wakeToken: token))
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

    /// `push app` (spec §2.2).
    mutating func push(_ i: Int) {
        if hasServiceExtensions { wakeServiceExtensions(for: i, .push(i)) }
        guard apps[i].remoteNotificationMode else {
            return record(.pushDelivered(.noRemoteNotificationMode), i)
        }
        switch apps[i].state {
        case .notRunning:
            if mayLaunchInBackground(i) {
                backgroundLaunch(i, for: .push)
            } else {
                record(.pushDelivered(apps[i].userQuit ? .userQuit : .neverLaunched), i)
            }
        default:
            if apps[i].pushRun != nil { return ignored(.push(i), .pushHandlerRunning) }
            runHandler(i, .push)
        }
    }

    /// Runs a fetch or push handler, waking the app into the background first if needed.
    mutating func runHandler(_ i: Int, _ kind: HandlerKind) {
        guard wakeIntoBackground(i, for: BackgroundActivity(kind)) else { return }
        let spec = handlerSpec(i, kind)
        let inForeground = apps[i].state.isForeground
        let window = inForeground ? nil : handlerWindow(kind)
        let (time, allocates, failure) = runWork(of: spec, i, kind, window: window)
        guard demand(i, allocates) else { return }
        setFootprint(i, apps[i].footprint + allocates)
        let token = makeToken()
        let run = HandlerRun(token: token, allocated: allocates, failure: failure)
        apps[i][run: kind] = run
        if !inForeground { holdLockAndWatchCPU(i, spec, time: time, token: token, kind: kind) }
        updateCounts(i, kind) { $0.started += 1 }
        recordStart(BackgroundActivity(kind), i, bytes: allocates, inForeground: inForeground)
        schedule(at: now + time, .handlerDone(app: i, kind: kind, runToken: token))
        if let window, time > window {
            schedule(at: now + window, .handlerTimeout(app: i, kind: kind, runToken: token))
        }
    }

    /// What app `i` declared for a handler of `kind` (nothing: an empty handler).
    func handlerSpec(_ i: Int, _ kind: HandlerKind) -> HandlerSpec {
        let spec = apps[i].spec
        return switch kind {
        case .fetch: spec.fetch?.handler ?? HandlerSpec()
        case .push: spec.push ?? HandlerSpec()
        case .refresh: spec.refresh?.handler ?? HandlerSpec()
        case .processing: spec.processing?.handler ?? HandlerSpec()
        case .backgroundTask: spec.backgroundTask?.handler ?? HandlerSpec()
        }
    }

    /// How long a handler of `kind` may run in the background: the policy's fetch and push
    /// windows, an app refresh task's 30 s (``BackgroundTime/refreshWindowUs``); nil for a
    /// processing task, which runs until it ends or the system expires it (Scheduler.swift).
    func handlerWindow(_ kind: HandlerKind) -> Microseconds? {
        switch kind {
        case .fetch: workload.policy.fetchWindowUs
        case .push: workload.policy.pushWindowUs
        case .refresh: BackgroundTime.refreshWindowUs
        case .processing: nil
        case .backgroundTask: workload.policy.backgroundTaskLimitUs
        }
    }

    /// Runs a handler's work, if it has any and a performer is installed, and says how long the
    /// handler runs and what it holds: its declared time, or with `timing: measured` its work's
    /// measured time × the device's `cpuScale`; past `window` when the work overran it (the
    /// work gets `window` ÷ `cpuScale` of wall time); and with `allocates: measured` the work's
    /// measured peak in use, else the declared allocation (spec §8, §8.1). Work that failed (a
    /// program that crashed or exited with a failure status) ends the handler when it did, its
    /// measured time × `cpuScale`, if that is sooner; the failure is returned for its end event.
    mutating func runWork(of handler: HandlerSpec, _ i: Int, _ kind: HandlerKind,
                          window: Microseconds?) -> (time: Microseconds, allocates: Bytes, failure: String?) {
        guard let work = handler.work, var performer = options.performer else {
            return (handler.timeUs, handler.allocates, nil)
        }
        let scale = workload.device.cpuScale
        let limit = window.map { Microseconds((Double($0) / max(scale, 1e-9)).rounded(.up)) }
        let outcome = performer.run(work, app: apps[i].spec.id, handler: kind, wallLimitUs: limit)
        // A measured peak is bounded (1 PiB) so no arithmetic on footprints can overflow.
        let allocates = handler.allocatesMeasured ? min(max(outcome.peakBytes, 0), 1 << 50) : handler.allocates
        let measured = Microseconds((Double(outcome.wallMicroseconds) * scale).rounded())
        // A failure after the declared time ended nothing the simulation still ran.
        let failure = outcome.overran || (handler.timing == .declared && measured >= handler.timeUs) ? nil : outcome.failure
        let time: Microseconds
        if failure != nil {
            time = min(measured, window ?? measured)  // it ended before memprof's kill at the window
        } else if let window, outcome.overran {
            time = max(handler.timeUs, window + 1)
        } else if handler.timing == .measured {
            time = measured
        } else {
            time = handler.timeUs
        }
        // The work's samples lie over the simulated time it had: the window when it overran.
        performer.placeLastRun(startUs: now, durationUs: outcome.overran ? min(time, window ?? time) : time)
        options.performer = performer
        return (time, allocates, failure)
    }

    /// Counts a handler's start and end; a BGTaskScheduler task's by its own counts.
    mutating func updateCounts(_ i: Int, _ kind: HandlerKind, _ change: (inout HandlerCounts) -> Void) {
        if kind == .refresh || kind == .processing {
            var counts = HandlerCounts()
            change(&counts)
            updateScheduledCounts(i, kind) {
                $0.started += counts.started
                $0.completed += counts.completed
            }
        } else if kind == .fetch {
            change(&apps[i].stats.fetches)
            change(&summary.fetches)
        } else {
            change(&apps[i].stats.pushes)
            change(&summary.pushes)
        }
    }

    mutating func handlerDone(_ i: Int, _ kind: HandlerKind, _ token: UInt64) {
        guard let run = apps[i][run: kind], run.token == token else { return }
        apps[i][run: kind] = nil
        setFootprint(i, apps[i].footprint - min(run.allocated, apps[i].footprint))
        if run.failure == nil { updateCounts(i, kind) { $0.completed += 1 } }
        recordEnd(BackgroundActivity(kind), i, run.outcome)
        suspendIfIdle(i, after: .activityEnded(BackgroundActivity(kind), run.outcome))
    }

    /// Past the fetch or push window the app is killed, unless the user has brought it forward.
    mutating func handlerTimeout(_ i: Int, _ kind: HandlerKind, _ token: UInt64) {
        guard let run = apps[i][run: kind], run.token == token, !apps[i].state.isForeground else { return }
        if kind == .refresh { return expireScheduled(i, kind) }
        updateCounts(i, kind) { $0.timedOut += 1 }
        recordEnd(BackgroundActivity(kind), i, .timedOut)
        kill(i, kind == .fetch ? .fetchTimeout : .pushTimeout, requested: nil)
    }

    /// A VoIP call: the app runs without suspension for its length.
    mutating func voipCall(_ i: Int, _ length: Microseconds, _ action: ScriptAction) {
        guard apps[i].state != .notRunning else { return ignored(action, .notRunning) }
        guard apps[i].voipCallToken == nil else { return ignored(action, .callGoingOn) }
        guard wakeIntoBackground(i, for: .voipCall) else { return }
        let token = makeToken()
        apps[i].voipCallToken = token
        recordStart(.voipCall, i)
        schedule(at: now + length, .voipCallEnd(app: i, callToken: token))
    }

    mutating func voipCallEnd(_ i: Int, _ token: UInt64) {
        guard apps[i].voipCallToken == token else { return }
        apps[i].voipCallToken = nil
        recordEnd(.voipCall, i, .completed)
        suspendIfIdle(i, after: .activityEnded(.voipCall, .completed))
    }

    /// The keep-alive interval: the app's, but never shorter than the policy allows (spec §2.2:
    /// "at least 10 minutes"; a workload built in code does not pass through the parser's check).
    func keepaliveInterval(_ voip: VoIPSpec) -> Microseconds {
        max(voip.keepaliveUs, workload.policy.voipMinKeepaliveUs)
    }

    /// The VoIP keep-alive: a short handler every `keepalive` while the app lives.
    mutating func voipKeepalive(_ i: Int, _ token: UInt64) {
        guard apps[i].lifeToken == token, apps[i].state != .notRunning, let voip = apps[i].spec.voip else { return }
        schedule(at: now + keepaliveInterval(voip), .voipKeepalive(app: i, lifeToken: token))
        guard apps[i].voipHandlerToken == nil, wakeIntoBackground(i, for: .voipKeepalive) else { return }
        let handlerToken = makeToken()
        apps[i].voipHandlerToken = handlerToken
        recordStart(.voipKeepalive, i)
        schedule(at: now + voip.timeUs, .voipHandlerDone(app: i, runToken: handlerToken))
    }

    mutating func voipHandlerDone(_ i: Int, _ token: UInt64) {
        guard apps[i].voipHandlerToken == token else { return }
        apps[i].voipHandlerToken = nil
        recordEnd(.voipKeepalive, i, .completed)
        suspendIfIdle(i, after: .activityEnded(.voipKeepalive, .completed))
    }

    /// A handler that locks a file leaves the app holding the lock until it is
    /// suspended (Suspension.swift kills it then); one that keeps the CPU busier than iOS's
    /// background limit for the whole limit window is killed when the window ends.
    mutating func holdLockAndWatchCPU(_ i: Int, _ spec: HandlerSpec, time: Microseconds, token: UInt64, kind: HandlerKind) {
        if spec.locksFile { apps[i].holdsFileLock = true }
        if let cpu = spec.cpu, cpu > HandlerSpec.cpuLimitShare, time > HandlerSpec.cpuLimitWindowUs {
            schedule(at: now + HandlerSpec.cpuLimitWindowUs, .cpuLimit(app: i, kind: kind, runToken: token))
        }
    }

    /// The CPU limit window of a handler ended while it still ran in the background.
    mutating func cpuLimit(_ i: Int, _ kind: HandlerKind, _ token: UInt64) {
        guard apps[i][run: kind]?.token == token, apps[i].state == .background else { return }
        kill(i, .cpuResourceLimit, requested: nil)
    }
}
