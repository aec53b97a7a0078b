/// BGTaskScheduler (iOS 13 and later, the `xnu` policy): app refresh and processing tasks, and
/// background fetch as the system schedules it from iOS 13 (Model choices, "Background tasks
/// the system schedules").
///
/// Triggers: an app entering the background submits its requests (`startBackgroundWork`), and a
/// task that starts submits its next one; `scheduledTaskDue` at a request's earliest time and
/// `charging` at each end of a charging interval; the user starting to use the phone
/// (`enterForeground`) expires running processing tasks. After every occurrence the loop offers
/// the due requests their time (`offerScheduledTasks`) while one is due.
///
/// The system's choice of time, which Apple does not publish, is memprof's rule: a request runs at
/// the first moment at or after its earliest time when its app is not in the foreground and
/// - an app refresh task or a fetch: the phone is awake, an app in the foreground or charging
///   (the system coalesces background refresh into times the phone is up anyway);
/// - a processing task: the phone is idle (no app in the foreground) and, if the request requires
///   external power, charging.
extension Simulator {
    /// The kinds BGTaskScheduler runs, in the order a pass offers them.
    static let scheduledKinds: [HandlerKind] = [.fetch, .refresh, .processing]

    /// Submits app `i`'s requests on entering the background: each replaces a pending one.
    mutating func submitTaskRequests(_ i: Int) {
        guard schedulesTasks else { return }
        if apps[i].fetchMode, let refresh = apps[i].spec.refresh { submit(i, .refresh, earliest: now + refresh.earliestUs) }
        if let processing = apps[i].spec.processing { submit(i, .processing, earliest: now + processing.earliestUs) }
    }

    /// Submits (or replaces) app `i`'s request of `kind`, to run no earlier than `earliest`.
    mutating func submit(_ i: Int, _ kind: HandlerKind, earliest: Microseconds) {
        apps[i][due: kind] = earliest
        nextScheduledUs = min(nextScheduledUs, earliest)
        if earliest > now { schedule(at: earliest, .scheduledTaskDue) }
    }

    /// Whether app `i`'s request of `kind` may run now.
    func mayRunScheduled(_ i: Int, _ kind: HandlerKind) -> Bool {
        guard !apps[i].state.isForeground, apps[i][run: kind] == nil else { return false }
        if apps[i].state == .notRunning, !mayLaunchInBackground(i) { return false }
        switch kind {
        case .processing:
            let needsPower = apps[i].spec.processing?.requiresExternalPower ?? false
            return foreground == nil && (charging || !needsPower)
        default:
            return foreground != nil || charging
        }
    }

    /// Runs every due request whose conditions hold, and notes the earliest one left.
    mutating func offerScheduledTasks() {
        nextScheduledUs = .max
        for i in apps.indices {
            for kind in Self.scheduledKinds {
                guard let due = apps[i][due: kind] else { continue }
                guard due <= now, mayRunScheduled(i, kind) else {
                    nextScheduledUs = min(nextScheduledUs, due)
                    continue
                }
                apps[i][due: kind] = nil
                startScheduled(i, kind)
            }
        }
    }

    /// Starts app `i`'s task of `kind`, launching the app into the background if the system had
    /// ended it, and submits the next request (a fetch's interval on from its start).
    mutating func startScheduled(_ i: Int, _ kind: HandlerKind) {
        switch kind {
        case .fetch:
            apps[i].lastFetchStartUs = now
            if let interval = apps[i].spec.fetch?.intervalUs { submit(i, .fetch, earliest: now + interval) }
        case .refresh:
            if let refresh = apps[i].spec.refresh { submit(i, .refresh, earliest: now + refresh.earliestUs) }
        case .processing:
            if let processing = apps[i].spec.processing { submit(i, .processing, earliest: now + processing.earliestUs) }
        case .backgroundTask, .push:
            return
        }
        if apps[i].state == .notRunning {
            backgroundLaunch(i, for: kind)
        } else {
            runHandler(i, kind)
        }
    }

    /// The phone is put on or taken off its charger (a `charging` event, before what it starts
    /// or ends). Unplugged, processing tasks that require external power expire.
    mutating func chargingChanged(_ on: Bool) {
        charging = on
        recordDevice(.charging(on ? .pluggedIn : .unplugged))
        guard !on else { return }
        for i in apps.indices where apps[i].processingRun != nil && apps[i].spec.processing?.requiresExternalPower == true {
            expireScheduled(i, .processing)
        }
    }

    /// The user starts using the phone: "The system terminates any background processing tasks
    /// running when the user starts using the device. Background refresh tasks are not affected"
    /// (developer.apple.com/documentation/backgroundtasks/bgprocessingtask).
    mutating func userStartsUsingPhone() {
        for i in apps.indices where apps[i].processingRun != nil { expireScheduled(i, .processing) }
    }

    /// The system calls the expiration handler of app `i`'s task of `kind`: the task ends there
    /// and the app suspends if nothing else keeps it running.
    mutating func expireScheduled(_ i: Int, _ kind: HandlerKind) {
        guard let run = apps[i][run: kind] else { return }
        apps[i][run: kind] = nil
        setFootprint(i, apps[i].footprint - min(run.allocated, apps[i].footprint))
        updateScheduledCounts(i, kind) { $0.expired += 1 }
        recordEnd(BackgroundActivity(kind), i, .expiredEnded)
        suspendIfIdle(i, after: .activityEnded(BackgroundActivity(kind), .expiredEnded))
    }

    mutating func updateScheduledCounts(_ i: Int, _ kind: HandlerKind, _ change: (inout ScheduledTaskCounts) -> Void) {
        if kind == .refresh {
            change(&apps[i].stats.refreshTasks[default: ScheduledTaskCounts()])
            change(&summary.refreshTasks[default: ScheduledTaskCounts()])
        } else {
            change(&apps[i].stats.processingTasks[default: ScheduledTaskCounts()])
            change(&summary.processingTasks[default: ScheduledTaskCounts()])
        }
    }
}

extension Optional {
    /// The wrapped value, or `fallback` stored first when there is none.
    subscript(default fallback: @autoclosure () -> Wrapped) -> Wrapped {
        get { self ?? fallback() }
        set { self = newValue }
    }
}
