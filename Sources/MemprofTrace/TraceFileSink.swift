import MemprofCore
import MemprofOutput
import MemprofProfile
import MemprofReport

/// trace.json of a run written as it goes: the counters, instants, state slices and handler runs
/// go into ``TraceStreams`` (spilled into the staging folder's scratch space) as the batches come.
///
/// Without sampled work, the file itself is written as the run goes: the streams' records are
/// merged round by round up to the earliest time a record still to come can have (the latest
/// call, the starts of the state intervals and handler runs still open), byte for byte the file
/// one merge at the end writes. With sampled work, the samples track is made from the head's
/// profile once the run has ended, and the file is merged then (``finish(_:)``).
public final class TraceFileSink: RunFileSink {
    public static let fileName = "trace.json"

    private var trace: TraceStreams
    private var series: TimelineSeries
    private var intervals: StateIntervals.Builder
    private var handlerRuns = StateIntervals.HandlerRuns()
    /// Every handler run by app key, kept when work is sampled (its samples track is matched to them).
    private var keptHandlerRuns: [String: [HandlerInterval]]?
    /// Workload index of an app → its index among trace.json's (sorted) apps.
    private let traceIndex: [Int]
    /// trace.json's (sorted) app keys.
    private let traceApps: [String]
    private let durationUs: Microseconds
    /// Whether the run has the in-RAM compressor, whose pool is a counter of its own.
    private let hasCompressor: Bool
    /// trace.json when it is written as the run goes, else nil.
    private let liveFile: StreamedFile?
    /// The staging folder, where trace.json is merged at the end with sampled work.
    private let folder: StagedFolder
    private var liveOut = JSONWriter(capacity: 1 << 21)
    /// trace.json written as the run went, once the run has ended.
    private var written: WrittenFile?
    /// The time of the latest call handed over: every later call is at that time or after.
    private var latestUs: Microseconds = 0
    /// The first failure to write; later writes are skipped and ``finish(_:)`` throws it.
    private var failure: (any Error)?
    /// Time spent making and writing the file's text while the run went.
    private var clock = WriterClock()

    /// trace.json of a run of `workload` into `folder`, its streams spilling into the folder's
    /// scratch space; written as the run goes unless the run's work is sampled (`sampledWork`).
    /// (`eventLog` is report.json's: the trace has every event.)
    public init(workload: Workload, eventLog: EventLog, sampledWork: Bool, folder: StagedFolder) throws {
        trace = TraceStreams(header: .init(tool: "memprof \(MemprofVersion.current)", workload: workload.name,
                                           device: workload.device.name, policy: workload.policy.name, seed: workload.seed),
                             names: Dictionary(workload.apps.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a }),
                             spill: try folder.makeSpillFile())
        let keys = workload.apps.map(\.id)
        traceIndex = keys.map { [trace] in trace.index(of: $0) ?? 0 }
        traceApps = trace.apps
        series = TimelineSeries(apps: keys.count)
        intervals = StateIntervals.Builder(apps: trace.apps, durationUs: workload.durationUs)
        durationUs = workload.durationUs
        hasCompressor = workload.policy.hasInRAMCompressor(on: workload.device)
        keptHandlerRuns = sampledWork ? [:] : nil
        self.folder = folder
        liveFile = sampledWork ? nil : try folder.stream(Self.fileName, direct: true)
    }

    /// Runs `write` unless a write failed before, keeping its failure.
    private func record(_ write: () throws -> Void) {
        guard failure == nil else { return }
        do { try write() } catch { failure = error }
    }

    /// ``record(_:)``, timed.
    private func attempt(_ write: () throws -> Void) {
        guard failure == nil else { return }
        clock.time { record(write) }
    }

    public func take(_ batch: EventBatch) {
        series.add(batch)
        attempt {
            for k in batch.events.indices where batch.kinds[k].outputs.isTraced {
                let app = batch.apps[k]
                try event(batch.events[k], app: app >= 0 ? traceIndex[app] : nil)
            }
        }
        latestUs = max(latestUs, batch.latestUs)
        drain(before: latestUs)
        guard liveFile != nil else { return }
        var limit = latestUs
        if let start = intervals.earliestOpenStart { limit = min(limit, start) }
        if let start = handlerRuns.earliestWaitingStart { limit = min(limit, start) }
        mergeLive(before: limit)
    }

    /// An event's records: its instant, the state interval or handler run it closes. Borrowed:
    /// read where the batch keeps it, not copied.
    private func event(_ event: borrowing SimEvent, app: Int?) throws {
        try trace.instant(event, app: app)
        guard let app else { return }
        if let interval = intervals.add(event, app: app) { try trace.state(app, interval) }
        handlerRuns.add(event, app: app) { app, run in handlerRun(app, run) }
    }

    private func handlerRun(_ app: Int, _ run: HandlerInterval) {
        keptHandlerRuns?[traceApps[app], default: []].append(run)
        record { try trace.handler(app, run) }
    }

    /// Writes the counters' final points.
    private func drain(before time: Microseconds) {
        attempt {
            try series.drain(before: time, app: { try trace.counter(.footprint(traceIndex[$0]), at: $1, $2) },
                             used: { try trace.counter(.used, at: $0, $1) },
                             compressed: { try trace.counter(.compressed, at: $0, $1) },
                             compressor: { if hasCompressor { try trace.counter(.pool, at: $0, $1) } },
                             levels: { try trace.pressure(at: $0, $1) })
        }
    }

    /// Merges the records dated before `limit` (all for nil) into the file written as the run goes.
    private func mergeLive(before limit: Microseconds?) {
        guard let liveFile else { return }
        attempt { try trace.merge(before: limit, into: &liveOut) { try liveFile.append(emptying: &$0) } }
    }

    public func endOfRun() {
        drain(before: .max)
        attempt {
            intervals.finishByIndex { app, interval in record { try trace.state(app, interval) } }
            handlerRuns.finishByIndex(durationUs: durationUs) { app, run in handlerRun(app, run) }
        }
        guard let liveFile else { return }
        mergeLive(before: nil)
        attempt {
            try trace.finish(into: &liveOut) { try liveFile.append(emptying: &$0) }
            try liveFile.finish()
        }
        if failure == nil { written = WrittenFile(name: Self.fileName, clock: clock, bytes: Int(liveFile.appended), streamed: true) }
    }

    /// trace.json: the file written as the run went, or, with sampled work, the file merged now
    /// with the samples track made from `head`'s profile.
    public func finish(_ head: ReportHead) throws -> WrittenFile {
        if let keptHandlerRuns { attempt { try trace.sampledWork(head.profile, handlers: keptHandlerRuns) } }
        if let failure { throw failure }
        if let written { return written }
        let file = try folder.stream(Self.fileName, direct: true)
        var clock = self.clock
        clock.add(try file.write { try trace.write(into: &$0, flush: $1) })
        return WrittenFile(name: Self.fileName, clock: clock, bytes: Int(file.appended), streamed: true)
    }
}
