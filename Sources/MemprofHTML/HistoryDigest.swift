import MemprofCore
import MemprofReport

/// What report.html shows of a run's history besides the memory chart's series (``MemoryDigest``)
/// and the swimlanes (``LaneDigest``), made one event, jetsam snapshot and pressure change at a
/// time: the decisions table's first and last rows and its counts, the chart's decision
/// marks (``DecisionMarks``), the jetsam reports shown (the first and last of them) with their
/// decisions, the pressure strip's columns and the flame graphs' handler runs. A streamed run
/// feeds it as it goes, a whole report all at once; either way it holds no more than the page
/// shows, bounded by the apps and the page's limits, not by the run's length or its events.
public struct HistoryDigest {
    /// What the page draws of the history.
    public struct Drawn {
        /// The decisions table's rows: all of them when they are at most `Options.tableLimit`,
        /// otherwise the first and the last half of that.
        public var head: [DecisionRow]
        public var tail: [DecisionRow]
        /// Every decision, and how many of each kind.
        public var decisions: Int
        public var counts: [SimEvent.Kind: Int]
        public var marks: DecisionMarks
        /// Every jetsam snapshot of the run, and those the page shows (``HTMLReport/jetsamLimit``:
        /// the first and last), by their index in report.json's `jetsamEvents`.
        public var jetsamCount: Int
        public var jetsam: [(index: Int, event: JetsamEvent)]
        /// The decision each shown jetsam snapshot belongs to.
        public var decisionFor: [Int: DecisionRow]
        /// The pressure strip: per drawing column the highest level reached (``PressureColumns``).
        public var pressure: [Int]
        /// The flame graphs' handler runs (``FlameGraphs/handlerRuns(_:durationUs:)``).
        public var handlerRuns: [String: [Microseconds]]
    }

    private let rowLimit: Int
    private let rowHalf: Int
    private var builder: DecisionRowBuilder
    private var head: [DecisionRow] = []
    private var tail = Ring<DecisionRow>(capacity: 0)
    private var decisions = 0
    private var counts: [SimEvent.Kind: Int] = [:]
    private var marks = DecisionMarks()

    private static let jetsamHalf = HTMLReport.jetsamShownHalf
    private static let jetsamTailCapacity = HTMLReport.jetsamLimit - jetsamHalf
    private var jetsamCount = 0
    private var jetsamHead: [JetsamEvent] = []
    /// The last snapshots, as they came: a streamed run's are made reports' snapshots only if
    /// they are among those shown (a long run takes tens of thousands).
    private var jetsamTail = Ring<HeldJetsam>(capacity: HistoryDigest.jetsamTailCapacity)
    /// The app keys of the run's snapshots (``jetsam(_:appIDs:)``).
    private var appIDs: [String] = []
    /// Snapshots a kill not yet read may link to (``SnapshotIndex``).
    private let snapshots: SnapshotIndex
    /// The time of the last event read: later events cannot link to snapshots before it.
    private var lastEventUs: Microseconds = 0
    private var decisionFor: [Int: DecisionRow] = [:]

    private var pressure: PressureColumns
    private var handlerRuns: HandlerRunTimes?

    /// - Parameters:
    ///   - durationUs: the run's duration (the time axis of the chart and the flame graphs).
    ///   - keepsHandlerRuns: whether the flame graphs' handler runs are gathered (runs with work).
    public init(durationUs: Microseconds, keepsHandlerRuns: Bool, options: HTMLReport.Options = .init()) {
        rowLimit = options.tableLimit
        rowHalf = max(1, options.tableLimit / 2)
        tail = Ring(capacity: max(1, options.tableLimit - rowHalf))
        pressure = PressureColumns(scale: MemoryChart.timeScale(span: max(1, durationUs)), durationUs: durationUs)
        handlerRuns = keepsHandlerRuns ? HandlerRunTimes(durationUs: durationUs) : nil
        let snapshots = SnapshotIndex()
        self.snapshots = snapshots
        builder = DecisionRowBuilder { at, app in snapshots.index(at, app).map { [$0] } ?? [] }
    }

    /// The history of a whole report.
    public static func whole(_ report: Report, options: HTMLReport.Options = .init()) -> Drawn {
        var digest = HistoryDigest(durationUs: report.run.durationUs, keepsHandlerRuns: report.profile != nil,
                                   options: options)
        for snapshot in report.jetsamEvents { digest.jetsam(snapshot) }
        for change in report.timeline.levels { digest.level(change) }
        for event in report.events { digest.event(event) }
        return digest.finish()
    }

    /// Whether the page reads events of `kind` (the decisions, and handler starts for the flame graphs).
    public func reads(_ kind: SimEvent.Kind) -> Bool {
        let outputs = kind.outputs
        return outputs.decisionRow != nil || (outputs.handlerRun == .start && handlerRuns != nil)
    }

    /// The next jetsam snapshot of the run (before the events of its kill).
    public mutating func jetsam(_ snapshot: JetsamEvent) {
        let index = jetsamCount
        jetsamCount += 1
        if index < Self.jetsamHalf { jetsamHead.append(snapshot) } else { jetsamTail.append(.event(snapshot)) }
        snapshots.add(atUs: snapshot.atUs, killed: snapshot.killed, index: index)
    }

    /// ``jetsam(_:)`` for a snapshot as the engine takes it, its apps named by `appIDs` (the
    /// workload's keys, the same for every snapshot of a run).
    public mutating func jetsam(_ snapshot: JetsamSnapshot, appIDs: [String]) {
        let index = jetsamCount
        jetsamCount += 1
        self.appIDs = appIDs
        if index < Self.jetsamHalf {
            jetsamHead.append(snapshot.event(appIDs: appIDs))
        } else {
            jetsamTail.append(.snapshot(snapshot))
        }
        snapshots.add(atUs: snapshot.atUs, killed: appIDs[snapshot.killed], index: index)
    }

    /// A snapshot as it came.
    private enum HeldJetsam {
        case event(JetsamEvent)
        case snapshot(JetsamSnapshot)
    }

    /// The next change of the pressure level.
    public mutating func level(_ change: Timeline.LevelChange) { pressure.add(change) }

    /// The next event of the run.
    public mutating func event(_ event: SimEvent) {
        guard reads(event.kind) else { return }
        if case .handlerStart = event.payload {
            handlerRuns?.add(event)
            return
        }
        // Rows read now link to snapshots of this instant or of the last event's.
        snapshots.drop(before: min(lastEventUs, event.atUs))
        lastEventUs = event.atUs
        var rows: [DecisionRow] = []
        builder.add(event) { rows.append($0) }
        for row in rows { take(row) }
    }

    private mutating func take(_ row: DecisionRow) {
        decisions += 1
        counts[row.kind, default: 0] += 1
        marks.add(row)
        if head.count < rowHalf { head.append(row) } else { tail.append(row) }
        for index in row.jetsam where index < Self.jetsamHalf || index >= jetsamCount - Self.jetsamTailCapacity {
            decisionFor[index] = row
        }
        if decisionFor.count > 4 * HTMLReport.jetsamLimit {
            let first = jetsamCount - Self.jetsamTailCapacity
            decisionFor = decisionFor.filter { $0.key < Self.jetsamHalf || $0.key >= first }
        }
    }

    /// What the page draws (once, after the last event).
    public mutating func finish() -> Drawn {
        var rows: [DecisionRow] = []
        builder.finish { rows.append($0) }
        for row in rows { take(row) }
        let tailRows = tail.elements
        let shownTail = decisions <= rowLimit ? tailRows : Array(tailRows.suffix(rowHalf))
        var jetsam = jetsamHead.enumerated().map { (index: $0.offset, event: $0.element) }
        let tailJetsam = jetsamTail.elements.map { [appIDs] held in
            switch held {
            case .event(let event): event
            case .snapshot(let snapshot): snapshot.event(appIDs: appIDs)
            }
        }
        let shownJetsam = jetsamCount <= HTMLReport.jetsamLimit ? tailJetsam : Array(tailJetsam.suffix(Self.jetsamHalf))
        let firstTail = jetsamCount - shownJetsam.count
        jetsam += shownJetsam.enumerated().map { (index: firstTail + $0.offset, event: $0.element) }
        let shown = Set(jetsam.map(\.index))
        return Drawn(head: head, tail: shownTail, decisions: decisions, counts: counts, marks: marks,
                     jetsamCount: jetsamCount, jetsam: jetsam, decisionFor: decisionFor.filter { shown.contains($0.key) },
                     pressure: pressure.finish(), handlerRuns: handlerRuns?.runs ?? [:])
    }
}

/// The pressure strip of the memory chart, one level change at a time: per drawing column the
/// highest level reached in it (0 normal, 1 warning, 2 critical), so no moment at warning or
/// critical is lost however long the run.
public struct PressureColumns {
    public static let columns = Int(MemoryChart.right - MemoryChart.left)
    let scale: LinearScale
    let durationUs: Microseconds
    var highest = Array(repeating: 0, count: PressureColumns.columns)
    var last: Timeline.LevelChange?

    public init(scale: LinearScale, durationUs: Microseconds) {
        self.scale = scale
        self.durationUs = durationUs
    }

    /// The next change (in time order).
    public mutating func add(_ change: Timeline.LevelChange) {
        if let last { mark(last, until: change.atUs) }
        last = change
    }

    private func column(_ t: Microseconds) -> Int {
        min(Self.columns - 1, max(0, Int(scale(t) - MemoryChart.left)))
    }

    private mutating func mark(_ change: Timeline.LevelChange, until end: Microseconds) {
        let level: Int
        switch change.level {
        case .normal: return
        case .warning: level = 1
        case .critical: level = 2
        }
        for col in column(change.atUs)...max(column(change.atUs), column(max(change.atUs, end - 1))) {
            highest[col] = max(highest[col], level)
        }
    }

    /// The columns, once the changes are over (the last lasts to the end of the run).
    public mutating func finish() -> [Int] {
        if let last { mark(last, until: durationUs) }
        last = nil
        return highest
    }
}

/// The flame graphs' handler runs, one event at a time: per app and handler, the start of a run
/// in each of 4,000 columns of the run (``FlameGraphs/handlerRuns(_:durationUs:)``).
public struct HandlerRunTimes {
    let duration: Microseconds
    public private(set) var runs: [String: [Microseconds]] = [:]
    var lastColumn: [String: Int64] = [:]

    public init(durationUs: Microseconds) { duration = max(durationUs, 1) }

    public mutating func add(_ event: SimEvent) {
        guard case .handlerStart(let activity, _, _) = event.payload else { return }
        let key = (event.app ?? "") + "\u{0}" + activity.rawValue
        let column = event.atUs * 4_000 / duration
        guard lastColumn[key] != column else { return }
        lastColumn[key] = column
        runs[key, default: []].append(event.atUs)
    }
}

/// The jetsam snapshots a decision may still link to, by instant and killed app (the last one
/// when several share both); those before the last event read are dropped, as no later event
/// links to them.
final class SnapshotIndex {
    private struct Key: Hashable {
        var atUs: Microseconds
        var app: String
    }

    private var byKey: [Key: Int] = [:]
    private var order = Ring<(atUs: Microseconds, key: Key, index: Int)>(capacity: 0)

    func add(atUs: Microseconds, killed: String, index: Int) {
        let key = Key(atUs: atUs, app: killed)
        byKey[key] = index
        order.appendGrowing((atUs, key, index))
    }

    func index(_ atUs: Microseconds, _ app: String) -> Int? { byKey[Key(atUs: atUs, app: app)] }

    func drop(before time: Microseconds) {
        while let first = order.first, first.atUs < time {
            order.removeFirst()
            if byKey[first.key] == first.index { byKey[first.key] = nil }
        }
    }
}

/// The last `capacity` elements appended (or every one, for `appendGrowing`), oldest first.
struct Ring<Element> {
    private var storage: [Element] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var first: Element? { start < storage.count ? storage[start] : nil }

    /// Appends, dropping the oldest element when full.
    mutating func append(_ element: Element) {
        guard capacity > 0 else { return }
        if storage.count - start < capacity {
            appendGrowing(element)
        } else {
            storage.append(element)
            start += 1
            compact()
        }
    }

    /// Appends without a bound (a queue read from the front with `removeFirst`).
    mutating func appendGrowing(_ element: Element) { storage.append(element) }

    mutating func removeFirst() {
        start += 1
        compact()
    }

    private mutating func compact() {
        if start >= 64, start * 2 >= storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    var elements: [Element] { Array(storage[start...]) }
}
