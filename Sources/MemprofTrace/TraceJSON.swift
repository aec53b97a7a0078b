import MemprofOutput
import Foundation
import MemprofCore
import MemprofProfile
import MemprofReport

/// A report as a Trace Event Format file (`trace.json`), which ui.perfetto.dev and
/// chrome://tracing open (spec §11, issue 4).
///
/// The shape, which `memprof export --format trace` shares:
/// - `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}`; `ts` and `dur` are
///   microseconds of simulated time.
/// - pid 1 is the device (`memprof: <device>`): counters `used`, `compressed` (bytes) and `pressure`
///   (0 normal, 1 warning, 2 critical), and instant events for pressure changes and reclaim decisions.
/// - Every app is a process of its own, pid 2, 3, ... in the order of its key, named with a
///   `process_name` metadata event. Thread 1 (`lifecycle`) holds its states as complete (`X`) slices
///   and its launches, resumes, compressions, evictions, warnings and exits as instant (`i`) events
///   with their reason in `args`; thread 2 (`handlers`) holds background handler runs as `X` slices;
///   the counter `footprint` holds its resident bytes.
/// - Counter (`C`) events carry numeric `args` only. Every `X` has a `dur`. Events are written in
///   order of `ts` (metadata first), so `ts` never decreases on a track.
/// - Sampled work, when the report has a `profile`, goes on a track of its own (thread 3,
///   `samples`): one `X` slice per run of a handler's work, over that handler's simulated run,
///   named after its kernel, with the run's samples and measured wall and CPU time in `args`.
///   (The profile's stacks themselves are counts per handler, in report.html's flame graphs.)
public enum TraceJSON {
    public static let devicePid: Int64 = 1
    public static let lifecycleTid: Int64 = 1
    public static let handlersTid: Int64 = 2
    public static let samplesTid: Int64 = 3

    public static func encode(_ report: Report) throws -> Data {
        var events = makeEvents(report)
        // Stable sort by time: metadata (ts 0, rank 0) first; per track, ts never decreases.
        events = events.enumerated().sorted { a, b in
            (a.element.ts, a.element.rank, a.offset) < (b.element.ts, b.element.rank, b.offset)
        }.map(\.element)

        var out = JSONWriter(capacity: events.count * 96 + 256)
        out.raw("{\"displayTimeUnit\":\"ms\",\"otherData\":{")
        out.key("tool"); out.string("\(report.tool.name) \(report.tool.version)"); out.raw(",")
        out.key("workload"); out.string(report.run.workload); out.raw(",")
        out.key("device"); out.string(report.device.name); out.raw(",")
        out.key("policy"); out.string(report.policy.name); out.raw(",")
        out.key("seed"); out.string(String(report.run.seed))
        out.raw("},\"traceEvents\":[\n")
        for (index, event) in events.enumerated() {
            if index > 0 { out.raw(",\n") }
            event.write(into: &out)
        }
        out.raw("\n]}\n")
        return Data(out.bytes)
    }

    /// The events of the trace, unsorted.
    static func makeEvents(_ report: Report) -> [TraceEvent] {
        let apps = report.apps.keys.sorted()
        var pids: [String: Int64] = [:]
        for (index, app) in apps.enumerated() { pids[app] = Int64(index) + 2 }
        var events: [TraceEvent] = []
        events.reserveCapacity(report.events.count + report.timeline.usedBytes.count * 2)

        func metadata(_ pid: Int64, _ tid: Int64, _ name: String, _ arg: (String, TraceEvent.Value)) {
            var e = TraceEvent(ph: "M", name: name, ts: 0, pid: pid, tid: tid, rank: 0)
            e.args = [arg]
            events.append(e)
        }
        metadata(devicePid, 0, "process_name", ("name", .string("memprof: \(report.device.name)")))
        metadata(devicePid, 0, "process_sort_index", ("sort_index", .int(0)))
        metadata(devicePid, lifecycleTid, "thread_name", ("name", .string("decisions")))
        for app in apps {
            let pid = pids[app]!
            metadata(pid, 0, "process_name", ("name", .string(report.apps[app]?.name ?? app)))
            metadata(pid, 0, "process_sort_index", ("sort_index", .int(pid)))
            metadata(pid, lifecycleTid, "thread_name", ("name", .string("lifecycle")))
            metadata(pid, handlersTid, "thread_name", ("name", .string("handlers")))
        }

        // Memory counters.
        func counters(_ series: [[Int64]], pid: Int64, name: String, arg: String) {
            for pair in series where pair.count >= 2 {
                var e = TraceEvent(ph: "C", name: name, ts: pair[0], pid: pid, tid: 0)
                e.args = [(arg, .int(pair[1]))]
                events.append(e)
            }
        }
        counters(report.timeline.usedBytes, pid: devicePid, name: "used", arg: "bytes")
        counters(report.timeline.compressedBytes, pid: devicePid, name: "compressed", arg: "bytes")
        for level in report.timeline.levels {
            var e = TraceEvent(ph: "C", name: "pressure", ts: level.atUs, pid: devicePid, tid: 0)
            e.args = [("level", .int(levelNumber(level.level)))]
            events.append(e)
        }
        for app in apps {
            counters(report.timeline.appBytes[app] ?? [], pid: pids[app]!, name: "footprint", arg: "bytes")
        }

        // Lifecycle states and handler runs.
        let intervals = report.lifecycle(apps: apps)
        for app in apps {
            for interval in intervals[app] ?? [] where interval.state != .notRunning {
                var e = TraceEvent(ph: "X", name: interval.state.rawValue, ts: interval.startUs,
                                   pid: pids[app]!, tid: lifecycleTid)
                e.dur = interval.lengthUs
                if let cause = interval.cause { e.args = [("cause", .string(cause.text))] }
                events.append(e)
            }
        }
        let handlers = StateIntervals.handlers(events: report.events, durationUs: report.run.durationUs)
        for app in apps {
            for run in handlers[app] ?? [] {
                var e = TraceEvent(ph: "X", name: run.handler, ts: run.startUs, pid: pids[app]!, tid: handlersTid)
                e.dur = run.endUs - run.startUs
                e.args = [("outcome", .string(run.outcome))]
                events.append(e)
            }
        }

        events += sampledWork(report, handlers: handlers, pids: pids)
        // Decisions and notable moments as instants.
        for event in report.events {
            guard let instant = instant(for: event, pids: pids) else { continue }
            events.append(instant)
        }
        return events
    }

    /// The samples track: the profile's runs of work, in order, matched to the runs of the
    /// same app and handler in the simulation (work runs right as its handler starts, so the
    /// k-th run of work belongs to the k-th start of that handler).
    static func sampledWork(_ report: Report, handlers: [String: [HandlerInterval]],
                            pids: [String: Int64]) -> [TraceEvent] {
        guard let profile = report.profile, !profile.runs.isEmpty else { return [] }
        var events: [TraceEvent] = []
        var runsByKey: [String: ArraySlice<WorkRun>] = [:]
        for run in profile.runs { runsByKey[run.app + "\u{0}" + run.handler, default: []].append(run) }
        for app in pids.keys.sorted() {
            guard let pid = pids[app] else { continue }
            var named = false
            for interval in handlers[app] ?? [] {
                let key = app + "\u{0}" + interval.handler
                guard let run = runsByKey[key]?.popFirst() else { continue }
                if !named {
                    var meta = TraceEvent(ph: "M", name: "thread_name", ts: 0, pid: pid, tid: samplesTid, rank: 0)
                    meta.args = [("name", .string("samples"))]
                    events.append(meta)
                    named = true
                }
                var e = TraceEvent(ph: "X", name: "work: \(run.kernel)", ts: interval.startUs, pid: pid, tid: samplesTid)
                e.dur = interval.endUs - interval.startUs
                e.args = [("samples", .int(Int64(run.samples))), ("wallUs", .int(run.wallMicroseconds)),
                          ("cpuUs", .int(run.cpuMicroseconds)), ("handler", .string(run.handler))]
                events.append(e)
            }
        }
        return events
    }

    static func levelNumber(_ level: PressureLevel) -> Int64 {
        switch level {
        case .normal: 0
        case .warning: 1
        case .critical: 2
        }
    }

    static func instant(for event: SimEvent, pids: [String: Int64]) -> TraceEvent? {
        let name: String
        var args: [(String, TraceEvent.Value)] = []
        var onApp = true
        switch event.payload {
        case .launch(let kind, let bytes, _):
            name = "launch"
            args = [("reason", .string(kind.rawValue)), ("bytes", .int(bytes))]
        case .resume(let kind, let latency):
            name = "resume"
            args = [("reason", .string(kind.rawValue)), ("latencyUs", .int(latency))]
        case .compression(let bytes, _, _):
            name = "compression"
            args = [("reason", .string("suspended under the compression threshold")), ("bytes", .int(bytes))]
        case .eviction(let bytes):
            name = "eviction"
            args = [("reason", .string(ExitReason.memoryPressure.rawValue)), ("bytes", .int(bytes))]
        case .exit(let reason, _):
            name = reason == .userQuit ? "exit" : "kill"
            args = [("reason", .string(reason.rawValue))]
        case .memoryWarning(let cause, let freed):
            name = "memoryWarning"
            args = [("reason", .string(cause.rawValue)), ("freedBytes", .int(freed))]
        case .pressure(let level, _):
            name = "pressure \(level.rawValue)"
            args = [("reason", .string("level changed"))]
            onApp = false
        case .reclaim(let r):
            name = "reclaim"
            let text = r.candidates.map { "\($0.app)\($0.taken ? "*" : "")" }.joined(separator: " ")
            args = [("reason", .string("demand did not fit")), ("neededBytes", .int(r.neededBytes)),
                    ("freedBytes", .int(r.freedBytes)), ("candidates", .string(text))]
            if let app = event.app { args.append(("demandingApp", .string(app))) }
            onApp = false
        case .transition, .callback, .decompression, .handlerStart, .handlerEnd, .pushDelivered, .ignored, .objectShown,
             .objectDismissed, .notificationDelivery, .swap:
            return nil
        }
        let pid = onApp ? (event.app.flatMap { pids[$0] } ?? devicePid) : devicePid
        var e = TraceEvent(ph: "i", name: name, ts: event.atUs, pid: pid, tid: lifecycleTid)
        e.scope = onApp ? "t" : "p"
        e.args = args
        return e
    }
}

/// One entry of `traceEvents`.
struct TraceEvent {
    enum Value {
        case int(Int64)
        case string(String)
    }

    var ph: String
    var name: String
    var ts: Int64
    var pid: Int64
    var tid: Int64
    /// Sort rank among events of equal `ts`: metadata before everything else.
    var rank = 1
    var dur: Int64?
    var scope: String?
    var args: [(String, Value)] = []

    init(ph: String, name: String, ts: Int64, pid: Int64, tid: Int64, rank: Int = 1) {
        self.ph = ph
        self.name = name
        self.ts = ts
        self.pid = pid
        self.tid = tid
        self.rank = rank
    }

    func write(into out: inout JSONWriter) {
        out.raw("{\"ph\":"); out.string(ph)
        out.raw(",\"name\":"); out.string(name)
        out.raw(",\"ts\":"); out.int(ts)
        if let dur { out.raw(",\"dur\":"); out.int(dur) }
        out.raw(",\"pid\":"); out.int(pid)
        out.raw(",\"tid\":"); out.int(tid)
        if let scope { out.raw(",\"s\":"); out.string(scope) }
        if !args.isEmpty {
            out.raw(",\"args\":{")
            for (index, (key, value)) in args.enumerated() {
                if index > 0 { out.raw(",") }
                out.key(key)
                switch value {
                case .int(let v): out.int(v)
                case .string(let s): out.string(s)
                }
            }
            out.raw("}")
        }
        out.raw("}")
    }
}
