/// How a declared handler time or footprint sits against the limit it runs under (spec §2.2, §4):
/// "background task: 8m of 10m, 2m to spare". Computed from the workload alone, so `validate`
/// can warn before anything runs and the report can show it beside what happened.
public struct LimitFit: Sendable, Hashable {
    /// What is measured against a limit.
    public enum Subject: String, Sendable, Hashable, CaseIterable {
        /// The enter-background handler (`onBackground.time`) against the policy's 5 s.
        case enterBackground
        /// The background task's `time` against its limit (10 minutes), counted from entering
        /// the background.
        case backgroundTask
        /// The fetch handler's `time` against the fetch window (30 s).
        case fetch
        /// The push handler's `time` against the push window (30 s).
        case push
        /// A BGTaskScheduler app refresh task's `time` against its 30 s
        /// (``BackgroundTime/refreshWindowUs``), where the device's iOS schedules tasks.
        case refresh
        /// The most the app declares it holds (launch footprint, grown to `maxFootprint`, plus its
        /// largest handler allocation) against its active limit on the device (``AppSpec/activeLimit(on:)``:
        /// the per-app limit, or the increased one with the entitlement).
        case footprint

        /// The workload key path of the declared value, below `apps.<id>`.
        public var keyPath: [String] {
            switch self {
            case .enterBackground: ["onBackground", "time"]
            case .backgroundTask: ["backgroundTask", "time"]
            case .fetch: ["fetch", "time"]
            case .push: ["push", "time"]
            case .refresh: ["refresh", "time"]
            case .footprint: ["launch", "footprint"]
            }
        }

        /// The words people use for it.
        public var label: String {
            switch self {
            case .enterBackground: "enter-background handler"
            case .backgroundTask: "background task"
            case .fetch: "fetch"
            case .push: "push"
            case .refresh: "app refresh task"
            case .footprint: "footprint"
            }
        }
    }

    public var subject: Subject
    /// The declared time in µs, or bytes for `footprint`.
    public var declared: Int64
    /// The limit in the same unit.
    public var limit: Int64
    /// `limit − declared`: below zero when the declared value cannot fit.
    public var spare: Int64 { limit - declared }
    public var fits: Bool { declared <= limit }

    public init(subject: Subject, declared: Int64, limit: Int64) {
        self.subject = subject
        self.declared = declared
        self.limit = limit
    }
}

extension AppSpec {
    /// The app's declared handlers and footprint against the limits of `policy` on `device`, in
    /// the order of ``LimitFit/Subject``. Handlers the app does not declare are left out; with
    /// `timing: measured` the declared time is what is compared (the measured one is known only
    /// when the work runs).
    public func limitFits(policy: PolicySettings, device: Device) -> [LimitFit] {
        var fits: [LimitFit] = []
        if device.platform == .ios {
            if backgroundHandlerTimeUs > 0 {
                fits.append(LimitFit(subject: .enterBackground, declared: backgroundHandlerTimeUs,
                                     limit: policy.enterBackgroundLimitUs))
            }
            if let task = backgroundTask {
                fits.append(LimitFit(subject: .backgroundTask, declared: task.handler.timeUs,
                                     limit: policy.backgroundTaskLimitUs))
            }
            if modes.contains(.fetch), let fetch {
                fits.append(LimitFit(subject: .fetch, declared: fetch.handler.timeUs, limit: policy.fetchWindowUs))
            }
            if modes.contains(.remoteNotification), let push {
                fits.append(LimitFit(subject: .push, declared: push.timeUs, limit: policy.pushWindowUs))
            }
            if modes.contains(.fetch), let refresh, BackgroundTime.schedulesTasks(on: device, policy: policy) {
                fits.append(LimitFit(subject: .refresh, declared: refresh.handler.timeUs, limit: BackgroundTime.refreshWindowUs))
            }
        }
        fits.append(LimitFit(subject: .footprint, declared: declaredPeakFootprint, limit: activeLimit(on: device)))
        return fits
    }

    /// The most the app declares it holds at once: its launch footprint grown to `maxFootprint`,
    /// plus the largest allocation of one of its handlers.
    public var declaredPeakFootprint: Bytes {
        let handlers = [fetch?.handler.allocates, push?.allocates, backgroundTask?.handler.allocates,
                        refresh?.handler.allocates, processing?.handler.allocates]
        return max(launchFootprint, maxFootprint ?? launchFootprint) + (handlers.compactMap { $0 }.max() ?? 0)
    }
}

/// Each declared handler's time against its limit, and the app's peak footprint against its
/// active limit on the device (report `apps.<id>.headroom`). Handlers the app does not declare are
/// left out; a negative `spare…` means the declared value cannot fit.
public struct Headroom: Sendable, Hashable, Codable {
    public struct Time: Sendable, Hashable, Codable {
        public var declaredUs: Microseconds
        public var limitUs: Microseconds
        public var spareUs: Microseconds
    }

    public struct Memory: Sendable, Hashable, Codable {
        /// The largest footprint the app reached in the run, or asked for when passing its limit
        /// killed it (``AppStats/killedAskingBytes``), whichever is larger.
        public var peakBytes: Bytes
        public var limitBytes: Bytes
        public var spareBytes: Bytes
    }

    public var enterBackground: Time?
    public var backgroundTask: Time?
    public var fetch: Time?
    public var push: Time?
    /// Absent unless the app declares an app refresh task on an iOS that schedules it.
    public var refresh: Time?
    public var footprint: Memory

    /// The headroom of `app` in a run where it peaked at `peakBytes`.
    public init(app: AppSpec, policy: PolicySettings, device: Device, peakBytes: Bytes) {
        let limit = app.activeLimit(on: device)
        footprint = Memory(peakBytes: peakBytes, limitBytes: limit, spareBytes: limit - peakBytes)
        for fit in app.limitFits(policy: policy, device: device) {
            let time = Time(declaredUs: fit.declared, limitUs: fit.limit, spareUs: fit.spare)
            switch fit.subject {
            case .enterBackground: enterBackground = time
            case .backgroundTask: backgroundTask = time
            case .fetch: fetch = time
            case .push: push = time
            case .refresh: refresh = time
            case .footprint: break
            }
        }
    }

    /// `background task 3m of 10m, 7m to spare`, one entry per declared handler, then the footprint.
    public var phrases: [String] {
        var out: [String] = []
        let handlers: [(LimitFit.Subject, Time?)] = [(.enterBackground, enterBackground), (.backgroundTask, backgroundTask),
                                                      (.fetch, fetch), (.push, push), (.refresh, refresh)]
        for case (let subject, let time?) in handlers {
            let rest = time.spareUs >= 0 ? "\(Format.duration(time.spareUs)) to spare"
                : "\(Format.duration(-time.spareUs)) over"
            out.append("\(subject.label) \(Format.duration(time.declaredUs)) of \(Format.duration(time.limitUs)), \(rest)")
        }
        let rest = footprint.spareBytes >= 0 ? "\(Format.bytes(footprint.spareBytes)) to spare"
            : "\(Format.bytes(-footprint.spareBytes)) over"
        out.append("peak \(Format.bytes(footprint.peakBytes)) of \(Format.bytes(footprint.limitBytes)), \(rest)")
        return out
    }
}

extension AppStats {
    /// These statistics with `headroom` filled in for `app` under the workload's policy and device
    /// (what report.json and sweeps show).
    public func withHeadroom(of app: AppSpec, in workload: Workload) -> AppStats {
        var stats = self
        stats.headroom = Headroom(app: app, policy: workload.policy, device: workload.device,
                                  peakBytes: max(peakFootprintBytes, killedAskingBytes ?? 0))
        return stats
    }
}
