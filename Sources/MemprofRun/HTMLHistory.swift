import MemprofCore
import MemprofHTML
import MemprofReport

/// What report.html is drawn from besides the memory chart's series (``MemoryDigest``), kept while
/// a streamed run goes (``RunStream``), no more than the page reads of it: the events of the kinds
/// it draws (decisions, launches, resumes, exits, handler runs), each app's state intervals, the
/// pressure levels, and the jetsam snapshots, whose processes only for the kills the page shows.
struct HTMLHistory {
    private var events: [SimEvent] = []
    private var jetsamEvents: [JetsamEvent] = []
    /// The processes of the last snapshots, by index, while they may be among the last shown.
    private var lastProcesses: [Int: [JetsamEvent.Process]] = [:]
    private var intervals: [String: [StateInterval]] = [:]
    private var levelChanges: [Timeline.LevelChange] = []

    /// Snapshots shown first and last (``HTMLReport/jetsamLimit``'s halves).
    private static let shownHalf = HTMLReport.jetsamShownHalf

    mutating func start(apps: [String]) {
        for app in apps { intervals[app] = [] }
    }

    mutating func events(_ batch: [SimEvent]) {
        for event in batch where Self.drawn(event.kind) { events.append(event) }
    }

    /// Whether the page reads events of `kind` (the decisions table and marks, the lanes' marks
    /// and handler bars, the flame graphs' handler runs).
    static func drawn(_ kind: SimEvent.Kind) -> Bool {
        switch kind {
        case .compression, .eviction, .exit, .reclaim, .memoryWarning, .launch, .resume, .handlerStart, .handlerEnd: true
        case .transition, .callback, .decompression, .pressure, .pushDelivered, .ignored, .objectShown, .objectDismissed,
             .notificationDelivery, .swap: false
        }
    }

    mutating func jetsam(_ snapshot: JetsamEvent) {
        let index = jetsamEvents.count
        var slim = snapshot
        if index >= Self.shownHalf {
            slim.processes = []
            lastProcesses[index] = snapshot.processes
            lastProcesses[index - Self.shownHalf] = nil
        }
        jetsamEvents.append(slim)
    }

    mutating func interval(_ app: String, _ interval: StateInterval) { intervals[app, default: []].append(interval) }

    mutating func levels(_ changes: [Timeline.LevelChange]) { levelChanges += changes }

    /// `report` with the history in place of what a streamed run left out of it.
    func fill(_ report: Report) -> Report {
        var report = report
        report.events = events
        var jetsam = jetsamEvents
        for (index, processes) in lastProcesses { jetsam[index].processes = processes }
        report.jetsamEvents = jetsam
        report.stateIntervals = intervals
        // The chart's series come reduced (MemoryDigest); its pressure strip reads the levels.
        var timeline = Timeline()
        timeline.levels = levelChanges
        report.timeline = timeline
        return report
    }
}
