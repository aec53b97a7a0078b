/// How an object registers for a notification (spec §7).
public enum ObserverStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// `addObserverForName:object:queue:usingBlock:`: the block keeps the object alive.
    case block
    /// `addObserver:selector:name:object:`: the center holds an unretained pointer.
    case selector
}

/// An object an app declares (spec §7): shown and dismissed by the script.
public struct ObjectSpec: Sendable, Hashable {
    public var name: String
    /// Held while the object lives.
    public var size: Bytes
    /// Notification names it observes while shown.
    public var observes: [String]
    public var style: ObserverStyle
    /// Whether it removes its observers before it goes away.
    public var unregisters: Bool

    public init(name: String, size: Bytes = 0, observes: [String] = [], style: ObserverStyle = .block,
                unregisters: Bool = true) {
        self.name = name
        self.size = size
        self.observes = observes
        self.style = style
        self.unregisters = unregisters
    }
}

extension LifecycleCallback {
    /// The notification posted with this callback on `platform`: UIApplication names on iOS,
    /// NSApplication names on macOS. Nil when the platform has no such callback.
    public func notificationName(on platform: Platform) -> String? {
        switch platform {
        case .ios:
            switch self {
            case .applicationWillBecomeActive, .applicationDidResignActive: return nil
            default: return notificationName
            }
        case .macos:
            switch self {
            case .applicationDidFinishLaunching: return "NSApplicationDidFinishLaunchingNotification"
            case .applicationWillResignActive: return "NSApplicationWillResignActiveNotification"
            case .applicationDidResignActive: return "NSApplicationDidResignActiveNotification"
            case .applicationWillBecomeActive: return "NSApplicationWillBecomeActiveNotification"
            case .applicationDidBecomeActive: return "NSApplicationDidBecomeActiveNotification"
            case .applicationWillTerminate: return "NSApplicationWillTerminateNotification"
            case .applicationDidEnterBackground, .applicationWillEnterForeground,
                 .applicationDidReceiveMemoryWarning: return nil
            }
        }
    }

    /// Every lifecycle notification name posted on `platform`: what `observes` may name.
    public static func notificationNames(on platform: Platform) -> [String] {
        allCases.compactMap { $0.notificationName(on: platform) }
    }
}

/// Where an observer registration stands.
public enum ObserverStatus: String, Sendable, Hashable, Codable {
    /// Its object is still shown.
    case registered
    case unregistered
    /// A block observer whose object was dismissed without unregistering: the object lives on.
    case leaked
    /// A selector observer whose object was deallocated: the next post to it crashes the app.
    case dangling
    /// Removed with its app.
    case appEnded
}

/// What became of one observer registration (spec §7, report `notifications.apps.<id>.observers`).
public struct ObserverRecord: Sendable, Hashable, Codable {
    /// The owner object's name, and which instance of it (1 for the first shown in the run).
    public var object: String
    public var instance: Int
    public var notification: String
    public var style: ObserverStyle
    public var registeredAtUs: Microseconds
    /// When the center dropped the observer: unregistered, or the app ended. Absent while it is
    /// still registered at the end of the run.
    public var removedAtUs: Microseconds?
    public var status: ObserverStatus
    /// When its object was dismissed, if it was.
    public var dismissedAtUs: Microseconds?
    /// Notifications delivered to it.
    public var deliveries: Int
    /// When a post to it (dangling) crashed the app with `badAccess`.
    public var crashedAtUs: Microseconds?
}

/// Leaked instances of one object (block observers whose object was dismissed without unregistering).
public struct LeakRecord: Sendable, Hashable, Codable {
    public var object: String
    public var count: Int
    public var bytes: Bytes
    public var observes: [String]
    public var style: ObserverStyle

    public init(object: String, count: Int, bytes: Bytes, observes: [String], style: ObserverStyle) {
        self.object = object
        self.count = count
        self.bytes = bytes
        self.observes = observes
        self.style = style
    }
}

/// A selector observer left registered after its object was deallocated, and the crash it caused.
public struct DanglingRecord: Sendable, Hashable, Codable {
    public var object: String
    public var instance: Int
    public var notification: String
    public var danglingSinceUs: Microseconds
    /// When the next post of its notification crashed the app; absent if none came.
    public var crashedAtUs: Microseconds?
    /// `badAccess` when it crashed the app.
    public var crash: ExitReason?

    public init(object: String, instance: Int, notification: String, danglingSinceUs: Microseconds,
                crashedAtUs: Microseconds?, crash: ExitReason?) {
        self.object = object
        self.instance = instance
        self.notification = notification
        self.danglingSinceUs = danglingSinceUs
        self.crashedAtUs = crashedAtUs
        self.crash = crash
    }
}

/// One app's notification center, as the report shows it (spec §7, §10 `notifications`).
public struct ObserverReport: Sendable, Hashable, Codable {
    public var observers: [ObserverRecord]
    /// Deliveries to observers, per notification name.
    public var deliveries: [String: Int]
    /// Registered observers over time, as `[atUs, count]` change points.
    public var observersOverTime: [[Int64]]
    public var leakedObjects: Int
    public var leakedBytes: Bytes
    public var leaks: [LeakRecord]
    public var dangling: [DanglingRecord]
}

/// One live (or leaked) instance of an object.
struct ObjectInstance {
    var object: Int
    var number: Int
    /// Indices into `ObjectRuntime.records` of its observers.
    var observers: [Int]
    /// Dismissed without unregistering a block observer: still alive, still observing.
    var leaked = false
}

/// An app's objects and notification center while a run goes on.
struct ObjectRuntime {
    /// Instances shown and not yet freed, in the order shown.
    var instances: [ObjectInstance] = []
    /// Every observer ever registered, in registration order.
    var records: [ObserverRecord] = []
    /// Indices into `records` of observers still registered, in registration order.
    var registered: [Int] = []
    /// Instances shown so far, per object index.
    var shown: [Int: Int] = [:]
    var deliveries: [String: Int] = [:]
    var series = Series()
    var leakCounts: [Int: Int] = [:]
    /// The dangling observer whose crash is due at this instant, if any.
    var pendingCrash: Int?
}

/// Swap use on macOS (spec §3): memory over the apps' share of RAM paged out instead of killing.
public struct SwapSummary: Sendable, Hashable, Codable {
    /// The most bytes paged out at once (`used` past `ram − systemReserved`).
    public var peakBytes: Bytes = 0
    /// Time spent with anything paged out.
    public var timeOverRamUs: Microseconds = 0

    public init() {}
}
