/// Memory (spec §4): state and footprint accounting, the pressure level, demands and memory
/// warnings.
///
/// Triggers: every state change (`setState`) and footprint change (`setFootprint`); every demand
/// (a launch, a read back from flash, growth, `allocate`, a handler's or object's allocation);
/// `memoryWarning` in the script.
extension Simulator {
    func level(for bytes: Bytes) -> PressureLevel {
        bytes >= criticalBytes ? .critical : bytes >= warningBytes ? .warning : .normal
    }

    /// Moves app `i` to `state` because of `cause`, keeping `used`, `compressedUsed`, the series,
    /// time in state and the state intervals right.
    mutating func setState(_ i: Int, _ state: AppState, cause: StateCause?) {
        let old = apps[i].state
        guard old != state else { return }
        apps[i].leaveState(at: now, keepsInterval: keepsIntervals)
        apps[i].stateCause = cause
        let footprint = apps[i].footprint
        let resident = apps[i].residentBytes
        if old == .compressed { compressedUsed -= footprint }
        if state == .compressed { compressedUsed += footprint }
        if swapCap != nil, old == .compressed || state == .compressed { reswap(i, compressed: state == .compressed) }
        apps[i].state = state
        if compressesInRAM { movePages(i, from: old) }
        used += apps[i].residentBytes - resident
        if state == .suspended { apps[i].suspendedSinceUs = now }
        record(.transition(from: old, to: state, cause: cause), i)
        memoryChanged(i)
    }

    /// Sets app `i`'s footprint, keeping `used` and the series right.
    mutating func setFootprint(_ i: Int, _ footprint: Bytes) {
        let delta = footprint - apps[i].footprint
        guard delta != 0 else { return }
        apps[i].footprint = footprint
        switch apps[i].state {
        case .compressed:
            compressedUsed += delta
            if swapCap != nil { reswap(i, compressed: true) }
        case let s where s.isResident: used += apps[i].pooled ? repool(i, from: footprint - delta) : delta
        default: break
        }
        if footprint > apps[i].stats.peakFootprintBytes { apps[i].stats.peakFootprintBytes = footprint }
        memoryChanged(i)
        if delta > 0, hasBands, limitsMemory { warnNearLimit(i, from: footprint - delta) }
    }

    /// What app `i` holds of the freezer's swap (``swapCap``): its footprint at its compressor
    /// ratio while `compressed`, nothing otherwise.
    mutating func reswap(_ i: Int, compressed: Bool) {
        let held = compressed ? Self.poolBytes(apps[i].footprint, ratio: apps[i].spec.compressorRatio) : 0
        swapUsed += held - apps[i].swapBytes
        apps[i].swapBytes = held
    }

    mutating func memoryChanged(_ i: Int) {
        if let sinkRef {
            let (now, appBytes, used, compressed, pool) = (now, apps[i].residentBytes, used, compressedUsed, pool.bytes)
            sinkRef._withUnsafeGuaranteedRef {
                $0.sink.memoryChanged(atUs: now, app: i, appBytes: appBytes, usedBytes: used, compressedBytes: compressed,
                                      compressorBytes: pool)
            }
        } else if options.keepsHistory {
            apps[i].bytes.record(now, apps[i].residentBytes)
            usedSeries.record(now, used)
            compressedSeries.record(now, compressedUsed)
            if compressesInRAM { compressorSeries.record(now, pool.bytes) }
        }
        if used > summary.peakUsedBytes { summary.peakUsedBytes = used }
        if compressedUsed > summary.peakCompressedBytes { summary.peakCompressedBytes = compressedUsed }
        if pagesOut { trackSwap() }
        updateLevel()
    }

    /// Moves the pressure level to that of `used`, recording a change.
    mutating func updateLevel() {
        let newLevel = level(for: used)
        if newLevel != level {
            summary.timeAtPressureUs[level] += now - levelSinceUs
            levelSinceUs = now
            level = newLevel
            // A sink gets the change as a `pressure` event; the result's timeline is not read then.
            if sinkRef == nil {
                if let last = levelChanges.last, last.atUs == now {
                    levelChanges.removeLast()
                }
                if levelChanges.last?.level != newLevel {
                    levelChanges.append(Timeline.LevelChange(atUs: now, level: newLevel))
                }
            }
            recordDevice(.pressure(newLevel, usedBytes: used))
        }
    }

    /// App `i` needs `bytes` more (spec §4 "Demand"). Returns false when the app was killed instead.
    /// It fits while `used` stays within ``jetsamLimit``.
    mutating func demand(_ i: Int, _ bytes: Bytes) -> Bool {
        // A Mac pages out instead (spec §3): no limit, no warning, no reclaiming.
        guard bytes > 0, limitsMemory else { return true }
        let own = apps[i].residentBytes
        if own + bytes > memoryLimit(ofApp: i) {
            apps[i].stats.killedAskingBytes = max(apps[i].stats.killedAskingBytes ?? 0, own + bytes)
            kill(i, .memoryLimit, requested: own + bytes)
            return false
        }
        // One warning per rise out of `normal`: while the level is above it no demand warns again,
        // and once it is `normal` (back down, or never left because the warned apps' releases
        // or a failed demand kept it there) the next rise warns.
        if level == .normal, level(for: used + bytes) > .normal {
            summary.memoryWarnings += 1
            sendMemoryWarnings(cause: .pressure)
        }
        if used + bytes > jetsamLimit {
            reclaim(for: i, process: nil, bytes)
        }
        if used + bytes > killLimit {
            // Nothing freed enough: the demanding app is killed, for the policy's reason
            // (seed-2015: memoryLimit, spec §4 step 4; xnu: page shortage, spec §5).
            kill(i, policy.shortfallReason, requested: policy.shortfallReason == .memoryLimit ? own + bytes : nil)
            return false
        }
        return true
    }

    /// How much of `bytes` app `i` can release without going under its floor (`minFootprint`).
    func releasable(_ i: Int, _ bytes: Bytes) -> Bytes {
        max(0, min(bytes, apps[i].footprint - apps[i].spec.footprintFloor))
    }

    /// What app `i` releases on entering the background and at suspension: down to its stated
    /// ``AppSpec/suspendedFootprint`` (never under its floor), or its `onBackground.release` on
    /// entering the background when it states none.
    func backgroundReleasable(_ i: Int, atSuspension: Bool) -> Bytes {
        guard let target = apps[i].spec.suspendedFootprint else {
            return atSuspension ? 0 : releasable(i, apps[i].spec.backgroundRelease)
        }
        return max(0, apps[i].footprint - max(target, apps[i].spec.footprintFloor))
    }

    /// Releases what ``backgroundReleasable(_:atSuspension:)`` says; the app takes it back on resuming.
    mutating func releaseForBackground(_ i: Int, atSuspension: Bool) {
        let released = backgroundReleasable(i, atSuspension: atSuspension)
        guard released > 0 else { return }
        apps[i].releasedOnBackground += released
        setFootprint(i, apps[i].footprint - released)
    }

    /// A memory warning to every app that runs code; each releases its `onMemoryWarning.release`.
    mutating func sendMemoryWarnings(cause: MemoryWarningCause) {
        for i in apps.indices where apps[i].state.runsCode { warn(i, cause) }
    }

    /// The memory warning app `i` gets, and what it releases.
    mutating func warn(_ i: Int, _ cause: MemoryWarningCause) {
        deliver(.applicationDidReceiveMemoryWarning, to: i)
        apps[i].stats.memoryWarnings += 1
        let freed = releasable(i, apps[i].spec.memoryWarningRelease)
        setFootprint(i, apps[i].footprint - freed)
        record(.memoryWarning(cause, freedBytes: freed), i)
    }
}
