import MemprofCore
import MemprofProfile

/// The report of one run, `memprof.report/1` (spec §10). Encoded with sorted keys, so the same
/// workload, seed and memprof version give the same bytes (apart from `host` and `profile`).
public struct Report: Codable, Sendable {
    public static let schemaName = "memprof.report/1"

    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
    }

    public struct Run: Codable, Sendable, Equatable {
        /// The workload's `name`.
        public var workload: String
        /// SHA-256 of the workload file's bytes (hex).
        public var workloadSha256: String
        /// Where the workload came from: a path, or `builtin:NAME`.
        public var source: String
        public var seed: UInt64
        public var durationUs: Microseconds
    }

    /// Lifecycle notifications of one app, and for an app that declares objects its
    /// notification center (spec §7); those keys are left out for apps without objects.
    public struct AppNotifications: Codable, Sendable, Equatable {
        /// Posts per notification name (one per delegate callback).
        public var posted: [String: Int]
        /// Every observer registered in the run, in registration order.
        public var observers: [ObserverRecord]?
        /// Deliveries to observers per notification name.
        public var deliveries: [String: Int]?
        /// Registered observers over time, `[atUs, count]` change points.
        public var observersOverTime: [[Int64]]?
        public var leakedObjects: Int?
        public var leakedBytes: Bytes?
        public var leaks: [LeakRecord]?
        public var dangling: [DanglingRecord]?

        public init(posted: [String: Int], center: ObserverReport? = nil) {
            self.posted = posted
            guard let center else { return }
            observers = center.observers
            deliveries = center.deliveries
            observersOverTime = center.observersOverTime
            leakedObjects = center.leakedObjects
            leakedBytes = center.leakedBytes
            leaks = center.leaks
            dangling = center.dangling
        }
    }

    public struct Notifications: Codable, Sendable, Equatable {
        public var apps: [String: AppNotifications]
        /// What went wrong with observers, most serious first, as sentences (spec §7); left out
        /// when no app declares objects.
        public var findings: [Finding]?
    }

    /// One observer problem, in words the summary and the HTML report show first.
    public struct Finding: Codable, Sendable, Equatable {
        public var app: String
        /// `crash`, `leak` or `dangling`.
        public var kind: String
        public var object: String
        public var text: String
    }

    /// Wall-clock facts about the machine and the run; not part of the deterministic contract.
    public struct Host: Codable, Sendable, Equatable {
        public var hostname: String
        public var os: String
        public var processors: Int
        public var generatedAt: String
        public var simulationWallMs: Double
        public var processedOccurrences: Int

        public init(hostname: String, os: String, processors: Int, generatedAt: String,
                    simulationWallMs: Double, processedOccurrences: Int) {
            self.hostname = hostname
            self.os = os
            self.processors = processors
            self.generatedAt = generatedAt
            self.simulationWallMs = simulationWallMs
            self.processedOccurrences = processedOccurrences
        }
    }

    public var schema: String
    public var tool: Tool
    public var run: Run
    public var device: Device
    public var policy: PolicySettings
    public var summary: Summary
    /// Per app, keyed by the workload's app key.
    public var apps: [String: AppStats]
    public var events: [SimEvent]
    public var timeline: Timeline
    public var jetsamEvents: [JetsamEvent]
    public var notifications: Notifications
    /// Stacks sampled while background work ran (spec §8); absent when nothing ran or sampling was off.
    /// Measured, so not part of the determinism contract.
    public var profile: SamplingProfile?
    public var host: Host
    /// Each app's states with their causes, as the run's engine set them (`SimulationResult`).
    /// Not part of report.json: a report read back from it has none, and ``lifecycle(apps:)``
    /// rebuilds the same intervals from its transitions, which carry their causes.
    public var stateIntervals: [String: [StateInterval]]?

    enum CodingKeys: String, CodingKey {
        case schema, tool, run, device, policy, summary, apps, events, timeline, jetsamEvents, notifications, profile, host
    }
}

extension Report {
    /// Builds the report of a finished simulation.
    public init(result: SimulationResult, workloadSha256: String, source: String, host: Host,
                profile: SamplingProfile? = nil) {
        self.init(head: ReportHead(result: result, workloadSha256: workloadSha256, source: source, host: host,
                                   profile: profile),
                  events: result.events, timeline: result.timeline, jetsamEvents: result.jetsamEvents)
        stateIntervals = result.stateIntervals
    }

    /// The report of `head` with its three large sections.
    public init(head: ReportHead, events: [SimEvent], timeline: Timeline, jetsamEvents: [JetsamEvent]) {
        schema = head.schema
        tool = head.tool
        run = head.run
        device = head.device
        policy = head.policy
        summary = head.summary
        apps = head.apps
        self.events = events
        self.timeline = timeline
        self.jetsamEvents = jetsamEvents
        notifications = head.notifications
        profile = head.profile
        host = head.host
    }

    /// Everything of the report but its events, timeline and jetsam snapshots.
    public var head: ReportHead {
        ReportHead(schema: schema, tool: tool, run: run, device: device, policy: policy, summary: summary, apps: apps,
                   notifications: notifications, profile: profile, host: host)
    }
}

/// The sections of a report known once its run has ended: everything but the events, the
/// timeline and the jetsam snapshots, which a run written as it goes puts into its files as it
/// goes. A ``Report`` is a head with those three sections; a head is what a run's files are
/// finished with (`RunFileSink`), what `memprof run` prints, and what the runs index reads of a
/// report.json.
public struct ReportHead: Sendable {
    public var schema: String
    public var tool: Report.Tool
    public var run: Report.Run
    public var device: Device
    public var policy: PolicySettings
    public var summary: Summary
    /// Per app, keyed by the workload's app key.
    public var apps: [String: AppStats]
    public var notifications: Report.Notifications
    /// Stacks sampled while background work ran; nil when nothing ran or sampling was off.
    public var profile: SamplingProfile?
    public var host: Report.Host

    public init(schema: String, tool: Report.Tool, run: Report.Run, device: Device, policy: PolicySettings,
                summary: Summary, apps: [String: AppStats], notifications: Report.Notifications,
                profile: SamplingProfile?, host: Report.Host) {
        self.schema = schema
        self.tool = tool
        self.run = run
        self.device = device
        self.policy = policy
        self.summary = summary
        self.apps = apps
        self.notifications = notifications
        self.profile = profile
        self.host = host
    }

    /// The head of the report of a finished simulation (its events, timeline and snapshots, if
    /// the result holds them, are not read).
    public init(result: SimulationResult, workloadSha256: String, source: String, host: Report.Host,
                profile: SamplingProfile? = nil) {
        let workload = result.workload
        schema = Report.schemaName
        tool = Report.Tool(name: "memprof", version: MemprofVersion.current)
        run = Report.Run(workload: workload.name, workloadSha256: workloadSha256, source: source, seed: workload.seed,
                         durationUs: workload.durationUs)
        device = workload.device
        policy = workload.policy
        summary = result.summary
        apps = Dictionary(uniqueKeysWithValues: zip(workload.apps, result.apps).map { spec, stats in
            (spec.id, stats.withHeadroom(of: spec, in: workload))
        })
        var notificationApps: [String: Report.AppNotifications] = [:]
        for (id, posted) in result.notificationsPosted {
            notificationApps[id] = Report.AppNotifications(posted: posted, center: result.observers[id])
        }
        notifications = Report.Notifications(apps: notificationApps,
                                             findings: Report.findings(workload: workload, observers: result.observers))
        self.profile = profile
        self.host = host
    }
}

public enum MemprofVersion {
    public static let current = "0.1.0"
}
