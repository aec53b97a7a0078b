/// One thing that happened in a run, as the report lists it (spec §10 `events`).
///
/// Every event has a time and, unless it concerns the whole device (`pressure`, `swap`), an
/// app; what happened is a ``Payload``, one case per kind with its own typed values. report.json
/// writes an event flat, as `kind` plus the keys that apply (SimEvent+JSON.swift has the mapping:
/// typed values become `detail`, `handler`, `bytes`... words and numbers).
public struct SimEvent: Sendable, Hashable {
    /// The kind of an event: report.json's `kind` word.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case transition, callback, launch, resume, compression, decompression, eviction, exit, memoryWarning,
             pressure, reclaim, handlerStart, handlerEnd, pushDelivered, ignored, objectShown, objectDismissed,
             notificationDelivery, swap, processExit, processLaunch, charging
    }

    /// What happened, with what the report says of it.
    public enum Payload: Sendable, Hashable {
        /// An app changed state, because of `cause` (nil when no step of the engine names one, or
        /// when read from a report.json of a memprof that did not record causes).
        case transition(from: AppState, to: AppState, cause: StateCause?)
        /// A delegate callback, with the notification posted for it.
        case callback(LifecycleCallback, notification: String)
        /// A launch holding `bytes`; a launch into the background names the wake it was for.
        case launch(LaunchKind, bytes: Bytes, wake: HandlerKind?)
        /// A resume into the foreground completed after `latencyUs`.
        case resume(ResumeKind, latencyUs: Microseconds)
        /// A suspended app (`bytes`) compressed to flash, leaving `compressedBytes` on flash; the
        /// `xnu` freezer's reasons when it chose the app.
        indirect case compression(bytes: Bytes, compressedBytes: Bytes, freezer: FreezerDecision?)
        /// A compressed app (`bytes`) read back into RAM.
        case decompression(bytes: Bytes)
        /// A suspended or compressed app (`bytes`) evicted to reclaim memory.
        case eviction(bytes: Bytes)
        /// An app ended, from `from`.
        case exit(ExitReason, from: AppState)
        /// A memory warning reached the app, which freed `freedBytes`.
        case memoryWarning(MemoryWarningCause, freedBytes: Bytes)
        /// The pressure level changed, with `usedBytes` in use (no app).
        case pressure(PressureLevel, usedBytes: Bytes)
        /// A demand of the app that did not fit: the reclaim decision.
        case reclaim(Reclaim)
        /// A background activity started, holding `bytes` (handlers); a push to the foreground
        /// app runs in place, `inForeground`.
        case handlerStart(BackgroundActivity, bytes: Bytes?, inForeground: Bool)
        /// A background activity ended.
        case handlerEnd(BackgroundActivity, outcome: HandlerOutcome)
        /// A push delivered to the user only: the app ran nothing.
        case pushDelivered(PushDeliveredReason)
        /// A script action (by name), or a declaration, that changed nothing.
        case ignored(action: String, reason: IgnoredReason)
        /// An object instance (`Name#n`) was shown, holding `bytes` (spec §7).
        case objectShown(object: String, bytes: Bytes)
        /// An object instance was dismissed; its `bytes` go unless it leaked.
        case objectDismissed(object: String, outcome: DismissalOutcome, bytes: Bytes)
        /// A notification delivered to an observer of an object instance.
        case notificationDelivery(notification: String, object: String, observer: DeliveredObserver)
        /// macOS: memory went past RAM or came back (`usedBytes` in use, `bytes` paged out; no app).
        case swap(SwapDirection, usedBytes: Bytes, bytes: Bytes)
        /// A process that is not an app (the event's `app` is its key) ended for `reason`, holding
        /// `bytes`, from `band` (spec §5).
        case processExit(ExitReason, kind: ProcessKind, band: Int, bytes: Bytes)
        /// launchd started a killed process again (the event's `app` is its key), with `bytes`
        /// resident, in `band` (Processes.swift).
        case processLaunch(kind: ProcessKind, band: Int, bytes: Bytes)
        /// The phone was put on or taken off its charger (no app).
        case charging(ChargerChange)
    }

    /// A reclaim decision (spec §4, §5): what the demand needed, what the policy freed, what is in
    /// use after, and every app it considered.
    public struct Reclaim: Sendable, Hashable {
        public var neededBytes: Bytes
        public var freedBytes: Bytes
        public var usedBytes: Bytes
        public var candidates: [Candidate]

        public init(neededBytes: Bytes, freedBytes: Bytes, usedBytes: Bytes, candidates: [Candidate]) {
            self.neededBytes = neededBytes
            self.freedBytes = freedBytes
            self.usedBytes = usedBytes
            self.candidates = candidates
        }
    }

    /// One app the policy considered while reclaiming, in the order considered.
    public struct Candidate: Sendable, Hashable, Codable {
        public var app: String
        public var state: AppState
        public var footprintBytes: Bytes
        public var lastForegroundUs: Microseconds
        /// Whether it was evicted or killed for this demand.
        public var taken: Bool
        /// Its jetsam band under a policy with bands (`xnu`); nil, and left out, otherwise.
        public var band: Int? = nil

        public init(app: String, state: AppState, footprintBytes: Bytes, lastForegroundUs: Microseconds, taken: Bool,
                    band: Int? = nil) {
            self.app = app
            self.state = state
            self.footprintBytes = footprintBytes
            self.lastForegroundUs = lastForegroundUs
            self.taken = taken
            self.band = band
        }
    }

    public var atUs: Microseconds
    /// The app the event is about (or, for a reclaim, the app that demanded); nil for device events.
    public var app: String?
    public var payload: Payload

    public init(atUs: Microseconds, app: String?, _ payload: Payload) {
        self.atUs = atUs
        self.app = app
        self.payload = payload
    }

    /// The kind of the event (report.json's `kind`).
    public var kind: Kind {
        switch payload {
        case .transition: .transition
        case .callback: .callback
        case .launch: .launch
        case .resume: .resume
        case .compression: .compression
        case .decompression: .decompression
        case .eviction: .eviction
        case .exit: .exit
        case .memoryWarning: .memoryWarning
        case .pressure: .pressure
        case .reclaim: .reclaim
        case .handlerStart: .handlerStart
        case .handlerEnd: .handlerEnd
        case .pushDelivered: .pushDelivered
        case .ignored: .ignored
        case .objectShown: .objectShown
        case .objectDismissed: .objectDismissed
        case .notificationDelivery: .notificationDelivery
        case .swap: .swap
        case .processExit: .processExit
        case .processLaunch: .processLaunch
        case .charging: .charging
        }
    }
}

/// A snapshot in the shape of an iOS jetsam event report, taken at each memory kill (spec §10).
public struct JetsamEvent: Sendable, Hashable, Codable {
    public struct Process: Sendable, Hashable, Codable {
        /// A stable pid per app (300 + 7 × its index in the workload).
        public var pid: Int? = nil
        /// Its jetsam band at the moment (the policy's, or the device era's under `seed-2015`).
        public var priority: Int? = nil
        public var name: String
        /// Resident pages.
        public var rpages: Int64
        public var states: [String]
        /// On the killed process only: `vm-pageshortage` or `per-process-limit`.
        public var reason: String?

        public init(pid: Int? = nil, priority: Int? = nil, name: String, rpages: Int64, states: [String],
                    reason: String? = nil) {
            self.pid = pid
            self.priority = priority
            self.name = name
            self.rpages = rpages
            self.states = states
            self.reason = reason
        }
    }

    /// The in-RAM compressor at the moment of a kill, in pages, as xnu's jetsam snapshot takes it
    /// from `host_statistics64` (xnu-11215.1.10 bsd/kern/kern_memorystatus.c:5109-5112;
    /// osfmk/kern/host.c:843-855): the pages the pool takes (`compressor_page_count`), the pages
    /// it holds counted uncompressed (`c_segment_pages_compressed`), and the pages compressed and
    /// decompressed since the run began (`vm_stat.compressions`, `vm_stat.decompressions`).
    public struct Compressor: Sendable, Hashable, Codable {
        public var pages: Int64
        public var uncompressedPages: Int64
        public var compressions: Int64
        public var decompressions: Int64

        public init(pages: Int64, uncompressedPages: Int64, compressions: Int64, decompressions: Int64) {
            self.pages = pages
            self.uncompressedPages = uncompressedPages
            self.compressions = compressions
            self.decompressions = decompressions
        }
    }

    /// What a snapshot of more than ``JetsamEvent/listLimit`` processes leaves out: how many
    /// processes were in memory besides those listed, and their resident pages together.
    public struct Unlisted: Sendable, Hashable, Codable {
        public var processes: Int
        public var rpages: Int64

        public init(processes: Int, rpages: Int64) {
            self.processes = processes
            self.rpages = rpages
        }
    }

    /// The most processes a snapshot lists. iOS lists every process (the corpus's largest report,
    /// ios14.2-iphone12-1-highwater.ips, lists 442); a run of thousands of apps with a kill each
    /// would write every one at every kill, a report growing as the square of the apps. Past this
    /// many, a snapshot lists the largest ones and the killed one, and counts the rest in
    /// ``unlisted``; a snapshot of at most this many processes lists them all.
    public static let listLimit = 512

    public var atUs: Microseconds
    public var killed: String
    public var exitReason: ExitReason
    public var largestProcess: String
    public var pageSize: Bytes
    public var processes: [Process]
    /// Set when the run has an in-RAM compressor (the `xnu` policy on a phone); nil otherwise,
    /// and then not written in report.json.
    public var compressor: Compressor?
    /// Set when the snapshot lists fewer processes than were in memory (``listLimit``); nil
    /// otherwise, and then not written in report.json.
    public var unlisted: Unlisted?

    public init(atUs: Microseconds, killed: String, exitReason: ExitReason, largestProcess: String, pageSize: Bytes,
                processes: [Process], compressor: Compressor? = nil, unlisted: Unlisted? = nil) {
        self.atUs = atUs
        self.killed = killed
        self.exitReason = exitReason
        self.largestProcess = largestProcess
        self.pageSize = pageSize
        self.processes = processes
        self.compressor = compressor
        self.unlisted = unlisted
    }
}
