import Foundation
import MemprofCore
import MemprofOutput
import MemprofReport

/// What report.html draws of a run written as it goes, kept as the batches come: the memory
/// chart's series (``MemoryDigest``), the swimlanes (``LaneDigest``) and the decisions, jetsam
/// reports, pressure strip and flame-graph runs (``HistoryDigest``), each bounded by the page,
/// not by the run. ``finish(_:)`` draws the page once the run has ended and its head is made.
public final class PageSink: RunFileSink {
    public static let fileName = "report.html"

    private var memory: MemoryDigest
    private var lanes: LaneDigest
    private var history: HistoryDigest
    private var series: TimelineSeries
    /// Apps by workload index, which is their lane.
    private var intervals: StateIntervals.Builder
    private var handlerRuns = StateIntervals.HandlerRuns()
    private let durationUs: Microseconds
    /// The names of the jetsam snapshots' processes (``Workload/jetsamNames``).
    private let jetsamNames: [String]
    private var latestUs: Microseconds = 0
    /// The workload's app keys, in its order (the page's).
    private let orderedApps: [String]
    private let folder: StagedFolder

    /// The page of a run of `workload` into `folder`; `sampledWork`: the run samples its work
    /// (the page then places flame graphs by handler run). The page draws every event whatever
    /// `eventLog` keeps.
    public init(workload: Workload, eventLog: EventLog, sampledWork: Bool, folder: StagedFolder) {
        let keys = workload.apps.map(\.id)
        memory = MemoryDigest(apps: keys.count, durationUs: workload.durationUs, device: workload.device)
        lanes = LaneDigest(apps: keys, durationUs: workload.durationUs)
        history = HistoryDigest(durationUs: workload.durationUs, keepsHandlerRuns: sampledWork)
        series = TimelineSeries(apps: 0)
        intervals = StateIntervals.Builder(apps: keys, durationUs: workload.durationUs)
        durationUs = workload.durationUs
        jetsamNames = workload.jetsamNames
        orderedApps = keys
        self.folder = folder
    }

    public func take(_ batch: EventBatch) {
        for change in batch.memory {
            memory.memoryChanged(atUs: change.atUs, app: change.app, appBytes: change.appBytes, usedBytes: change.usedBytes,
                                 compressedBytes: change.compressedBytes, compressorBytes: change.compressorBytes)
        }
        series.addLevels(batch)
        // A batch's snapshots were all taken before its last event: the history gets them first,
        // as when each was handed over as it was taken.
        for snapshot in batch.snapshots { history.jetsam(snapshot, appIDs: jetsamNames) }
        // Each loop reads only the events of the kinds it draws (`events[k]` copies the event).
        let events = batch.events, kinds = batch.kinds, apps = batch.apps
        for k in events.indices where history.reads(kinds[k]) { history.event(events[k]) }
        for k in events.indices where apps[k] >= 0 {
            let outputs = kinds[k].outputs
            if outputs.laneMark { lanes.event(events[k], row: apps[k]) }
            if outputs.changesState, let interval = intervals.add(events[k], app: apps[k]) {
                lanes.interval(row: apps[k], interval)
            }
            if outputs.handlerRun != nil { handlerRuns.add(events[k], app: apps[k]) { lanes.handlerRun(row: $0, $1) } }
        }
        latestUs = max(latestUs, batch.latestUs)
        series.drainLevels(before: latestUs) { history.level(Timeline.LevelChange(atUs: $0, level: $1)) }
    }

    public func endOfRun() {
        series.drainLevels(before: .max) { history.level(Timeline.LevelChange(atUs: $0, level: $1)) }
        intervals.finishByIndex { lanes.interval(row: $0, $1) }
        handlerRuns.finishByIndex(durationUs: durationUs) { lanes.handlerRun(row: $0, $1) }
    }

    /// Draws report.html of the run, whose head is `head`, into the folder given at the start.
    public func finish(_ head: ReportHead) throws -> WrittenFile {
        var clock = WriterClock()
        let html = clock.time {
            HTMLReport.data(head, streamed: .init(memory: memory.finish(), lanes: lanes.finish(), history: history.finish()),
                            orderedApps: orderedApps)
        }
        try folder.write(OutputFile(name: Self.fileName, data: html))
        return WrittenFile(name: Self.fileName, clock: clock, bytes: html.count, streamed: false)
    }
}
