/// One thing that happened in a run, as the report lists it (spec §10 `events`).
///
/// Fields that do not apply to a kind are `nil` and left out of the JSON.
public struct SimEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An app changed state (`from`, `to`).
        case transition
        /// A delegate callback, with the notification posted for it.
        case callback
        /// A launch (`detail`: `cold` or `background`).
        case launch
        /// A resume into the foreground (`detail`: `warm` or `fromCompressed`; `latencyUs`).
        case resume
        /// A suspended app compressed to flash (`bytes`, `compressedBytes` after).
        case compression
        /// A compressed app read back into RAM (`bytes`).
        case decompression
        /// A suspended app evicted to reclaim memory.
        case eviction
        /// An app ended (`reason`).
        case exit
        /// A memory warning reached an app (`detail`: `pressure` or `script`; `freedBytes`).
        case memoryWarning
        /// The pressure level changed (`level`, `usedBytes`).
        case pressure
        /// A demand that did not fit: the reclaim decision (`neededBytes`, `freedBytes`, `candidates`).
        case reclaim
        /// A background handler started (`handler`, `detail` for why it was woken).
        case handlerStart
        /// A background handler ended (`handler`, `detail`: `completed`, `expiredEnded`, `timedOut`, ...).
        case handlerEnd
        /// A push delivered to the user only: the app ran nothing.
        case pushDelivered
        /// A script action that changed nothing (`action`, `detail` says why).
        case ignored
        /// An object instance was shown (`object`, `bytes`) (spec §7).
        case objectShown
        /// An object instance was dismissed (`object`, `detail`: `unregistered`, `leaked`, `dangling`).
        case objectDismissed
        /// A notification delivered to an observer (`notification`, `object`; `detail` for a
        /// deallocated observer).
        case notificationDelivery
        /// macOS: memory went past RAM and started paging out, or came back (`usedBytes`, `bytes` swapped).
        case swap
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
    }

    public var atUs: Microseconds
    public var kind: Kind
    public var app: String?
    public var from: AppState?
    public var to: AppState?
    public var callback: LifecycleCallback?
    public var notification: String?
    /// The object instance, as `Name#n`, for object and delivery events.
    public var object: String?
    public var reason: ExitReason?
    public var action: String?
    public var handler: String?
    public var detail: String?
    public var level: PressureLevel?
    public var bytes: Bytes?
    public var usedBytes: Bytes?
    public var compressedBytes: Bytes?
    public var neededBytes: Bytes?
    public var freedBytes: Bytes?
    public var latencyUs: Microseconds?
    public var candidates: [Candidate]?

    public init(atUs: Microseconds, kind: Kind, app: String? = nil) {
        self.atUs = atUs
        self.kind = kind
        self.app = app
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

    public var atUs: Microseconds
    public var killed: String
    public var exitReason: ExitReason
    public var largestProcess: String
    public var pageSize: Bytes
    public var processes: [Process]
}
