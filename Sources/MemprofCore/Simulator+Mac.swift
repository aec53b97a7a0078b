/// Platform `macos` (spec §3): apps keep running when another becomes active. No suspension,
/// compression, eviction or background limits; resign/become-active pairs with NSApplication
/// notification names; memory past the apps' share of RAM is paged out to swap, never killed for.
extension Simulator {
    var isMac: Bool { workload.device.platform == .macos }

    /// Why an iOS-only script action does nothing on a Mac, or nil when it applies.
    func notApplicableOnMac(_ action: ScriptAction) -> String? {
        switch action {
        case .push, .interrupt, .memoryWarning, .voipCall: "not applicable on macOS"
        default: nil
        }
    }

    /// Leaving the front on a Mac: `applicationWillResignActive`, `applicationDidResignActive`,
    /// and the app goes on running (`background`, never suspended).
    mutating func resignActiveOnMac(_ i: Int) {
        moveToBackground(i, afterResign: .applicationDidResignActive)
        if let launchEnd = apps[i].launchEndsUs {
            // Left before its launch completed: it finishes launching behind the new front app.
            apps[i].launchingInBackground = true
            apps[i].leftDuringLaunch = false
            schedule(at: launchEnd, .backgroundLaunchDone(i, apps[i].lifeToken, nil))
        }
    }

    /// What an app declares that a Mac never runs, recorded once, at its first launch.
    mutating func recordMacNotApplicable(_ i: Int) {
        guard apps[i].stats.launches.cold == 1 else { return }
        let spec = apps[i].spec
        var declared: [String] = []
        if spec.backgroundTask != nil { declared.append("backgroundTask") }
        if spec.fetch != nil || spec.modes.contains(.fetch) { declared.append("fetch") }
        if spec.push != nil || spec.modes.contains(.remoteNotification) { declared.append("push") }
        if spec.voip != nil || spec.modes.contains(.voip) { declared.append("voip") }
        if spec.backgroundRelease > 0 || spec.backgroundHandlerTimeUs > 0 { declared.append("onBackground") }
        if spec.memoryWarningRelease > 0 { declared.append("onMemoryWarning") }
        for what in declared {
            var event = SimEvent(atUs: now, kind: .ignored, app: spec.id)
            event.action = what
            event.detail = "not applicable on macOS"
            record(event)
        }
    }

    /// Follows the bytes paged out: `used` past `ram − systemReserved`.
    mutating func trackSwap() {
        let swapped = max(0, used - appMemory)
        if swapped > swap.peakBytes { swap.peakBytes = swapped }
        if swapped > 0, swapSinceUs == nil {
            swapSinceUs = now
            var event = SimEvent(atUs: now, kind: .swap)
            event.detail = "pagingOut"
            event.usedBytes = used
            event.bytes = swapped
            record(event)
        } else if swapped == 0, let since = swapSinceUs {
            swap.timeOverRamUs += now - since
            swapSinceUs = nil
            var event = SimEvent(atUs: now, kind: .swap)
            event.detail = "backInRam"
            event.usedBytes = used
            event.bytes = 0
            record(event)
        }
    }

    /// The swap figures at the end of a run.
    mutating func finishSwap() -> SwapSummary {
        if let since = swapSinceUs {
            swap.timeOverRamUs += now - since
            swapSinceUs = now
        }
        return swap
    }
}
