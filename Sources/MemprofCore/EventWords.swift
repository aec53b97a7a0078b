/// The closed sets of words events carry (report.json's `detail` and `handler` values). Each raw
/// value is the word report.json writes; readers switch over the cases, never over the words.

/// How an app was launched (a `launch` event).
public enum LaunchKind: String, Sendable, Hashable, CaseIterable {
    /// Into the foreground, by the user.
    case cold
    /// Into the background, for a wake (fetch, push) of an app the system ended.
    case background
}

/// How an app came back to the foreground (a `resume` event).
public enum ResumeKind: String, Sendable, Hashable, CaseIterable {
    /// From `background` or `suspended`: its memory was still in RAM.
    case warm
    /// From `compressed`: read back from flash first.
    case fromCompressed
}

/// Why a memory warning reached the apps (a `memoryWarning` event).
public enum MemoryWarningCause: String, Sendable, Hashable, CaseIterable {
    /// A demand raised the pressure level out of `normal`.
    case pressure
    /// The script's `memoryWarning` action.
    case script
    /// Under `xnu` on a phone, the app's own footprint rose past 80% of its own limit
    /// (`PHYS_FOOTPRINT_WARNING_LEVEL`, xnu-11215.1.10 osfmk/kern/task.c:427, the ledger's warning
    /// level set with the limit at :1627 and :7485). xnu posts `NOTE_MEMORYSTATUS_PROC_LIMIT_WARN`
    /// on the way up only (:7228-7237) and, on iOS, sets the pressure note UIKit listens to when
    /// the app has not asked for the limit note (bsd/kern/kern_memorystatus_notify.c:637-657):
    /// the app gets `applicationDidReceiveMemoryWarning` whatever the system's pressure level.
    case limit
}

/// What keeps an app running in the background, as events name it (`handler`, spec §2.2).
public enum BackgroundActivity: String, Sendable, Hashable, CaseIterable {
    case backgroundTask
    case fetch
    case push
    case audio
    case location
    case voipCall
    case voipKeepalive
    /// A BGTaskScheduler app refresh task.
    case refresh
    /// A BGTaskScheduler processing task.
    case processing

    public init(_ kind: HandlerKind) {
        switch kind {
        case .backgroundTask: self = .backgroundTask
        case .fetch: self = .fetch
        case .push: self = .push
        case .refresh: self = .refresh
        case .processing: self = .processing
        }
    }
}

/// How a background activity ended (a `handlerEnd` event's `detail`).
public enum HandlerOutcome: Sendable, Hashable {
    /// It finished on its own, or the app stopped it.
    case completed
    /// A background task reached its limit and its expiration handler ended it.
    case expiredEnded
    /// A background task reached its limit without ending: the app is killed.
    case expiredKilled
    /// A fetch or push handler ran past its window: the app is killed.
    case timedOut
    /// Audio stopped because another app (its id) started playing.
    case interrupted(by: String)
    /// The handler's program (spec §8.1) crashed or exited with a failure status, which ends the
    /// handler then: the signal's name (`SIGSEGV`) or `exit status N`.
    case failed(String)

    /// The words report.json writes.
    public var detail: String {
        switch self {
        case .completed: "completed"
        case .expiredEnded: "expiredEnded"
        case .expiredKilled: "expiredKilled"
        case .timedOut: "timedOut"
        case .interrupted(let app): Self.interruptedPrefix + app
        case .failed(let failure): Self.failedPrefix + failure
        }
    }

    static let interruptedPrefix = "interrupted by "
    static let failedPrefix = "failed: "

    /// The outcome report.json's words name, or nil.
    public init?(detail: String) {
        switch detail {
        case "completed": self = .completed
        case "expiredEnded": self = .expiredEnded
        case "expiredKilled": self = .expiredKilled
        case "timedOut": self = .timedOut
        default:
            if detail.hasPrefix(Self.failedPrefix), detail.count > Self.failedPrefix.count {
                self = .failed(String(detail.dropFirst(Self.failedPrefix.count)))
                return
            }
            guard detail.hasPrefix(Self.interruptedPrefix), detail.count > Self.interruptedPrefix.count else { return nil }
            self = .interrupted(by: String(detail.dropFirst(Self.interruptedPrefix.count)))
        }
    }
}

/// Why a push reached the user only, and the app ran nothing (a `pushDelivered` event).
public enum PushDeliveredReason: String, Sendable, Hashable, CaseIterable {
    case noRemoteNotificationMode = "no remote-notification mode"
    case userQuit = "the user quit the app"
    case neverLaunched = "the app was never launched"
}

/// What became of an object's observers when it was dismissed (an `objectDismissed` event).
public enum DismissalOutcome: String, Sendable, Hashable, CaseIterable {
    /// The observers were removed with the object (or it had none).
    case unregistered
    /// A block observer was not removed: the block keeps the object alive and observing.
    case leaked
    /// A selector observer was not removed: the memory went, the observer stays.
    case dangling

    /// The status its observers are left in.
    public var status: ObserverStatus {
        switch self {
        case .unregistered: .unregistered
        case .leaked: .leaked
        case .dangling: .dangling
        }
    }
}

/// The observer a notification was delivered to (a `notificationDelivery` event's `detail`).
public enum DeliveredObserver: String, Sendable, Hashable, CaseIterable {
    /// A live, registered observer.
    case registered
    /// The observer of a leaked object, still alive.
    case leaked
    /// The observer of a dismissed object whose memory is gone: the app crashes (spec §7).
    case dangling = "sent to a deallocated observer"
}

/// The phone put on or taken off its charger (a `charging` event; the workload's `charging:`),
/// which runs and expires BGTaskScheduler's processing tasks.
public enum ChargerChange: String, Sendable, Hashable, CaseIterable {
    /// On the charger: processing tasks may run.
    case pluggedIn
    /// Off it: processing tasks that require external power expire.
    case unplugged
}

/// Which way memory crossed RAM on a Mac (a `swap` event).
public enum SwapDirection: String, Sendable, Hashable, CaseIterable {
    /// Memory went past RAM: pages go out to swap.
    case pagingOut
    /// Everything fits in RAM again.
    case backInRam
}

/// Why the engine changed nothing for a script action (an `ignored` event's `detail`).
public enum IgnoredReason: Sendable, Hashable {
    /// The app is in a state that runs no code (`suspended`, `compressed`, `notRunning`).
    case runsNoCode(AppState)
    case notRunning
    case alreadyInForeground
    case homeScreenShowing
    case noAppInForeground
    case anotherAppInForeground
    case alreadyPlaying
    case notPlaying
    case alreadyTracking
    case notTracking
    case callGoingOn
    case pushHandlerRunning
    /// No instance of the object (its name) is on screen.
    case noObjectShown(String)
    /// The action, or a declaration, does not exist on macOS.
    case notApplicableOnMacOS
    /// `allocate`/`free` on a process under a policy without bands, or on a Mac: its memory is fixed.
    case fixedMemory
    /// The process has been killed.
    case processEnded
    /// `freeze` under a policy without the `xnu` freezer.
    case noFreezer
    /// `freeze` of an app that is frozen on flash already.
    case alreadyFrozen
    /// `freeze` of an app that does not fit in the freezer's store on flash.
    case flashFull
    /// `freeze` while the in-RAM compressor is low on space (``CompressorLimits``).
    case compressorLowOnSpace

    /// The words report.json writes.
    public var detail: String {
        switch self {
        case .runsNoCode(let state): Self.runsNoCodePrefix + state.rawValue
        case .notRunning: "the app is not running"
        case .alreadyInForeground: "already in the foreground"
        case .homeScreenShowing: "the home screen is already showing"
        case .noAppInForeground: "no app in the foreground"
        case .anotherAppInForeground: "another app is in the foreground"
        case .alreadyPlaying: "already playing"
        case .notPlaying: "not playing"
        case .alreadyTracking: "already tracking"
        case .notTracking: "not tracking"
        case .callGoingOn: "a call is already going on"
        case .pushHandlerRunning: "a push handler is already running"
        case .noObjectShown(let name): "no \(name) is shown"
        case .notApplicableOnMacOS: "not applicable on macOS"
        case .fixedMemory: "a process's memory is fixed under this policy"
        case .processEnded: "the process has ended"
        case .noFreezer: "the policy has no freezer"
        case .alreadyFrozen: "the app is frozen on flash already"
        case .flashFull: "the freezer's store on flash has no room for it"
        case .compressorLowOnSpace: "the in-RAM compressor is low on space"
        }
    }

    static let runsNoCodePrefix = "the app runs no code while "
    static let fixed: [IgnoredReason] = [
        .notRunning, .alreadyInForeground, .homeScreenShowing, .noAppInForeground, .anotherAppInForeground,
        .alreadyPlaying, .notPlaying, .alreadyTracking, .notTracking, .callGoingOn, .pushHandlerRunning,
        .notApplicableOnMacOS, .fixedMemory, .processEnded, .noFreezer, .alreadyFrozen, .flashFull,
        .compressorLowOnSpace,
    ]

    /// The reason report.json's words name, or nil.
    public init?(detail: String) {
        if let reason = Self.fixed.first(where: { $0.detail == detail }) {
            self = reason
        } else if detail.hasPrefix(Self.runsNoCodePrefix),
                  let state = AppState(rawValue: String(detail.dropFirst(Self.runsNoCodePrefix.count))) {
            self = .runsNoCode(state)
        } else if detail.hasPrefix("no "), detail.hasSuffix(" is shown"), detail.count > "no  is shown".count {
            self = .noObjectShown(String(detail.dropFirst(3).dropLast(9)))
        } else {
            return nil
        }
    }
}

/// Why the `xnu` freezer froze an app (a `compression` event's `detail` and `usedBytes`, spec §5).
public struct FreezerDecision: Sendable, Hashable {
    /// The app's jetsam band.
    public var band: Int
    /// Apps suspended but not frozen, and frozen, when it chose.
    public var suspendedNotFrozen: Int
    public var frozen: Int
    /// Memory available to apps when it chose.
    public var availableBytes: Bytes
    /// Memory in use before the app was frozen.
    public var usedBytes: Bytes

    public init(band: Int, suspendedNotFrozen: Int, frozen: Int, availableBytes: Bytes, usedBytes: Bytes) {
        self.band = band
        self.suspendedNotFrozen = suspendedNotFrozen
        self.frozen = frozen
        self.availableBytes = availableBytes
        self.usedBytes = usedBytes
    }

    /// The words report.json writes.
    public var detail: String {
        "freezer: band \(band), \(suspendedNotFrozen) suspended not frozen, \(frozen) frozen, \(availableBytes) bytes available"
    }

    /// The decision report.json's words and `usedBytes` name, or nil.
    public init?(detail: String, usedBytes: Bytes) {
        // "freezer: band B, S suspended not frozen, F frozen, A bytes available"
        guard detail.hasPrefix("freezer: band "), detail.hasSuffix(" bytes available") else { return nil }
        let body = detail.dropFirst("freezer: band ".count).dropLast(" bytes available".count)
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1].hasSuffix(" suspended not frozen"), parts[2].hasSuffix(" frozen"),
              let band = Int(parts[0]),
              let suspended = Int(parts[1].dropFirst().dropLast(" suspended not frozen".count)),
              let frozen = Int(parts[2].dropFirst().dropLast(" frozen".count)),
              let available = Bytes(parts[3].dropFirst())
        else { return nil }
        self.init(band: band, suspendedNotFrozen: suspended, frozen: frozen, availableBytes: available,
                  usedBytes: usedBytes)
    }
}
