/// What must hold after every step (spec §4 and the model article's Invariants), checked with
/// `Options.checksInvariants`.
extension Simulator {
    /// Checks what must hold after every step (spec §4 and the model article's Invariants).
    mutating func checkInvariants() {
        var resident: Bytes = 0
        var compressed: Bytes = 0
        var foregroundApps: [Int] = []
        for i in apps.indices {
            let app = apps[i]
            resident += app.residentBytes
            if app.state == .compressed { compressed += app.footprint }
            if app.state.isForeground { foregroundApps.append(i) }
            if app.footprint < 0 { violations.append("t=\(now): \(app.spec.id) has a negative footprint") }
            if app.state == .notRunning && app.footprint != 0 {
                violations.append("t=\(now): \(app.spec.id) is not running but holds \(app.footprint) bytes")
            }
        }
        for p in processes {
            if p.resident < 0 { violations.append("t=\(now): \(p.spec.id) has a negative resident size") }
            if !p.alive && p.resident != 0 {
                violations.append("t=\(now): \(p.spec.id) has ended but holds \(p.resident) bytes")
            }
            if !p.alive && p.held != 0 { violations.append("t=\(now): \(p.spec.id) has ended but takes \(p.held) bytes") }
            resident += p.held
        }
        if resident != used { violations.append("t=\(now): used is \(used) but resident footprints add up to \(resident)") }
        if used > appMemory && limitsMemory { violations.append("t=\(now): used \(used) exceeds app memory \(appMemory)") }
        if compressed != compressedUsed {
            violations.append("t=\(now): compressedUsed is \(compressedUsed) but compressed footprints add up to \(compressed)")
        }
        if let swapCap {
            let swapped = apps.reduce(0) { $0 + $1.swapBytes }
            if swapped != swapUsed { violations.append("t=\(now): swapUsed is \(swapUsed) but frozen apps hold \(swapped)") }
            if swapUsed > swapCap { violations.append("t=\(now): the freezer's swap holds \(swapUsed) of \(swapCap) bytes") }
        } else if compressedUsed > workload.device.flash {
            violations.append("t=\(now): compressed bytes \(compressedUsed) exceed flash \(workload.device.flash)")
        }
        if foregroundApps.count > 1 { violations.append("t=\(now): \(foregroundApps.count) apps in the foreground") }
        if foregroundApps.first != foreground {
            violations.append("t=\(now): foreground is \(String(describing: foreground)) but \(foregroundApps) are")
        }
        if let ledger = freezerLedger, let problem = ledger.violation { violations.append("t=\(now): \(problem)") }
    }
}
