/// Background modes an app declares (its `UIBackgroundModes`).
public enum AppMode: String, Sendable, Hashable, Codable, CaseIterable {
    case fetch
    case remoteNotification = "remote-notification"
    case audio
    case location
    case voip
    /// `processing`: the mode `BGProcessingTask` needs (developer.apple.com/documentation/
    /// backgroundtasks/bgprocessingtask: "requires setting the processing UIBackgroundModes
    /// capability").
    case processing
}

/// A background handler: how long it runs, what it holds while running, and optional real work.
public struct HandlerSpec: Sendable, Hashable {
    public var timeUs: Microseconds
    public var allocates: Bytes
    public var work: WorkSpec?
    public var timing: WorkTiming
    /// `allocates: measured`: the handler demands its program's measured peak in use (§8.1).
    public var allocatesMeasured: Bool
    /// The handler takes a file lock in a shared container and still holds it when the app is
    /// suspended: iOS then kills the app (`0xdead10cc`, `suspendedWithLockedFile`).
    public var locksFile = false
    /// The share of one CPU the handler keeps busy in the background (0.9 = 90%); over the
    /// background limit (``cpuLimitShare`` over ``cpuLimitWindowUs``) iOS kills the app
    /// (`cpuResourceLimit`).
    public var cpu: Double?

    /// iOS's background CPU limit, as its CPU resource reports state it: "exceeding limit of 80%
    /// cpu over 60 seconds".
    public static let cpuLimitShare = 0.8
    public static let cpuLimitWindowUs: Microseconds = 60_000_000

    public init(timeUs: Microseconds = 0, allocates: Bytes = 0, work: WorkSpec? = nil,
                timing: WorkTiming = .declared, allocatesMeasured: Bool = false) {
        self.timeUs = timeUs
        self.allocates = allocates
        self.work = work
        self.timing = timing
        self.allocatesMeasured = allocatesMeasured
    }
}

/// `beginBackgroundTaskWithExpirationHandler`, declared once per app (spec §2.2).
public struct BackgroundTaskSpec: Sendable, Hashable {
    public var handler: HandlerSpec
    /// When the limit is reached: `true` ends the task (the app suspends), `false` gets it killed.
    public var endsOnExpiration: Bool

    public init(handler: HandlerSpec, endsOnExpiration: Bool = false) {
        self.handler = handler
        self.endsOnExpiration = endsOnExpiration
    }
}

/// Background fetch: woken every `intervalUs` (never without one).
public struct FetchSpec: Sendable, Hashable {
    public var intervalUs: Microseconds?
    public var handler: HandlerSpec

    public init(intervalUs: Microseconds?, handler: HandlerSpec) {
        self.intervalUs = intervalUs
        self.handler = handler
    }
}

/// A BGTaskScheduler request an app submits (iOS 13 and later, the `xnu` policy): an app refresh
/// task (`BGAppRefreshTaskRequest`) or a processing task (`BGProcessingTaskRequest`). The app
/// submits it on entering the background and again when the task starts (as Apple's sample
/// "Refreshing and Maintaining Your App Using Background Tasks" does); a new request replaces the
/// pending one. The system runs it no earlier than `earliestUs` after the submission, at a time it
/// chooses (the model choices say how memprof chooses it).
public struct ScheduledTaskSpec: Sendable, Hashable {
    /// `earliestBeginDate`, counted from the submission.
    public var earliestUs: Microseconds
    public var handler: HandlerSpec
    /// `requiresExternalPower` (processing tasks only): run only while the phone charges.
    public var requiresExternalPower: Bool

    public init(earliestUs: Microseconds, handler: HandlerSpec, requiresExternalPower: Bool = false) {
        self.earliestUs = earliestUs
        self.handler = handler
        self.requiresExternalPower = requiresExternalPower
    }
}

/// When the phone is on its charger: from `startUs` until `endUs`, counted from the run's start.
public struct ChargingInterval: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds

    public init(startUs: Microseconds, endUs: Microseconds) {
        self.startUs = startUs
        self.endUs = endUs
    }
}

/// VoIP keep-alive: a short handler every `keepaliveUs`.
public struct VoIPSpec: Sendable, Hashable {
    public var keepaliveUs: Microseconds
    public var timeUs: Microseconds

    public init(keepaliveUs: Microseconds, timeUs: Microseconds = 0) {
        self.keepaliveUs = keepaliveUs
        self.timeUs = timeUs
    }
}

/// One app of a workload, fully resolved (spec §9), with the defaults of spec §1 applied.
public struct AppSpec: Sendable, Hashable {
    /// The key the workload and the report use, for example `mail`.
    public var id: String
    /// The human name, for example `Mail`.
    public var displayName: String
    public var launchFootprint: Bytes
    public var launchTimeUs: Microseconds
    public var resumeTimeUs: Microseconds
    /// Footprint growth while in the foreground, up to `maxFootprint`.
    public var growth: Rate?
    public var maxFootprint: Bytes?
    public var backgroundRelease: Bytes
    public var backgroundHandlerTimeUs: Microseconds
    public var memoryWarningRelease: Bytes
    /// The declared `minFootprint`: what the app keeps whatever it releases (its code, runtime and
    /// the state it cannot drop). `nil` uses ``defaultFloor``.
    public var minFootprint: Bytes?
    public var modes: Set<AppMode>
    public var fetch: FetchSpec?
    public var push: HandlerSpec?
    public var backgroundTask: BackgroundTaskSpec?
    public var voip: VoIPSpec?
    /// Its `BGAppRefreshTask` request (needs the `fetch` mode).
    public var refresh: ScheduledTaskSpec?
    /// Its `BGProcessingTask` request (needs the `processing` mode).
    public var processing: ScheduledTaskSpec?
    /// Objects the script can show and dismiss (spec §7).
    public var objects: [ObjectSpec] = []
    /// The app has the increased-memory-limit entitlement: its active limit is the device's
    /// ``Device/entitledAppLimit`` instead of ``Device/appLimit``.
    public var increasedMemoryLimit = false
    /// Its limit while inactive (not in the foreground and not playing audio: xnu's
    /// `memlimit_inactive`); nil for the same as the active one.
    public var inactiveLimit: Bytes?
    /// How much smaller its memory is in the in-RAM compressor (the `xnu` policy on a phone):
    /// uncompressed bytes ÷ compressed bytes. `nil` uses ``defaultCompressionRatio``.
    public var compressionRatio: Double?
    /// The footprint the app suspends at, stated as MetricKit reports it
    /// (`averageSuspendedMemory`): entering the background and again at suspension it releases
    /// what it holds above this, never going under its floor, and takes it back when it resumes.
    /// `nil`: it releases ``backgroundRelease`` instead.
    public var suspendedFootprint: Bytes?

    public init(id: String, displayName: String? = nil, launchFootprint: Bytes,
                launchTimeUs: Microseconds = .second, resumeTimeUs: Microseconds = 200_000,
                growth: Rate? = nil, maxFootprint: Bytes? = nil, backgroundRelease: Bytes = 0,
                backgroundHandlerTimeUs: Microseconds = 0, memoryWarningRelease: Bytes = 0,
                modes: Set<AppMode> = [], fetch: FetchSpec? = nil, push: HandlerSpec? = nil,
                backgroundTask: BackgroundTaskSpec? = nil, voip: VoIPSpec? = nil) {
        self.id = id
        self.displayName = displayName ?? id
        self.launchFootprint = launchFootprint
        self.launchTimeUs = launchTimeUs
        self.resumeTimeUs = resumeTimeUs
        self.growth = growth
        self.maxFootprint = maxFootprint
        self.backgroundRelease = backgroundRelease
        self.backgroundHandlerTimeUs = backgroundHandlerTimeUs
        self.memoryWarningRelease = memoryWarningRelease
        self.modes = modes
        self.fetch = fetch
        self.push = push
        self.backgroundTask = backgroundTask
        self.voip = voip
    }

    /// The compressor's ratio when an app declares none: 257,255 pages stored uncompressed in
    /// 96,635 pages of the compressor (2.66×), the `uncompressed` and `compressorSize` of a
    /// published iOS 14.2 JetsamEvent report (iPhone12,1; Tests/MemprofFieldTests/Fixtures/corpus/
    /// ios14.2-iphone12-1-highwater.ips, named in its SOURCES.md), the lowest of the corpus's six
    /// reports (2.66× to 3.87×).
    public static let defaultCompressionRatio = 257_255.0 / 96_635.0

    /// ``compressionRatio``, or ``defaultCompressionRatio`` when not declared.
    public var compressorRatio: Double { compressionRatio ?? Self.defaultCompressionRatio }

    /// The floor when none is declared: 5 MB, or the launch footprint if that is smaller.
    public static let defaultFloor: Bytes = 5 * .megabyte

    /// What releases (`onBackground.release`, `onMemoryWarning.release`, `free`) never go under.
    public var footprintFloor: Bytes { minFootprint ?? min(launchFootprint, Self.defaultFloor) }

    /// Its fatal limit while active (in the foreground, or playing audio), on `device`.
    public func activeLimit(on device: Device) -> Bytes {
        increasedMemoryLimit ? device.entitledAppLimit : device.appLimit
    }

    /// Its fatal limit while inactive, on `device`.
    public func inactiveLimit(on device: Device) -> Bytes { inactiveLimit ?? activeLimit(on: device) }
}
