/// Launching (spec §2.1, §2.2): a cold launch into the foreground, a launch into the background
/// for a wake, and the end of either.
///
/// Triggers: `open` of a `notRunning` app; a fetch wake or push to an app the system ended
/// (`fetchWake`, `push`); the scheduled ends `launchDone` and `backgroundLaunchDone`.
extension Simulator {
    /// `open app` (spec §2.1).
    mutating func open(_ i: Int) {
        if foreground == i { return ignored(.open(i), .alreadyInForeground) }
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
        // Only the numbers it needs: a copy of the whole spec retains each of its strings and arrays.
        let launchFootprint = apps[i].spec.launchFootprint, launchTimeUs = apps[i].spec.launchTimeUs
        let killedBefore = apps[i].lastExit.map { $0 != .userQuit } ?? false
        apps[i].userQuit = false
        guard demand(i, launchFootprint) else { return }
        startLife(i)
        setFootprint(i, launchFootprint)
        setState(i, .inactive, cause: .launch(.cold))
        enterForeground(i)
        apps[i].stats.launches.cold += 1
        summary.coldLaunches += 1
        if killedBefore {
            apps[i].stats.coldRelaunchesAfterKill += 1
            summary.coldRelaunchesAfterKill += 1
        }
        record(.launch(.cold, bytes: launchFootprint, wake: nil), i)
        recordNotApplicable(i)
        apps[i].launchEndsUs = now + launchTimeUs
        apps[i].activationPending = true
        schedule(at: now + launchTimeUs, .launchDone(app: i, foregroundToken: apps[i].foregroundToken))
    }

    /// Opened while a launch is still under way in the background (a background launch, or a
    /// cold launch the user left): the app comes to the foreground and finishes launching there,
    /// so `applicationDidFinishLaunching` still comes first, at the launch's end.
    mutating func finishLaunchInForeground(_ i: Int) {
        apps[i].launchingInBackground = false
        apps[i].leftDuringLaunch = false
        apps[i].userQuit = false
        // No step names this: the user opened the app while its launch went on.
        setState(i, .inactive, cause: nil)
        enterForeground(i)
        apps[i].activationPending = true
        schedule(at: max(now, apps[i].launchEndsUs ?? now), .launchDone(app: i, foregroundToken: apps[i].foregroundToken))
    }

    /// A new life of the app: launched at all, cold or into the background.
    mutating func startLife(_ i: Int) {
        apps[i].everLaunched = true
        apps[i].lifeToken = makeToken()
        if entersBackground, apps[i].voipMode, let voip = apps[i].spec.voip {
            schedule(at: now + keepaliveInterval(voip), .voipKeepalive(app: i, lifeToken: apps[i].lifeToken))
        }
    }

    mutating func launchDone(_ i: Int, _ token: UInt64) {
        guard apps[i].foregroundToken == token, apps[i].state == .inactive else { return }
        apps[i].launchEndsUs = nil
        apps[i].activationPending = false
        deliver(.applicationDidFinishLaunching, to: i)
        // An interruption still on screen keeps it inactive until its end (spec §2.1).
        guard apps[i].interruptedUntilUs <= now else { return }
        for callback in platform.callbacksBeforeActive { deliver(callback, to: i) }
        deliver(.applicationDidBecomeActive, to: i)
        setState(i, .active, cause: .callback(.applicationDidBecomeActive))
    }

    /// An app the system ended (not the user) is launched into the background for a wake.
    func mayLaunchInBackground(_ i: Int) -> Bool {
        apps[i].everLaunched && !apps[i].userQuit && apps[i].lastExit != nil
    }

    /// A cold launch that leaves the app in `background`, for a fetch, push or VoIP wake.
    mutating func backgroundLaunch(_ i: Int, for wake: HandlerKind?) {
        let footprint = apps[i].spec.launchFootprint
        guard demand(i, footprint) else { return }
        startLife(i)
        setFootprint(i, footprint)
        apps[i].launchingInBackground = true
        setState(i, .background, cause: .launch(.background))
        apps[i].launchEndsUs = now + apps[i].spec.launchTimeUs
        apps[i].stats.launches.background += 1
        summary.backgroundLaunches += 1
        record(.launch(.background, bytes: footprint, wake: wake), i)
        schedule(at: now + apps[i].spec.launchTimeUs, .backgroundLaunchDone(app: i, lifeToken: apps[i].lifeToken, wake: wake))
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
        // The handler the launch was for (a fetch or push), unless one is running already.
        if let wake, wake != .backgroundTask, apps[i][run: wake] == nil { runHandler(i, wake) }
        suspendIfIdle(i, after: .callback(.applicationDidFinishLaunching))
    }
}
