import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport
import MemprofReportReader

/// The events behind a metric, in words: "at 58m57s: evicted while suspended (106 MB) to make room for safari".
public enum Evidence {
    /// The kinds of events `causes(of:report:limit:)` reads for these metric paths (as each kind
    /// declares, ``SimEvent/Kind/Outputs/causeOf``): what a reader of the report must keep for them.
    public static func eventKinds(for paths: [MetricPath]) -> Set<SimEvent.Kind> {
        var kinds: Set<SimEvent.Kind> = []
        for path in paths { kinds.formUnion(SimEvent.Kind.causes(of: path.relative.split(separator: ".").first ?? "")) }
        return kinds
    }

    /// Gathers the causes of many metrics in one pass over a report's events, as they are read
    /// (`ReportEventSink`), keeping per metric only the lines it shows and a count of the rest:
    /// its memory does not grow with the events, and its time grows with the events times the
    /// metrics of one app, not times every metric. Only the events near a peak, whose time is
    /// known once the report's timeline is read, take a second reading of the events.
    public final class Digest: ReportEventSink {
        let limit: Int
        var collectors: [Collector] = []
        /// Collectors by full path.
        var byPath: [String: Int] = [:]
        /// Collectors of every event (the whole run's metrics), and of one app's events.
        var everyEvent: [Int] = []
        var byApp: [String: [Int]] = [:]
        /// Metrics (relative paths) of every app (`apps.*.…`), made per app at its first event.
        var everyApp: [String] = []
        /// The reclaims of the latest instant, by the app they took (the first one), and the lines
        /// of that instant still waiting to say what their eviction made room for.
        var instant: Microseconds?
        var roomFor: [String: Room] = [:]
        var waiting: [(collector: Int, line: Int, app: String)] = []

        public init(paths: [MetricPath], limit: Int) {
            self.limit = limit
            for path in paths where byPath[path.full] == nil && !Self.isPeak(path) {
                if path.app == "*" {
                    if !everyApp.contains(path.relative) { everyApp.append(path.relative) }
                } else {
                    make(path)
                }
            }
        }

        @discardableResult func make(_ path: MetricPath) -> Int {
            if let k = byPath[path.full] { return k }
            let k = collectors.count
            let collector = Collector(path, limit: limit)
            collectors.append(collector)
            byPath[path.full] = k
            // The time at a pressure level is the whole run's, whatever the scope.
            if path.app == nil || collector.first == "timeAtPressureUs" { everyEvent.append(k) } else { byApp[path.app!, default: []].append(k) }
            return k
        }

        public func add(_ event: SimEvent) {
            if event.atUs != instant {
                instant = event.atUs
                roomFor.removeAll(keepingCapacity: true)
                waiting.removeAll(keepingCapacity: true)
            }
            if case .reclaim(let r) = event.payload { reclaimed(r, by: event.app) }
            for k in everyEvent { collect(event, k) }
            guard let app = event.app else { return }
            if !everyApp.isEmpty, byApp[app] == nil {
                byApp[app] = []
                for relative in everyApp { make(MetricPath("apps.\(app).\(relative)")) }
            }
            for k in byApp[app] ?? [] { collect(event, k) }
        }

        func collect(_ event: SimEvent, _ k: Int) {
            guard let line = collectors[k].add(event), let app = event.app else { return }
            if let room = roomFor[app] { collectors[k].lines[line] += room.text } else { waiting.append((k, line, app)) }
        }

        /// A reclaim that took an app: what its eviction made room for.
        struct Room {
            var app: String?
            var needed: Bytes
            var freed: Bytes

            /// ", to make room for safari (needed 51 KB, freed 106 MB)".
            var text: String {
                ", to make room for \(app ?? "the system") (needed \(Format.bytes(needed)), freed \(Format.bytes(freed)))"
            }
        }

        /// ", to make room for safari (needed 51 KB, freed 106 MB)" for each app a reclaim took
        /// (the first reclaim of the instant that took it).
        func reclaimed(_ r: SimEvent.Reclaim, by app: String?) {
            for candidate in r.candidates where candidate.taken && roomFor[candidate.app] == nil {
                roomFor[candidate.app] = Room(app: app, needed: r.neededBytes, freed: r.freedBytes)
            }
            guard !waiting.isEmpty else { return }
            waiting.removeAll { w in
                guard let room = roomFor[w.app] else { return false }
                collectors[w.collector].lines[w.line] += room.text
                return true
            }
        }

        /// The causes of each of `paths` (by full path), once the events are read. `reread` reads
        /// the report's events again (of the kinds given), for the events near a peak.
        public func causes(of paths: [MetricPath], report: Report,
                           reread: (Set<SimEvent.Kind>, (SimEvent) -> Void) throws -> Void) throws -> [String: [String]] {
            var out: [String: [String]] = [:]
            var near: [(path: MetricPath, peak: [Int64], lines: [String])] = []
            for path in paths where out[path.full] == nil {
                if Self.isPeak(path) {
                    near.append(peakLine(path, report))
                } else if let k = byPath[path.full] {
                    out[path.full] = collectors[k].finish()
                } else {
                    var none = Collector(path, limit: limit)  // an app without events
                    out[path.full] = none.finish()
                }
            }
            if near.contains(where: { !$0.peak.isEmpty }) {
                try reread(Evidence.eventKinds(for: near.map(\.path))) { e in
                    for i in near.indices where near[i].peak.count >= 2 && near[i].lines.count < limit
                        && Self.isNear(e, near[i].path.app, peakAt: near[i].peak[0]) {
                        near[i].lines.append("at \(Format.duration(e.atUs)): " + describe(e))
                    }
                }
            }
            for entry in near { out[entry.path.full] = entry.lines }
            return out
        }

        /// Peak metrics: their nearby events are read once the peak is known.
        static func isPeak(_ path: MetricPath) -> Bool {
            ["peakFootprintBytes", "peakUsedBytes", "peakCompressedBytes"].contains(path.relative.split(separator: ".").first ?? "")
        }

        /// "at 2h: peak of 1.2 GB", and the peak point (empty when the series has none).
        func peakLine(_ path: MetricPath, _ report: Report) -> (path: MetricPath, peak: [Int64], lines: [String]) {
            let first = path.relative.split(separator: ".").first ?? ""
            let series: [[Int64]] = first == "peakUsedBytes" ? report.timeline.usedBytes
                : first == "peakCompressedBytes" ? report.timeline.compressedBytes
                : report.timeline.appBytes[path.app ?? ""] ?? []
            guard let peak = series.filter({ $0.count >= 2 }).max(by: { $0[1] < $1[1] }) else { return (path, [], []) }
            return (path, peak, ["at \(Format.duration(peak[0])): peak of \(Format.bytes(peak[1]))"])
        }

        /// What happened around a peak: for an app, its warnings and the reclaims it caused; for
        /// the device, pressure changes and reclaims.
        static func isNear(_ e: SimEvent, _ app: String?, peakAt: Int64) -> Bool {
            guard abs(e.atUs - peakAt) <= 60_000_000 else { return false }
            switch e.payload {
            case .reclaim: return app == nil || e.app == app
            case .memoryWarning: return app != nil && e.app == app
            case .pressure: return app == nil
            default: return false
            }
        }
    }

    /// The lines of one metric's causes, one event at a time: the first `limit` lines and how many more.
    struct Collector {
        let app: String?
        let first: String
        let second: String
        let limit: Int
        var lines: [String] = []
        var total = 0
        /// Launches: each app's last exit.
        var lastExit: [String: ExitReason] = [:]
        /// Time at a pressure level: when the level was entered.
        var enteredAt: Int64?
        /// Resume latency: the slowest resumes (ties in event order).
        var slowest: [(latency: Microseconds, event: SimEvent, kind: ResumeKind)] = []

        /// What `add` looks for, worked out once from the metric's name (not per event).
        enum Family {
            case evictions
            /// Exits with the reason the metric names (nil when it names none).
            case exits(ExitReason?)
            case compressions
            case memoryWarnings
            /// Launches of a kind, or (for `launches.<resume kind>`) resumes of a kind.
            case launches(LaunchKind?, resume: ResumeKind?, afterKill: Bool)
            case resumes(ResumeKind)
            /// Handlers started, or ended with the outcome the metric names.
            case handlers(BackgroundActivity, started: Bool, wanted: HandlerOutcome?)
            case resumeLatency
            /// Time at the level the metric names (nil when it names none).
            case timeAtPressure(PressureLevel?)
            case other
        }
        let family: Family

        init(_ path: MetricPath, limit: Int) {
            app = path.app
            let segments = path.relative.split(separator: ".").map(String.init)
            first = segments.first ?? ""
            second = segments.count > 1 ? segments[1] : ""
            self.limit = max(0, limit)
            switch first {
            case "evictions": family = .evictions
            case "exits", "terminations": family = .exits(ExitReason(rawValue: second))
            case "compressions": family = .compressions
            case "memoryWarnings": family = .memoryWarnings
            case "coldLaunches", "launches", "backgroundLaunches", "coldRelaunchesAfterKill":
                let launch: LaunchKind? = first == "coldLaunches" || first == "coldRelaunchesAfterKill" ? .cold
                    : first == "backgroundLaunches" ? .background : LaunchKind(rawValue: second)
                family = .launches(launch, resume: ResumeKind(rawValue: second), afterKill: first == "coldRelaunchesAfterKill")
            case "warmResumes", "compressedResumes": family = .resumes(first == "warmResumes" ? .warm : .fromCompressed)
            case "backgroundTasks", "fetches", "pushes":
                let handler: BackgroundActivity = first == "backgroundTasks" ? .backgroundTask : first == "fetches" ? .fetch : .push
                family = .handlers(handler, started: second == "started", wanted: HandlerOutcome(detail: second))
            case "resumeLatencyUs": family = .resumeLatency
            case "timeAtPressureUs": family = .timeAtPressure(PressureLevel(rawValue: second))
            default: family = .other
            }
        }

        /// "at 1h2m, mail" (the app named for whole-run metrics).
        static func at(_ e: SimEvent, _ app: String?) -> String {
            "at \(Format.duration(e.atUs))" + (app == nil ? ", \(e.app ?? "device")" : "")
        }

        /// Counts a line, keeping it while fewer than `limit` are kept; returns its index when it is kept.
        @discardableResult mutating func line(_ text: @autoclosure () -> String) -> Int? {
            total += 1
            guard lines.count < limit else { return nil }
            lines.append(text())
            return lines.count - 1
        }

        /// Takes the next event (of the metric's app, or of any app for whole-run metrics);
        /// returns the index of a kept line that a reclaim at the same instant may complete.
        mutating func add(_ e: SimEvent) -> Int? {
            // The lines are made only when kept, from copies (not `self`, which `line` changes).
            let (app, second) = (self.app, self.second)
            func at(_ e: SimEvent) -> String { Self.at(e, app) }
            switch family {
            case .evictions:
                guard case .eviction(let bytes) = e.payload else { return nil }
                return line("\(at(e)): evicted (\(Format.bytes(bytes)))")
            case .exits(let wanted):
                guard case .exit(let reason, let from) = e.payload, reason == wanted else { return nil }
                return line("\(at(e)): exit \(second) while \(from.rawValue)")
            case .compressions:
                guard case .compression(let bytes, _, _) = e.payload else { return nil }
                line("\(at(e)): compressed \(Format.bytes(bytes)) to flash")
            case .memoryWarnings:
                if app == nil {
                    guard case .pressure(let level, let used) = e.payload, level != .normal else { return nil }
                    line("at \(Format.duration(e.atUs)): pressure \(level.rawValue) with \(Format.bytes(used)) in use")
                } else {
                    guard case .memoryWarning(let cause, let freed) = e.payload else { return nil }
                    line("\(at(e)): memory warning (\(cause.rawValue)), freed \(Format.bytes(freed))")
                }
            case .launches(let launch, let resume, let afterKill):
                if let launch {
                    if case .exit(let reason, _) = e.payload, let a = e.app { lastExit[a] = reason }
                    guard case .launch(launch, _, _) = e.payload else { return nil }
                    let after = e.app.flatMap { lastExit[$0] }
                    if afterKill && (after == nil || after == .userQuit) { return nil }
                    line("\(at(e)): \(launch.rawValue) launch" + (after.map { " after exit \($0.rawValue)" } ?? ""))
                } else if let resume {
                    self.resume(resume, e)
                }
            case .resumes(let kind):
                resume(kind, e)
            case .handlers(let handler, let started, let wanted):
                if started {
                    guard case .handlerStart(handler, _, let inForeground) = e.payload else { return nil }
                    line("\(at(e)): \(handler.rawValue) started" + (inForeground ? " (in the foreground)" : ""))
                } else {
                    // The metric `completed` counts every end; the others, the ends with their outcome.
                    guard case .handlerEnd(handler, let outcome) = e.payload, wanted == .completed || outcome == wanted
                    else { return nil }
                    line("\(at(e)): \(handler.rawValue) \(outcome.detail)")
                }
            case .resumeLatency:
                guard case .resume(let kind, let latency) = e.payload else { return nil }
                total += 1
                // Slowest first; among equal latencies, the earlier first.
                let at = slowest.firstIndex { $0.latency < latency } ?? slowest.count
                if at < limit {
                    slowest.insert((latency, e, kind), at: at)
                    if slowest.count > limit { slowest.removeLast() }
                }
            case .timeAtPressure(let wanted):
                guard case .pressure(let level, _) = e.payload else { return nil }
                if level == wanted { enteredAt = e.atUs } else if let start = enteredAt {
                    line("from \(Format.duration(start)) to \(Format.duration(e.atUs)): \(second) (\(Format.duration(e.atUs - start)))")
                    enteredAt = nil
                }
            case .other:
                break
            }
            return nil
        }

        mutating func resume(_ kind: ResumeKind, _ e: SimEvent) {
            guard case .resume(kind, let latency) = e.payload else { return }
            let app = self.app
            line("\(Self.at(e, app)): \(kind.rawValue) resume in \(Format.duration(latency))")
        }

        /// The lines, the last one saying how many more there were.
        mutating func finish() -> [String] {
            let (app, second) = (self.app, self.second)
            if first == "timeAtPressureUs", let start = enteredAt {
                line("from \(Format.duration(start)) to the end: \(second)")
                enteredAt = nil
            }
            for (latency, e, kind) in slowest { lines.append("\(Self.at(e, app)): \(kind.rawValue) resume took \(Format.duration(latency))") }
            slowest.removeAll()
            guard total > limit else { return lines }
            return lines + ["… and \(total - limit) more"]
        }
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
