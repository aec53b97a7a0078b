import Foundation
import MemprofCore
import MemprofProfile
import MemprofReport

/// A report as a Trace Event Format file (`memprof export --format trace`), which
/// ui.perfetto.dev and chrome://tracing open.
///
/// - `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}`; `ts` and `dur` are
///   microseconds of simulated time.
/// - pid 1 is the device: counters `used` and `compressed` (bytes) and `pressure` (0 normal,
///   1 warning, 2 critical), and instant events for pressure changes.
/// - Every app is a process, pid 2, 3, … in the order of its key, named by a `process_name`
///   metadata event. Thread 1 (`lifecycle`) holds its states (all but `notRunning`) as complete
///   (`X`) slices read off the transition events, and evictions, compressions, memory warnings and
///   exits as instant (`i`) events with the reason in `args`; thread 2 (`handlers`) holds background
///   handler runs as `X` slices; the counter `footprint` holds its resident bytes.
/// - Counter events carry numeric `args` only; events are sorted by `ts` (metadata first).
///
/// The same shape as the `trace.json` that `memprof run` writes (MemprofTrace), so the two can
/// share one writer once that lands.
public enum TraceExport {
    public static func encode(_ report: Report) throws -> Data {
        let apps = report.apps.keys.sorted()
        var pid: [String: Int] = [:]
        for (i, app) in apps.enumerated() { pid[app] = i + 2 }
        var meta: [[String: Any]] = []
        var events: [(ts: Int64, order: Int, event: [String: Any])] = []
        func add(_ e: [String: Any]) { events.append(((e["ts"] as? Int64) ?? 0, events.count, e)) }

        meta.append(["ph": "M", "name": "process_name", "pid": 1, "tid": 0, "ts": 0,
                     "args": ["name": "device: \(report.device.name)"]])
        meta.append(["ph": "M", "name": "process_sort_index", "pid": 1, "tid": 0, "ts": 0, "args": ["sort_index": 0]])
        for app in apps {
            let p = pid[app]!
            let name = report.apps[app]?.name ?? app
            meta.append(["ph": "M", "name": "process_name", "pid": p, "tid": 0, "ts": 0, "args": ["name": "\(name) (\(app))"]])
            meta.append(["ph": "M", "name": "process_sort_index", "pid": p, "tid": 0, "ts": 0, "args": ["sort_index": p]])
            meta.append(["ph": "M", "name": "thread_name", "pid": p, "tid": 1, "ts": 0, "args": ["name": "lifecycle"]])
            meta.append(["ph": "M", "name": "thread_name", "pid": p, "tid": 2, "ts": 0, "args": ["name": "handlers"]])
        }

        // Device counters.
        for point in report.timeline.usedBytes where point.count >= 2 {
            add(["ph": "C", "name": "used", "pid": 1, "tid": 0, "ts": point[0], "args": ["bytes": point[1]]])
        }
        for point in report.timeline.compressedBytes where point.count >= 2 {
            add(["ph": "C", "name": "compressed", "pid": 1, "tid": 0, "ts": point[0], "args": ["bytes": point[1]]])
        }
        for change in report.timeline.levels {
            let level = change.level == .normal ? 0 : change.level == .warning ? 1 : 2
            add(["ph": "C", "name": "pressure", "pid": 1, "tid": 0, "ts": change.atUs, "args": ["level": level]])
        }
        for app in apps {
            for point in report.timeline.appBytes[app] ?? [] where point.count >= 2 {
                add(["ph": "C", "name": "footprint", "pid": pid[app]!, "tid": 0, "ts": point[0], "args": ["bytes": point[1]]])
            }
        }

        // Lifecycle slices, handler slices and instants.
        var state: [String: (AppState, Int64)] = [:]
        var handlerStart: [String: [(String, Int64, String?)]] = [:]
        func closeState(_ app: String, at end: Int64) {
            guard let (s, start) = state[app], end > start, s != .notRunning, let p = pid[app] else { return }
            add(["ph": "X", "name": s.rawValue, "cat": "lifecycle", "pid": p, "tid": 1, "ts": start, "dur": end - start])
        }
        for e in report.events {
            guard let app = e.app, let p = pid[app] else {
                if e.kind == .pressure, let level = e.level {
                    add(["ph": "i", "s": "p", "name": "pressure \(level.rawValue)", "cat": "memory", "pid": 1, "tid": 0,
                         "ts": e.atUs, "args": ["level": level.rawValue, "usedBytes": e.usedBytes ?? 0]])
                }
                continue
            }
            func instant(_ name: String, _ args: [String: Any]) {
                add(["ph": "i", "s": "t", "name": name, "cat": "memory", "pid": p, "tid": 1, "ts": e.atUs, "args": args])
            }
            switch e.kind {
            case .transition:
                closeState(app, at: e.atUs)
                state[app] = (e.to ?? .notRunning, e.atUs)
            case .eviction:
                var args: [String: Any] = ["reason": "memoryPressure", "bytes": e.bytes ?? 0]
                if let reclaim = report.events.first(where: { $0.kind == .reclaim && $0.atUs == e.atUs
                    && ($0.candidates ?? []).contains { $0.app == app && $0.taken } }) {
                    args["reason"] = "reclaim for \(reclaim.app ?? "the system")"
                    args["neededBytes"] = reclaim.neededBytes ?? 0
                }
                instant("eviction", args)
            case .compression:
                instant("compression", ["reason": "suspended under the compression threshold", "bytes": e.bytes ?? 0])
            case .memoryWarning:
                instant("memory warning", ["reason": e.detail ?? "pressure", "freedBytes": e.freedBytes ?? 0])
            case .exit:
                let reason = e.reason?.rawValue ?? "unknown"
                instant(reason == "userQuit" ? "quit" : "kill", ["reason": reason])
            case .handlerStart:
                handlerStart[app, default: []].append((e.handler ?? "handler", e.atUs, e.detail))
            case .handlerEnd:
                let name = e.handler ?? "handler"
                if let index = handlerStart[app]?.lastIndex(where: { $0.0 == name }) {
                    let (_, start, why) = handlerStart[app]!.remove(at: index)
                    var args: [String: Any] = ["outcome": e.detail ?? "ended"]
                    if let why { args["wokenFor"] = why }
                    add(["ph": "X", "name": name, "cat": "handler", "pid": p, "tid": 2, "ts": start, "dur": max(0, e.atUs - start),
                         "args": args])
                }
            default:
                break
            }
        }
        for app in apps { closeState(app, at: report.run.durationUs) }
        for (app, open) in handlerStart {
            for (name, start, _) in open {
                add(["ph": "X", "name": name, "cat": "handler", "pid": pid[app]!, "tid": 2, "ts": start,
                     "dur": max(0, report.run.durationUs - start), "args": ["outcome": "running"]])
            }
        }

        let sorted = events.sorted { ($0.ts, $0.order) < ($1.ts, $1.order) }.map(\.event)
        let document: [String: Any] = [
            "displayTimeUnit": "ms",
            "otherData": ["tool": "\(report.tool.name) \(report.tool.version)", "workload": report.run.workload,
                          "device": report.device.name, "seed": String(report.run.seed)],
            "traceEvents": meta + sorted,
        ]
        var data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }
}

/// The export formats; those built on stack samples need a report with a `profile`.
public enum ExportFormat: String, CaseIterable, Sendable {
    case trace, speedscope, folded, pprof

    /// Whether the format is made of stack samples.
    public var needsSamples: Bool { self != .trace }
}

public enum Exporter {
    /// The bytes of `report` in `format`.
    ///
    /// speedscope and folded come from the report's `profile` (MemprofProfile's writers); a report
    /// without stack samples throws `noStackSamples`. pprof is not written yet: it needs a gzipped
    /// `profile.proto` writer (sample types `samples/count` and `cpu/nanoseconds`, a location and
    /// function per frame, labels `app` and `handler` on every sample), checked with
    /// `go tool pprof -top` in a script; until then it throws `notYetSupported` for reports with
    /// samples.
    public static func export(_ report: Report, format: ExportFormat) throws -> Data {
        if format == .trace { return try TraceExport.encode(report) }
        guard let profile = report.profile, profile.hasSamples else {
            throw CompareInputError.noStackSamples(format: format.rawValue)
        }
        switch format {
        case .folded: return Data(profile.makeFoldedStacks().utf8)
        case .speedscope: return try profile.makeSpeedscopeJSON(name: "memprof \(report.run.workload)")
        case .pprof, .trace: throw CompareInputError.notYetSupported("pprof export is not written yet; use speedscope or folded")
        }
    }
}
