/// Leaving the foreground (spec §2.1, §2.2): resign, enter the background, release, the
/// enter-background handler and its watchdog, the background task and its limit; and quitting.
///
/// Triggers: `home`; `open` of another app; an answered call; `quit`; the scheduled
/// `enterBackgroundHandlerDone`, `enterBackgroundWatchdog`, `taskDone` and `taskLimit`; the end of
/// a launch the user left (`backgroundLaunchDone`).
extension Simulator {
    /// What leaving the front does on both platforms: resign (with `extra` delivered after the
    /// app is `inactive`, for the Mac's `applicationDidResignActive`), `background`, new tokens.
    /// `announced` is the callback that tells the app it is in the background, if one will
    /// (iOS's `applicationDidEnterBackground`); otherwise the last resign callback is the cause.
    mutating func moveToBackground(_ i: Int, afterResign extra: LifecycleCallback?, announced: LifecycleCallback?) {
        var cause = announced.map(StateCause.callback)
        if apps[i].state == .active {
            deliver(.applicationWillResignActive, to: i)
            setState(i, .inactive, cause: .callback(.applicationWillResignActive))
            if let extra { deliver(extra, to: i) }
            cause = cause ?? .callback(extra ?? .applicationWillResignActive)
        }
        setState(i, .background, cause: cause)
        foreground = nil
        apps[i].foregroundToken = makeToken()
        apps[i].backgroundToken = makeToken()
        apps[i].lastForegroundUs = now
    }

    /// Leaving the foreground (`home`, `open` of another app, an answered call, a quit). On a
    /// Mac the app resigns and goes on running behind the new front app (spec §3).
    mutating func leaveForeground(_ i: Int, startsBackgroundWork: Bool) {
        let announces = entersBackground && apps[i].launchEndsUs == nil
        moveToBackground(i, afterResign: platform.callbackAfterResign,
                         announced: announces ? .applicationDidEnterBackground : nil)
        if let launchEnd = apps[i].launchEndsUs {
            // Left before its launch completed: it finishes launching in the background, gets
            // didFinishLaunching at the launch's end, and only then enters the background.
            apps[i].launchingInBackground = true
            apps[i].leftDuringLaunch = startsBackgroundWork && entersBackground
            schedule(at: launchEnd, .backgroundLaunchDone(app: i, lifeToken: apps[i].lifeToken, wake: nil))
            return
        }
        guard entersBackground else { return }
        deliver(.applicationDidEnterBackground, to: i)
        guard startsBackgroundWork else { return }
        startBackgroundWork(i)
    }

    /// What an app does on entering the background (spec §2.1): release, the enter-background
    /// handler, its background task and the next fetch wake; then it suspends if idle.
    mutating func startBackgroundWork(_ i: Int) {
        releaseForBackground(i, atSuspension: false)
        startEnterBackgroundHandler(i)
        guard apps[i].state == .background else { return }
        if let task = apps[i].spec.backgroundTask {
            if apps[i].task == nil { startBackgroundTask(i, task) }
            if apps[i].task != nil {
                schedule(at: now + workload.policy.backgroundTaskLimitUs,
                         .taskLimit(app: i, backgroundToken: apps[i].backgroundToken))
            }
        }
        guard apps[i].state == .background else { return }
        scheduleFetchWake(i)
        submitTaskRequests(i)
        suspendIfIdle(i, after: .callback(.applicationDidEnterBackground))
    }

    mutating func startEnterBackgroundHandler(_ i: Int) {
        let time = apps[i].spec.backgroundHandlerTimeUs
        guard time > 0 else { return }
        apps[i].enterBackgroundHandlerRunning = true
        let limit = workload.policy.enterBackgroundLimitUs
        if time > limit {
            schedule(at: now + limit, .enterBackgroundWatchdog(app: i, backgroundToken: apps[i].backgroundToken))
        } else {
            schedule(at: now + time, .enterBackgroundHandlerDone(app: i, backgroundToken: apps[i].backgroundToken))
        }
    }

    mutating func enterBackgroundHandlerDone(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].enterBackgroundHandlerRunning else { return }
        apps[i].enterBackgroundHandlerRunning = false
        // No event marks the handler's return.
        suspendIfIdle(i, after: nil)
    }

    mutating func enterBackgroundWatchdog(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].enterBackgroundHandlerRunning else { return }
        kill(i, .watchdog, requested: nil)
    }

    mutating func startBackgroundTask(_ i: Int, _ task: BackgroundTaskSpec) {
        let (time, allocates, failure) = runWork(of: task.handler, i, .backgroundTask,
                                                 window: workload.policy.backgroundTaskLimitUs)
        guard demand(i, allocates) else { return }
        setFootprint(i, apps[i].footprint + allocates)
        let token = makeToken()
        apps[i].task = HandlerRun(token: token, allocated: allocates, failure: failure)
        holdLockAndWatchCPU(i, task.handler, time: time, token: token, kind: .backgroundTask)
        apps[i].stats.backgroundTasks.started += 1
        summary.backgroundTasks.started += 1
        recordStart(.backgroundTask, i, bytes: allocates)
        schedule(at: now + time, .taskDone(app: i, taskToken: token))
    }

    /// Ends the running task, releasing what it held.
    mutating func endTask(_ i: Int, _ outcome: HandlerOutcome) {
        guard let run = apps[i].task else { return }
        apps[i].task = nil
        setFootprint(i, apps[i].footprint - min(run.allocated, apps[i].footprint))
        recordEnd(.backgroundTask, i, outcome)
    }

    mutating func taskDone(_ i: Int, _ token: UInt64) {
        guard let run = apps[i].task, run.token == token else { return }
        if run.failure == nil {
            apps[i].stats.backgroundTasks.completed += 1
            summary.backgroundTasks.completed += 1
        }
        endTask(i, run.outcome)
        suspendIfIdle(i, after: .activityEnded(.backgroundTask, run.outcome))
    }

    /// The background-task limit, counted from entering the background (spec §2.2).
    mutating func taskLimit(_ i: Int, _ token: UInt64) {
        guard apps[i].backgroundToken == token, apps[i].state == .background, apps[i].task != nil,
              let spec = apps[i].spec.backgroundTask else { return }
        if spec.endsOnExpiration {
            apps[i].stats.backgroundTasks.expiredEnded += 1
            summary.backgroundTasks.expiredEnded += 1
            endTask(i, .expiredEnded)
            suspendIfIdle(i, after: .activityEnded(.backgroundTask, .expiredEnded))
        } else {
            apps[i].stats.backgroundTasks.expiredKilled += 1
            summary.backgroundTasks.expiredKilled += 1
            endTask(i, .expiredKilled)
            kill(i, .backgroundTaskTimeout, requested: nil)
        }
    }

    /// `quit app` (spec §2.1): swiped away in the task switcher.
    mutating func quit(_ i: Int, _ action: ScriptAction) {
        switch apps[i].state {
        case .notRunning:
            return ignored(action, .notRunning)
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
}
