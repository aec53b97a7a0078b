import MemprofCore

extension SimEvent {
    /// An event of `kind` about `app` at `atUs` (a device event when `app` is nil), with values
    /// every output can draw: one per kind, so a test can hand every kind to every output. A new
    /// kind adds its case here (the switch has no `default:`).
    public static func example(of kind: Kind, app: String? = "mail", atUs: Microseconds = 5_000_000) -> SimEvent {
        let payload: Payload = switch kind {
        case .transition: .transition(from: .active, to: .background, cause: nil)
        case .callback: .callback(.applicationDidEnterBackground, notification: "UIApplicationDidEnterBackgroundNotification")
        case .launch: .launch(.cold, bytes: 80 << 20, wake: nil)
        case .resume: .resume(.warm, latencyUs: 350_000)
        case .compression: .compression(bytes: 60 << 20, compressedBytes: 20 << 20, freezer: nil)
        case .decompression: .decompression(bytes: 60 << 20)
        case .eviction: .eviction(bytes: 60 << 20)
        case .exit: .exit(.memoryPressure, from: .suspended)
        case .memoryWarning: .memoryWarning(.script, freedBytes: 4 << 20)
        case .pressure: .pressure(.warning, usedBytes: 900 << 20)
        case .reclaim:
            .reclaim(Reclaim(neededBytes: 30 << 20, freedBytes: 60 << 20, usedBytes: 900 << 20, candidates: [
                Candidate(app: "maps", state: .suspended, footprintBytes: 60 << 20, lastForegroundUs: 1_000_000, taken: true),
            ]))
        case .handlerStart: .handlerStart(.fetch, bytes: 2 << 20, inForeground: false)
        case .handlerEnd: .handlerEnd(.fetch, outcome: .completed)
        case .pushDelivered: .pushDelivered(.neverLaunched)
        case .ignored: .ignored(action: "home", reason: .homeScreenShowing)
        case .objectShown: .objectShown(object: "Inbox#1", bytes: 4 << 20)
        case .objectDismissed: .objectDismissed(object: "Inbox#1", outcome: .dangling, bytes: 4 << 20)
        case .notificationDelivery: .notificationDelivery(notification: "N", object: "Inbox#1", observer: .dangling)
        case .swap: .swap(.pagingOut, usedBytes: 9 << 30, bytes: 1 << 30)
        case .processExit: .processExit(.highwater, kind: .daemon, band: 1, bytes: 4 << 20)
        case .processLaunch: .processLaunch(kind: .daemon, band: 0, bytes: 4 << 20)
        case .charging: .charging(.pluggedIn)
        }
        return SimEvent(atUs: atUs, app: app, payload)
    }
}
