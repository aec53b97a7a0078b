/// What differs between a phone and a Mac (spec §2, §3). The engine asks its platform where the
/// two part, as it asks its ``MemoryPolicy`` about memory; one type per platform.
protocol PlatformBehaviour: Sendable {
    /// Leaving the front enters the background: `applicationDidEnterBackground`, the release, the
    /// enter-background handler, the background task and fetch wakes, VoIP keep-alives, and a fetch
    /// wake after a kill in the foreground (iOS). A Mac app just goes on running behind.
    var entersBackground: Bool { get }
    /// An idle background app is suspended, and so may be compressed and evicted (iOS).
    var suspendsIdleApps: Bool { get }
    /// Demands are checked against the app limit and app memory, warn and reclaim (iOS). A Mac
    /// pages out past RAM instead (`pagesOut`).
    var limitsMemory: Bool { get }
    /// Memory past the apps' share of RAM is paged out to swap and reported (macOS).
    var pagesOut: Bool { get }
    /// Delivered after `applicationWillResignActive` when an app leaves the front, if any.
    var callbackAfterResign: LifecycleCallback? { get }
    /// The first callback of a return to the front.
    var returnCallback: LifecycleCallback { get }
    /// Delivered between `applicationDidFinishLaunching` and `applicationDidBecomeActive`.
    var callbacksBeforeActive: [LifecycleCallback] { get }

    /// The notification posted for `callback`.
    func notificationName(of callback: LifecycleCallback) -> String
    /// Why a script action does nothing on this platform, or nil when it applies.
    func whyNotApplicable(_ action: ScriptAction) -> IgnoredReason?
    /// What an app declares that this platform never runs, recorded at its first launch.
    func notApplicableDeclarations(of spec: AppSpec) -> [String]
}

/// The iOS lifecycle (spec §2): background execution, suspension, memory limits.
struct PhoneBehaviour: PlatformBehaviour {
    var entersBackground: Bool { true }
    var suspendsIdleApps: Bool { true }
    var limitsMemory: Bool { true }
    var pagesOut: Bool { false }
    var callbackAfterResign: LifecycleCallback? { nil }
    var returnCallback: LifecycleCallback { .applicationWillEnterForeground }
    var callbacksBeforeActive: [LifecycleCallback] { [] }

    func notificationName(of callback: LifecycleCallback) -> String { callback.notificationName }
    func whyNotApplicable(_ action: ScriptAction) -> IgnoredReason? { nil }
    func notApplicableDeclarations(of spec: AppSpec) -> [String] { [] }
}

/// Platform `macos` (spec §3): apps keep running when another becomes active. No suspension,
/// compression, eviction or background limits; resign/become-active pairs with NSApplication
/// notification names; memory past the apps' share of RAM is paged out to swap, never killed for.
struct MacBehaviour: PlatformBehaviour {
    var entersBackground: Bool { false }
    var suspendsIdleApps: Bool { false }
    var limitsMemory: Bool { false }
    var pagesOut: Bool { true }
    var callbackAfterResign: LifecycleCallback? { .applicationDidResignActive }
    var returnCallback: LifecycleCallback { .applicationWillBecomeActive }
    var callbacksBeforeActive: [LifecycleCallback] { [.applicationWillBecomeActive] }

    func notificationName(of callback: LifecycleCallback) -> String {
        callback.notificationName(on: .macos) ?? callback.notificationName
    }

    func whyNotApplicable(_ action: ScriptAction) -> IgnoredReason? {
        switch action {
        case .push, .interrupt, .memoryWarning, .voipCall: .notApplicableOnMacOS
        default: nil
        }
    }

    func notApplicableDeclarations(of spec: AppSpec) -> [String] {
        var declared: [String] = []
        if spec.backgroundTask != nil { declared.append("backgroundTask") }
        if spec.fetch != nil || spec.modes.contains(.fetch) { declared.append("fetch") }
        if spec.push != nil || spec.modes.contains(.remoteNotification) { declared.append("push") }
        if spec.voip != nil || spec.modes.contains(.voip) { declared.append("voip") }
        if spec.backgroundRelease > 0 || spec.suspendedFootprint != nil || spec.backgroundHandlerTimeUs > 0 { declared.append("onBackground") }
        if spec.memoryWarningRelease > 0 { declared.append("onMemoryWarning") }
        return declared
    }
}

extension Platform {
    /// The engine's behaviour for this platform.
    var behaviour: any PlatformBehaviour {
        switch self {
        case .ios: PhoneBehaviour()
        case .macos: MacBehaviour()
        }
    }
}
