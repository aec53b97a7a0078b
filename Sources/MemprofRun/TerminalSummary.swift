import MemprofCore
import MemprofOutput
import MemprofReport

/// The short summary `memprof run` prints: a table per app and the run's headline figures.
public enum TerminalSummary {
    /// The summary of `report`: findings first, a table of apps in `orderedApps` order, then the
    /// launches, memory, pressure, background work, kills and swap lines. Plain text, no colour.
    public static func render(_ report: ReportHead, orderedApps: [String]) -> String {
        var lines: [String] = []
        lines.append("\(report.run.workload): \(Format.duration(report.run.durationUs)) on \(report.device.name), "
            + "policy \(report.policy.name), seed \(report.run.seed)")
        lines.append("")
        // Observer problems first (spec §7): they are bugs in the app, not the system's choices.
        if let findings = report.notifications.findings, !findings.isEmpty {
            lines.append("findings")
            for finding in findings { lines.append("  \(finding.app): \(finding.text)") }
            lines.append("")
        }
        let header = ["app", "cold", "bgLaunch", "warm", "fromFlash", "compressed", "evicted", "exits", "peak"]
        var rows: [[String]] = [header]
        for id in orderedApps {
            guard let app = report.apps[id] else { continue }
            let exits = app.exits.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            rows.append([id, "\(app.launches.cold)", "\(app.launches.background)", "\(app.launches.warm)",
                         "\(app.launches.fromCompressed)", "\(app.compressions)", "\(app.evictions)",
                         exits.isEmpty ? "-" : exits, Format.bytes(app.peakFootprintBytes)])
        }
        lines += TextTable.render(rows, rightAligned: Set(1...7).union([8]))
        lines.append("")
        // Each declared handler's time and the app's peak against their limits.
        let headroom = orderedApps.compactMap { id in
            report.apps[id]?.headroom.map { [id, $0.phrases.joined(separator: "; ")] }
        }
        if !headroom.isEmpty {
            lines.append("headroom")
            lines += TextTable.render(headroom).map { "  " + $0 }
            lines.append("")
        }
        let s = report.summary
        let appMemory = report.device.ram - report.device.systemReserved
        let kills = s.terminations.filter { $0.key != ExitReason.userQuit.rawValue && $0.value > 0 }
            .sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("launches   \(s.coldLaunches) cold (\(s.coldRelaunchesAfterKill) after a kill), "
            + "\(s.backgroundLaunches) in background, \(Format.count(s.warmResumes, "warm resume")), "
            + "\(s.compressedResumes) from flash")
        lines.append("memory     \(Format.count(s.compressions, "compression")), \(Format.count(s.evictions, "eviction")), "
            + "\(Format.count(s.memoryWarnings, "warning")); peak \(Format.bytes(s.peakUsedBytes)) of "
            + "\(Format.bytes(appMemory)), flash peak \(Format.bytes(s.peakCompressedBytes))")
        let t = s.timeAtPressureUs
        lines.append("pressure   normal \(Format.duration(t.normal)), warning \(Format.duration(t.warning)), "
            + "critical \(Format.duration(t.critical))")
        lines.append("background tasks \(s.backgroundTasks.started) started, \(s.backgroundTasks.completed) completed, "
            + "\(s.backgroundTasks.expiredEnded) expired and ended, \(s.backgroundTasks.expiredKilled) killed; "
            + "fetches \(s.fetches.completed)/\(s.fetches.started) (\(s.fetches.timedOut) timed out); "
            + "pushes \(s.pushes.completed)/\(s.pushes.started) (\(s.pushes.timedOut) timed out)")
        let scheduled = [("refresh", s.refreshTasks), ("processing", s.processingTasks)].compactMap { name, c in
            c.map { "\(name) \($0.completed)/\($0.started) (\($0.expired) expired)" }
        }
        if !scheduled.isEmpty { lines.append("BGTaskScheduler \(scheduled.joined(separator: "; "))") }
        lines.append("kills      \(kills.isEmpty ? "none" : kills)")
        if let swap = s.swap {
            lines.append("swap       peak \(Format.bytes(swap.peakBytes)) paged out, "
                + "\(Format.duration(swap.timeOverRamUs)) over RAM")
        }
        if let f = s.freezer {
            lines.append("freezer    \(Format.count(f.freezes, "freeze")), \(Format.bytes(f.bytesWritten)) written of "
                + "\(Format.bytes(f.dailyBudgetBytes)) a day, \(Format.bytes(f.budgetRemainingBytes)) left"
                + (f.firstExhaustedAtUs.map { "; budget spent at \(Format.duration($0))" } ?? "")
                + "; skipped \(f.skips.outOfBudget) out of budget, \(f.skips.outOfSlots) out of slots, "
                + "\(f.skips.belowMinPages) below the minimum, \(f.skips.noSwapSpace) for want of swap space, "
                + "\(f.skips.noCompressorSpace) for want of compressor space")
        }
        return lines.joined(separator: "\n")
    }
}
