/// What the engine does only on some platforms (spec §3): actions and declarations a Mac never
/// runs, and paging out to swap. Which platform does what is `PlatformBehaviour`.
///
/// Triggers: a script action the platform does not have; an app's first cold launch on a Mac;
/// every memory change on a platform that pages out; the end of the run.
extension Simulator {
    /// What an app declares that this platform never runs, recorded once, at its first launch.
    mutating func recordNotApplicable(_ i: Int) {
        guard apps[i].stats.launches.cold == 1 else { return }
        let spec = apps[i].spec
        for what in platform.notApplicableDeclarations(of: spec) {
            record(.ignored(action: what, reason: .notApplicableOnMacOS), i)
        }
    }

    /// Follows the bytes paged out: `used` past `ram − systemReserved`.
    mutating func trackSwap() {
        let swapped = max(0, used - appMemory)
        if swapped > swap.peakBytes { swap.peakBytes = swapped }
        if swapped > 0, swapSinceUs == nil {
            swapSinceUs = now
            recordDevice(.swap(.pagingOut, usedBytes: used, bytes: swapped))
        } else if swapped == 0, let since = swapSinceUs {
            swap.timeOverRamUs += now - since
            swapSinceUs = nil
            recordDevice(.swap(.backInRam, usedBytes: used, bytes: 0))
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
