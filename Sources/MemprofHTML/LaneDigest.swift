import MemprofCore
import MemprofReport

/// What the lifecycle swimlanes draw (``LaneChart``), made one interval, handler run and event
/// at a time: a streamed run feeds it as it goes, a whole report all at once. Holds what
/// the lanes draw, bounded by apps × columns, not the run's intervals or events.
public struct LaneDigest {
    /// The lanes, per app in the chart's order.
    public struct Drawn: Sendable {
        public var minLengthUs: Microseconds
        public var segments: [[LaneSegment]]
        public var handlers: [[HandlerInterval]]
        public var marks: [[(atUs: Microseconds, kind: Int, detail: String)]]

        /// The lanes at `indices` only, in that order.
        func rows(_ indices: [Int]) -> Drawn {
            Drawn(minLengthUs: minLengthUs, segments: indices.map { segments[$0] },
                  handlers: indices.map { handlers[$0] }, marks: indices.map { marks[$0] })
        }
    }

    private let rows: [String: Int]
    private let duration: Microseconds
    private let columns: Int64
    private let minLength: Microseconds
    private var builders: [Lanes.Builder]
    private var segments: [[LaneSegment]]
    private var handlers: [[HandlerInterval]]
    private var marks: [[(atUs: Microseconds, kind: Int, detail: String)]]
    /// The column of each lane's last mark (-1: none yet): events come in time order, so a
    /// lane's marks are placed column after column.
    private var lastColumn: [Int64]

    /// Lanes for `apps` (in the chart's order) over a run of `durationUs`: time is cut into at
    /// most `laneBudget / apps` columns per lane (200 to 2,000).
    public init(apps: [String], durationUs: Microseconds, options: HTMLReport.Options = .init()) {
        rows = Dictionary(apps.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        duration = max(durationUs, 1)
        columns = Int64(max(200, min(2_000, options.laneBudget / max(1, apps.count))))
        let minLength = max(1, duration / columns)
        self.minLength = minLength
        builders = apps.map { _ in Lanes.Builder(minLengthUs: minLength) }
        segments = apps.map { _ in [] }
        handlers = apps.map { _ in [] }
        marks = apps.map { _ in [] }
        lastColumn = apps.map { _ in -1 }
    }

    /// The lanes of a whole report.
    static func whole(_ report: Report, apps: [String], options: HTMLReport.Options) -> Drawn {
        var digest = LaneDigest(apps: apps, durationUs: report.run.durationUs, options: options)
        let intervals = report.lifecycle(apps: apps)
        for app in apps { for interval in intervals[app] ?? [] { digest.interval(app, interval) } }
        let runs = StateIntervals.handlers(events: report.events, durationUs: report.run.durationUs)
        for app in apps { for run in runs[app] ?? [] { digest.handlerRun(app, run) } }
        for event in report.events { digest.event(event) }
        return digest.finish()
    }

    /// The next state interval of `app` (in time order).
    public mutating func interval(_ app: String, _ interval: StateInterval) {
        guard let row = rows[app] else { return }
        self.interval(row: row, interval)
    }

    /// ``interval(_:_:)`` for the app of lane `row` (a streamed run knows its apps by index:
    /// no key is hashed per interval).
    public mutating func interval(row: Int, _ interval: StateInterval) {
        builders[row].add(interval) { Self.append($0, to: &segments[row]) }
    }

    /// Consecutive merged segments holding the same states become one.
    static func append(_ segment: LaneSegment, to out: inout [LaneSegment]) {
        if var last = out.last, last.merged > 1, segment.merged > 1, last.states == segment.states,
            last.endUs == segment.startUs
        {
            last.endUs = segment.endUs
            last.merged += segment.merged
            last.cause = "\(last.merged) changes"
            out[out.count - 1] = last
        } else {
            out.append(segment)
        }
    }

    /// The next handler run of `app` (sorted by start and end, as `StateIntervals.handlers` gives
    /// them). Runs shorter than a column are merged, keeping the first's name.
    public mutating func handlerRun(_ app: String, _ run: HandlerInterval) {
        guard let row = rows[app] else { return }
        handlerRun(row: row, run)
    }

    /// ``handlerRun(_:_:)`` for the app of lane `row`.
    public mutating func handlerRun(row: Int, _ run: HandlerInterval) {
        if var last = handlers[row].last, run.startUs - last.endUs < minLength,
            last.endUs - last.startUs < minLength || run.endUs - run.startUs < minLength
        {
            last.endUs = max(last.endUs, run.endUs)
            last.outcome = "several runs"
            handlers[row][handlers[row].count - 1] = last
        } else {
            handlers[row].append(run)
        }
    }

    /// An event of the run, in order: launches, resumes, evictions, compressions and exits make
    /// marks, one per app and column, the most telling kind there (a kill over a launch).
    public mutating func event(_ event: SimEvent) {
        guard let app = event.app, let row = rows[app] else { return }
        self.event(event, row: row)
    }

    /// Whether the lanes read events of `kind` (the marks').
    public static func reads(_ kind: SimEvent.Kind) -> Bool { kind.outputs.laneMark }

    /// ``event(_:)`` for an event of the app of lane `row`.
    public mutating func event(_ event: SimEvent, row: Int) {
        let name: String
        let detail: String
        switch event.payload {
        case .launch(let kind, _, _): (name, detail) = ("launch", kind.rawValue)
        case .resume(let kind, _): (name, detail) = ("resume", kind.rawValue)
        case .eviction: (name, detail) = ("eviction", "")
        case .compression(_, _, let freezer): (name, detail) = ("compression", freezer?.detail ?? "")
        case .exit(let reason, _): (name, detail) = (reason == .userQuit ? "quit" : "kill", reason.rawValue)
        default:
            // Any other kind declared a mark: its kind's word and report.json `detail`.
            guard event.kind.outputs.laneMark else { return }
            (name, detail) = (event.kind.rawValue, event.fields.detail ?? "")
        }
        let kind = LaneChart.markKinds.firstIndex(of: name) ?? 0
        let column = event.atUs * columns / duration
        if column == lastColumn[row] {
            let index = marks[row].count - 1
            if LaneChart.markPriority[kind] > LaneChart.markPriority[marks[row][index].kind] {
                marks[row][index] = (event.atUs, kind, detail)
            }
        } else {
            lastColumn[row] = column
            marks[row].append((event.atUs, kind, detail))
        }
    }

    /// The lanes, once every interval, run and event is in.
    public mutating func finish() -> Drawn {
        for row in builders.indices { builders[row].finish { Self.append($0, to: &segments[row]) } }
        return Drawn(minLengthUs: minLength, segments: segments, handlers: handlers, marks: marks)
    }
}
