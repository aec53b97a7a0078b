import MemprofCore
import MemprofHTML
import MemprofReport

/// What report.html is drawn from besides the memory chart's series (``MemoryDigest``) and the
/// swimlanes (``LaneDigest``), kept while a streamed run goes (``RunStream``), no more than the
/// page reads of it: the decisions' events (compressions, evictions, exits, reclaims, warnings;
/// handler starts too when work runs, for the flame graphs), the pressure levels, and the jetsam
/// snapshots, whose processes only for the kills the page shows.
struct HTMLHistory {
    private var events: [SimEvent] = []
    private var jetsamEvents: [JetsamEvent] = []
    /// The processes of the last snapshots, by index, while they may be among the last shown.
    private var lastProcesses: [Int: [JetsamEvent.Process]] = [:]
    /// Whether handler starts are kept (the flame graphs place work runs with them).
    var keepsHandlerStarts = false
    private var levelChanges: [Timeline.LevelChange] = []

    /// Snapshots shown first and last (``HTMLReport/jetsamLimit``'s halves).
    private static let shownHalf = HTMLReport.jetsamShownHalf

    mutating func events(_ batch: [SimEvent]) {
        for event in batch where drawn(event.kind) { events.append(event) }
    }

    /// Whether the page reads events of `kind` besides the lanes (the decisions table and marks,
    /// the flame graphs' handler runs).
    func drawn(_ kind: SimEvent.Kind) -> Bool {
        switch kind {
        case .compression, .eviction, .exit, .reclaim, .memoryWarning: true
        case .handlerStart: keepsHandlerStarts
        case .transition, .callback, .decompression, .pressure, .pushDelivered, .ignored, .objectShown, .objectDismissed,
             .notificationDelivery, .swap, .launch, .resume, .handlerEnd: false
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

    mutating func levels(_ changes: [Timeline.LevelChange]) { levelChanges += changes }

    /// `report` with the history in place of what a streamed run left out of it.
    func fill(_ report: Report) -> Report {
        var report = report
        report.events = events
        var jetsam = jetsamEvents
        for (index, processes) in lastProcesses { jetsam[index].processes = processes }
        report.jetsamEvents = jetsam
        report.stateIntervals = [:]
        // The chart's series come reduced (MemoryDigest); its pressure strip reads the levels.
        var timeline = Timeline()
        timeline.levels = levelChanges
        report.timeline = timeline
        return report
    }
}
