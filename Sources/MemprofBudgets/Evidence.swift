import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport

/// The events behind a metric, in words: "at 58m57s: evicted while suspended (106 MB) to make room for safari".
public enum Evidence {
    public static func causes(of path: MetricPath, report: Report, limit: Int) -> [String] {
        let app = path.app
        let events = report.events.filter { app == nil || $0.app == app }
        let segments = path.relative.split(separator: ".").map(String.init)
        let first = segments.first ?? "", second = segments.count > 1 ? segments[1] : ""
        var lines: [String] = []

        func at(_ e: SimEvent) -> String {
            "at \(Format.duration(e.atUs))" + (app == nil ? ", \(e.app ?? "device")" : "")
        }

        switch first {
        case "evictions":
            for e in events where e.kind == .eviction { lines.append("\(at(e)): evicted (\(Format.bytes(e.bytes ?? 0)))" + reclaimText(e, report)) }
        case "exits", "terminations":
            for e in events where e.kind == .exit && e.reason?.rawValue == second {
                lines.append("\(at(e)): exit \(second)" + (e.from.map { " while \($0.rawValue)" } ?? "") + reclaimText(e, report))
            }
        case "compressions":
            for e in events where e.kind == .compression {
                lines.append("\(at(e)): compressed \(Format.bytes(e.bytes ?? 0)) to flash")
            }
        case "memoryWarnings":
            if app == nil {
                for e in report.events where e.kind == .pressure && e.level != .normal {
                    lines.append("at \(Format.duration(e.atUs)): pressure \(e.level?.rawValue ?? "?") with \(Format.bytes(e.usedBytes ?? 0)) in use")
                }
            } else {
                for e in events where e.kind == .memoryWarning {
                    lines.append("\(at(e)): memory warning (\(e.detail ?? "pressure")), freed \(Format.bytes(e.freedBytes ?? 0))")
                }
            }
        case "coldLaunches", "launches", "backgroundLaunches", "coldRelaunchesAfterKill":
            let detail = first == "coldLaunches" || first == "coldRelaunchesAfterKill" ? "cold"
                : first == "backgroundLaunches" ? "background" : second
            if detail == "cold" || detail == "background" {
                var lastExit: [String: String] = [:]
                for e in events {
                    if e.kind == .exit, let a = e.app { lastExit[a] = e.reason?.rawValue }
                    guard e.kind == .launch, e.detail == detail else { continue }
                    let after = e.app.flatMap { lastExit[$0] }
                    if first == "coldRelaunchesAfterKill" && (after == nil || after == "userQuit") { continue }
                    lines.append("\(at(e)): \(detail) launch" + (after.map { " after exit \($0)" } ?? ""))
                }
            } else {
                for e in events where e.kind == .resume && e.detail == detail {
                    lines.append("\(at(e)): \(detail) resume in \(Format.duration(e.latencyUs ?? 0))")
                }
            }
        case "warmResumes", "compressedResumes":
            let detail = first == "warmResumes" ? "warm" : "fromCompressed"
            for e in events where e.kind == .resume && e.detail == detail {
                lines.append("\(at(e)): \(detail) resume in \(Format.duration(e.latencyUs ?? 0))")
            }
        case "backgroundTasks", "fetches", "pushes":
            let handler = first == "backgroundTasks" ? "backgroundTask" : first == "fetches" ? "fetch" : "push"
            if second == "started" {
                for e in events where e.kind == .handlerStart && e.handler == handler {
                    lines.append("\(at(e)): \(handler) started" + (e.detail.map { " (\($0))" } ?? ""))
                }
            } else {
                for e in events where e.kind == .handlerEnd && e.handler == handler {
                    if e.detail == second || second == "completed" {
                        lines.append("\(at(e)): \(handler) \(e.detail ?? "ended")")
                    }
                }
            }
        case "resumeLatencyUs":
            let resumes = events.filter { $0.kind == .resume }.sorted { ($0.latencyUs ?? 0) > ($1.latencyUs ?? 0) }
            for e in resumes { lines.append("\(at(e)): \(e.detail ?? "") resume took \(Format.duration(e.latencyUs ?? 0))") }
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
                    if let app { return e.app == app && (e.kind == .reclaim || e.kind == .memoryWarning) }
                    return e.kind == .reclaim || e.kind == .pressure
                }
                for e in nearby.prefix(limit - 1) { lines.append("at \(Format.duration(e.atUs)): " + describe(e)) }
            }
        case "timeAtPressureUs":
            var enteredAt: Int64?
            for e in report.events where e.kind == .pressure {
                if e.level?.rawValue == second { enteredAt = e.atUs } else if let start = enteredAt {
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
        guard let app = e.app,
              let reclaim = report.events.first(where: { $0.kind == .reclaim && $0.atUs == e.atUs
                  && ($0.candidates ?? []).contains { $0.app == app && $0.taken } })
        else { return "" }
        return ", to make room for \(reclaim.app ?? "the system") (needed \(Format.bytes(reclaim.neededBytes ?? 0)), "
            + "freed \(Format.bytes(reclaim.freedBytes ?? 0)))"
    }

    static func describe(_ e: SimEvent) -> String {
        switch e.kind {
        case .reclaim:
            let taken = (e.candidates ?? []).filter(\.taken).map(\.app)
            return "reclaim for \(e.app ?? "?"): needed \(Format.bytes(e.neededBytes ?? 0)), took \(taken.joined(separator: ", "))"
        case .memoryWarning: return "memory warning to \(e.app ?? "?")"
        case .pressure: return "pressure \(e.level?.rawValue ?? "?") with \(Format.bytes(e.usedBytes ?? 0)) in use"
        default: return e.kind.rawValue
        }
    }
}
