import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport

/// The events behind a metric, in words: "at 58m57s: evicted while suspended (106 MB) to make room for safari".
public enum Evidence {
    /// The kinds of events `causes(of:report:limit:)` reads for these metric paths: what a
    /// reader of the report must keep for them.
    public static func eventKinds(for paths: [MetricPath]) -> Set<SimEvent.Kind> {
        var kinds: Set<SimEvent.Kind> = []
        for path in paths {
            switch path.relative.split(separator: ".").first ?? "" {
            case "evictions", "exits", "terminations": kinds.formUnion([.eviction, .exit, .reclaim])
            case "compressions": kinds.insert(.compression)
            case "memoryWarnings": kinds.formUnion([.pressure, .memoryWarning])
            case "coldLaunches", "launches", "backgroundLaunches", "coldRelaunchesAfterKill": kinds.formUnion([.exit, .launch, .resume])
            case "warmResumes", "compressedResumes", "resumeLatencyUs": kinds.insert(.resume)
            case "backgroundTasks", "fetches", "pushes": kinds.formUnion([.handlerStart, .handlerEnd])
            case "peakFootprintBytes", "peakUsedBytes", "peakCompressedBytes": kinds.formUnion([.reclaim, .memoryWarning, .pressure])
            case "timeAtPressureUs": kinds.insert(.pressure)
            default: continue  // no events behind it
            }
        }
        return kinds
    }

    public static func causes(of path: MetricPath, report: Report, limit: Int) -> [String] {
        let app = path.app
        let events = report.events.filter { app == nil || $0.app == app }
        let segments = path.relative.split(separator: ".").map(String.init)
        let first = segments.first ?? "", second = segments.count > 1 ? segments[1] : ""
        var lines: [String] = []

        func at(_ e: SimEvent) -> String {
            "at \(Format.duration(e.atUs))" + (app == nil ? ", \(e.app ?? "device")" : "")
        }
        /// A line for each resume of `kind`.
        func resumes(_ kind: ResumeKind, _ events: [SimEvent]) -> [String] {
            events.compactMap { e in
                guard case .resume(kind, let latency) = e.payload else { return nil }
                return "\(at(e)): \(kind.rawValue) resume in \(Format.duration(latency))"
            }
        }

        switch first {
        case "evictions":
            for e in events {
                guard case .eviction(let bytes) = e.payload else { continue }
                lines.append("\(at(e)): evicted (\(Format.bytes(bytes)))" + reclaimText(e, report))
            }
        case "exits", "terminations":
            for e in events {
                guard case .exit(let reason, let from) = e.payload, reason.rawValue == second else { continue }
                lines.append("\(at(e)): exit \(second) while \(from.rawValue)" + reclaimText(e, report))
            }
        case "compressions":
            for e in events {
                guard case .compression(let bytes, _, _) = e.payload else { continue }
                lines.append("\(at(e)): compressed \(Format.bytes(bytes)) to flash")
            }
        case "memoryWarnings":
            if app == nil {
                for e in report.events {
                    guard case .pressure(let level, let used) = e.payload, level != .normal else { continue }
                    lines.append("at \(Format.duration(e.atUs)): pressure \(level.rawValue) with \(Format.bytes(used)) in use")
                }
            } else {
                for e in events {
                    guard case .memoryWarning(let cause, let freed) = e.payload else { continue }
                    lines.append("\(at(e)): memory warning (\(cause.rawValue)), freed \(Format.bytes(freed))")
                }
            }
        case "coldLaunches", "launches", "backgroundLaunches", "coldRelaunchesAfterKill":
            let launch: LaunchKind? = first == "coldLaunches" || first == "coldRelaunchesAfterKill" ? .cold
                : first == "backgroundLaunches" ? .background : LaunchKind(rawValue: second)
            if let launch {
                var lastExit: [String: ExitReason] = [:]
                for e in events {
                    if case .exit(let reason, _) = e.payload, let a = e.app { lastExit[a] = reason }
                    guard case .launch(launch, _, _) = e.payload else { continue }
                    let after = e.app.flatMap { lastExit[$0] }
                    if first == "coldRelaunchesAfterKill" && (after == nil || after == .userQuit) { continue }
                    lines.append("\(at(e)): \(launch.rawValue) launch" + (after.map { " after exit \($0.rawValue)" } ?? ""))
                }
            } else if let resume = ResumeKind(rawValue: second) {
                lines += resumes(resume, events)
            }
        case "warmResumes", "compressedResumes":
            lines += resumes(first == "warmResumes" ? .warm : .fromCompressed, events)
        case "backgroundTasks", "fetches", "pushes":
            let handler: BackgroundActivity = first == "backgroundTasks" ? .backgroundTask : first == "fetches" ? .fetch : .push
            if second == "started" {
                for e in events {
                    guard case .handlerStart(handler, _, let inForeground) = e.payload else { continue }
                    lines.append("\(at(e)): \(handler.rawValue) started" + (inForeground ? " (in the foreground)" : ""))
                }
            } else {
                // The metric `completed` counts every end; the others, the ends with their outcome.
                let wanted = HandlerOutcome(detail: second)
                for e in events {
                    guard case .handlerEnd(handler, let outcome) = e.payload, wanted == .completed || outcome == wanted
                    else { continue }
                    lines.append("\(at(e)): \(handler.rawValue) \(outcome.detail)")
                }
            }
        case "resumeLatencyUs":
            let resumes = events.compactMap { e -> (SimEvent, ResumeKind, Microseconds)? in
                guard case .resume(let kind, let latency) = e.payload else { return nil }
                return (e, kind, latency)
            }.sorted { $0.2 > $1.2 }
            for (e, kind, latency) in resumes { lines.append("\(at(e)): \(kind.rawValue) resume took \(Format.duration(latency))") }
        case "peakFootprintBytes", "peakUsedBytes", "peakCompressedBytes":
            let series: [[Int64]] = first == "peakUsedBytes" ? report.timeline.usedBytes
                : first == "peakCompressedBytes" ? report.timeline.compressedBytes
                : report.timeline.appBytes[app ?? ""] ?? []
            if let peak = series.filter({ $0.count >= 2 }).max(by: { $0[1] < $1[1] }) {
                lines.append("at \(Format.duration(peak[0])): peak of \(Format.bytes(peak[1]))")
                // What happened around the peak: for an app, its warnings and the reclaims it caused;
                // for the device, pressure changes and reclaims.
                let nearby = report.events.filter { e in
                    guard abs(e.atUs - peak[0]) <= 60_000_000 else { return false }
                    switch e.payload {
                    case .reclaim: return app == nil || e.app == app
                    case .memoryWarning: return app != nil && e.app == app
                    case .pressure: return app == nil
                    default: return false
                    }
                }
                for e in nearby.prefix(limit - 1) { lines.append("at \(Format.duration(e.atUs)): " + describe(e)) }
            }
        case "timeAtPressureUs":
            var enteredAt: Int64?
            for e in report.events {
                guard case .pressure(let level, _) = e.payload else { continue }
                if level.rawValue == second { enteredAt = e.atUs } else if let start = enteredAt {
                    lines.append("from \(Format.duration(start)) to \(Format.duration(e.atUs)): \(second) (\(Format.duration(e.atUs - start)))")
                    enteredAt = nil
                }
            }
            if let start = enteredAt { lines.append("from \(Format.duration(start)) to the end: \(second)") }
        default:
            break
        }
        if lines.count > limit {
            let more = lines.count - limit
            lines = Array(lines.prefix(limit)) + ["… and \(more) more"]
        }
        return lines
    }

    /// ", to make room for safari (needed 51 KB, freed 106 MB)" from the reclaim decision at the same instant.
    static func reclaimText(_ e: SimEvent, _ report: Report) -> String {
        guard let app = e.app else { return "" }
        for event in report.events where event.atUs == e.atUs {
            guard case .reclaim(let r) = event.payload, r.candidates.contains(where: { $0.app == app && $0.taken })
            else { continue }
            return ", to make room for \(event.app ?? "the system") (needed \(Format.bytes(r.neededBytes)), "
                + "freed \(Format.bytes(r.freedBytes)))"
        }
        return ""
    }

    static func describe(_ e: SimEvent) -> String {
        switch e.payload {
        case .reclaim(let r):
            let taken = r.candidates.filter(\.taken).map(\.app)
            return "reclaim for \(e.app ?? "?"): needed \(Format.bytes(r.neededBytes)), took \(taken.joined(separator: ", "))"
        case .memoryWarning: return "memory warning to \(e.app ?? "?")"
        case .pressure(let level, let used): return "pressure \(level.rawValue) with \(Format.bytes(used)) in use"
        default: return e.kind.rawValue
        }
    }
}
