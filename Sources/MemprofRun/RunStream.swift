import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import MemprofCore
import MemprofHTML
import MemprofOutput
import MemprofProfile
import MemprofReport
import MemprofTrace

/// The sink of a run written as it goes: each event, jetsam snapshot and memory change
/// is turned into report.json's and trace.json's text as the engine makes it, and that text goes
/// into a ``SpillFile`` in the report's staging folder; report.html keeps what it draws.
/// trace.json itself is written as the run goes when nothing is added to it after the run (no
/// sampled work): its records are merged round by round, up to the earliest time a record still
/// to come can have (``writeLiveTrace()``), byte for byte the file one merge at the end writes.
///
/// The engine's calls come a chunk at a time (``RelayedCalls``, lent in place by the
/// ``SinkRelay``): the time spent writing each file's text is measured per chunk.
///
/// A stream makes the ``Parts`` it is given: `memprof run` has three, one for report.json, one
/// for trace.json and one for what report.html draws, each fed the engine's calls by a
/// ``SinkRelay`` on a thread of its own (the files each spilling into a scratch file of their
/// own), so the simulation and the writers share the machine's cores.
final class RunStream: RelayedSink {
    /// What a stream makes.
    struct Parts: OptionSet {
        let rawValue: Int
        /// report.json's streamed sections.
        static let report = Parts(rawValue: 1)
        /// trace.json's streams.
        static let trace = Parts(rawValue: 2)
        /// What report.html draws of the history (the memory chart, the swimlanes, the decisions).
        static let page = Parts(rawValue: 4)
        static let all: Parts = [.report, .trace, .page]
    }

    let workload: Workload
    let parts: Parts
    /// Whether the stream makes trace.json's records, report.html's digests.
    private let writesTrace: Bool, drawsPage: Bool
    private let spill: SpillFile
    private(set) var report: ReportStreams
    private(set) var trace: TraceStreams
    private var intervals: StateIntervals.Builder
    private var handlerRuns = StateIntervals.HandlerRuns()
    /// Every handler run, kept when work runs (the samples track is matched to them at the end).
    private var keptHandlerRuns: [String: [HandlerInterval]]?
    private var used = Series(), compressed = Series(), levels = Series()
    private var appSeries: [Series]
    /// Workload index of an app → its index in trace.json's (sorted) apps.
    private let traceIndex: [Int]
    /// The workload's app keys, in its order.
    private let appKeys: [String]
    /// The names of the jetsam snapshots' processes (``Workload/jetsamNames``).
    private let jetsamNames: [String]
    private var points: [(Microseconds, Int64)] = []
    /// The state intervals and handler runs a batch closed, for report.html's lanes (apps by
    /// their index in trace.json's apps).
    private var closed: [(Int, StateInterval)] = []
    private var ended: [(Int, HandlerInterval)] = []
    /// trace.json's (sorted) app keys (asked here, not of `trace`: that would copy it).
    private let traceApps: [String]
    /// trace.json's index of an app → its workload index (its lane in report.html).
    private let workloadIndex: [Int]
    /// The first failure to write; later writes are skipped and the run reports it at its end.
    private(set) var failure: (any Error)?
    /// Time spent writing report.json's and trace.json's text while the run went.
    private(set) var reportClock = WriterClock()
    private(set) var traceClock = WriterClock()
    /// What report.html shows of the history besides the chart's series and the lanes.
    private var history: HistoryDigest
    /// The memory chart's series, reduced as they come.
    private(set) var memory: MemoryDigest
    /// The swimlanes, drawn as intervals, handler runs and marks come.
    private(set) var lanes: LaneDigest
    /// trace.json when it is written as the run goes (a run without sampled work), else nil: it is
    /// then put together at the end (``writeTrace(into:flush:)``).
    private let liveTrace: StreamedFile?
    private var liveOut = JSONWriter(capacity: 1 << 21)
    /// trace.json written as the run went, once the run has ended.
    private(set) var writtenTrace: RunPipeline.WrittenFile?
    /// The time of the engine's latest call handed over: every later call is at that time or after.
    private var latestUs: Microseconds = 0

    /// - Parameter traceFile: trace.json, to write as the run goes (``Parts/trace`` only; not for
    ///   a run whose work is sampled: its samples track is made after the run).
    init(workload: Workload, eventLog: EventLog, spill: SpillFile, keepsHandlerRuns: Bool, parts: Parts = .all,
         traceFile: StreamedFile? = nil) {
        precondition(traceFile == nil || (parts == .trace && !keepsHandlerRuns))
        liveTrace = traceFile
        self.workload = workload
        self.parts = parts
        writesTrace = parts.contains(.trace)
        drawsPage = parts.contains(.page)
        self.spill = spill
        let keys = workload.apps.map(\.id)
        appKeys = keys
        jetsamNames = workload.jetsamNames
        report = ReportStreams(appKeys: keys, jetsamNames: jetsamNames, eventLog: eventLog, spill: spill)
        trace = TraceStreams(header: .init(tool: "memprof \(MemprofVersion.current)", workload: workload.name,
                                           device: workload.device.name, policy: workload.policy.name, seed: workload.seed),
                             names: Dictionary(workload.apps.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a }),
                             spill: spill)
        traceIndex = keys.map { [trace] in trace.index(of: $0) ?? 0 }
        traceApps = trace.apps
        var workloadIndex = Array(repeating: 0, count: keys.count)
        for (i, t) in traceIndex.enumerated() where t < keys.count { workloadIndex[t] = i }
        self.workloadIndex = workloadIndex
        intervals = StateIntervals.Builder(apps: trace.apps, durationUs: workload.durationUs)
        keptHandlerRuns = keepsHandlerRuns && writesTrace ? [:] : nil
        history = HistoryDigest(durationUs: workload.durationUs, keepsHandlerRuns: keepsHandlerRuns)
        appSeries = keys.map { _ in Series() }
        for i in appSeries.indices { appSeries[i].record(0, 0) }
        used.record(0, 0)
        compressed.record(0, 0)
        levels.record(0, TraceJSON.levelNumber(.normal))
        memory = MemoryDigest(apps: keys.count, durationUs: workload.durationUs, device: workload.device)
        lanes = LaneDigest(apps: keys, durationUs: workload.durationUs)
    }

    // MARK: RelayedSink

    func take(_ calls: RelayedCalls) {
        for change in calls.memory {
            memoryChanged(atUs: change.atUs, app: change.app, appBytes: change.appBytes, usedBytes: change.usedBytes,
                          compressedBytes: change.compressedBytes)
        }
        handle(calls.events, apps: calls.apps, kinds: calls.kinds, snapshots: calls.snapshots)
        // The last event's time, read in place (an event read whole would be copied).
        if let events = calls.events.baseAddress, !calls.events.isEmpty {
            latestUs = max(latestUs, events[calls.events.count - 1].atUs)
        }
        if let last = calls.memory.last { latestUs = max(latestUs, last.atUs) }
        // Every series' final points are written after every chunk: a series holds a chunk's
        // points, not more (its points stay in the cache).
        drainSeries(before: latestUs)
        if liveTrace != nil { writeLiveTrace() }
    }

    private func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes) {
        if drawsPage {
            memory.memoryChanged(atUs: atUs, app: app, appBytes: appBytes, usedBytes: usedBytes, compressedBytes: compressedBytes)
        }
        // The series are the files' (the page's chart keeps its own).
        guard parts.contains(.report) || writesTrace else { return }
        if app >= 0 { appSeries[app].record(atUs, appBytes) }
        used.record(atUs, usedBytes)
        compressed.record(atUs, compressedBytes)
    }

    // MARK: Streaming

    private func attempt(_ write: () throws -> Void) {
        guard failure == nil else { return }
        do { try write() } catch { failure = error }
    }

    /// Takes the points of `values` dated before `time` into ``points``.
    private func take(before time: Microseconds, from values: inout Series) {
        points.removeAll(keepingCapacity: true)
        values.drain(before: time) { points.append(($0, $1)) }
    }

    /// Writes every series' points dated before `time` (all for `.max`).
    private func drainSeries(before time: Microseconds) {
        drainLevels(before: time)
        guard parts.contains(.report) || writesTrace else { return }
        for i in appSeries.indices { drain(.app(i), &appSeries[i], before: time) }
        drain(.used, &used, before: time)
        drain(.compressed, &compressed, before: time)
    }

    /// Writes the final points of a series to both files.
    private func drain(_ series: ReportStreams.Series, _ values: inout Series, before time: Microseconds) {
        take(before: time, from: &values)
        guard !points.isEmpty else { return }
        guard failure == nil else { return }
        if parts.contains(.report) {
            let start = WriterClock.Instant.now
            attempt { for (t, v) in points { try report.point(series, t, v) } }
            reportClock.add(start, .now)
        }
        if parts.contains(.trace) {
            let start = WriterClock.Instant.now
            let counter: TraceStreams.Counter = switch series {
            case .used: .used
            case .compressed: .compressed
            case .app(let i): .footprint(traceIndex[i])
            }
            attempt { for (t, v) in points { try trace.counter(counter, at: t, v) } }
            traceClock.add(start, .now)
        }
    }

    private func drainLevels(before time: Microseconds) {
        take(before: time, from: &levels)
        guard !points.isEmpty else { return }
        let changes = points.map { Timeline.LevelChange(atUs: $0.0, level: Self.level($0.1)) }
        if parts.contains(.report) {
            let start = WriterClock.Instant.now
            attempt { for change in changes { try report.level(change) } }
            reportClock.add(start, .now)
        }
        if drawsPage { for change in changes { history.level(change) } }
        if writesTrace {
            let start = WriterClock.Instant.now
            attempt { for change in changes { try trace.pressure(at: change.atUs, change.level) } }
            traceClock.add(start, .now)
        }
    }

    /// A chunk's events (lent in place: a loop over a copy, or an array of them, would copy
    /// each event for each writer), with their apps' workload indexes and the jetsam snapshots
    /// taken meanwhile.
    private func handle(_ events: UnsafeBufferPointer<SimEvent>, apps batchApps: UnsafeBufferPointer<Int>,
                        kinds: UnsafeBufferPointer<SimEvent.Kind>, snapshots: [JetsamSnapshot]) {
        if !snapshots.isEmpty {
            // A chunk's snapshots were all taken before its last event: the page's history gets
            // them before the chunk's events, as when each was handed over as it was taken.
            if drawsPage { for snapshot in snapshots { history.jetsam(snapshot, appIDs: jetsamNames) } }
            if parts.contains(.report), failure == nil {
                let start = WriterClock.Instant.now
                attempt { for snapshot in snapshots { try report.jetsamEvent(snapshot) } }
                reportClock.add(start, .now)
            }
        }
        // Each loop reads only the events of the kinds it reads (`events[k]` copies the event).
        for k in events.indices where kinds[k] == .pressure {
            if case .pressure(let level, _) = events[k].payload { levels.record(events[k].atUs, TraceJSON.levelNumber(level)) }
        }
        if drawsPage {
            for k in events.indices where history.reads(kinds[k]) { history.event(events[k]) }
            for k in events.indices where batchApps[k] >= 0 && LaneDigest.reads(kinds[k]) {
                lanes.event(events[k], row: batchApps[k])
            }
        }
        guard failure == nil else { return }
        if parts.contains(.report) {
            let start = WriterClock.Instant.now
            attempt { for k in events.indices { try report.event(events[k]) } }
            reportClock.add(start, .now)
        }
        guard writesTrace || drawsPage else { return }
        let apps = batchApps
        let start = WriterClock.Instant.now
        attempt {
            for k in events.indices where Self.traces(kinds[k]) {
                // The app's index among trace.json's apps.
                try traceEvent(events[k], app: apps[k] >= 0 ? traceIndex[apps[k]] : nil)
            }
        }
        if writesTrace { traceClock.add(start, .now) }
        drawClosed()
    }

    /// Hands the state intervals and handler runs closed since the last call to report.html's
    /// lanes (after the clock of trace.json's writer, which made their records).
    private func drawClosed() {
        for (app, interval) in closed { lanes.interval(row: workloadIndex[app], interval) }
        for (app, run) in ended {
            if drawsPage { lanes.handlerRun(row: workloadIndex[app], run) }
            keptHandlerRuns?[traceApps[app], default: []].append(run)
        }
        closed.removeAll(keepingCapacity: true)
        ended.removeAll(keepingCapacity: true)
    }

    /// trace.json's records of an event: its instant, the state interval or handler run it
    /// closes (and the interval and run, for report.html's lanes). Borrowed: the event is read
    /// where the relay keeps it, not copied (a call per record with `events[k]` would copy it
    /// each time).
    private func traceEvent(_ event: borrowing SimEvent, app: Int?) throws {
        if writesTrace { try trace.instant(event, app: app) }
        guard let app else { return }
        if let interval = intervals.add(event, app: app) {
            if drawsPage { closed.append((app, interval)) }
            if writesTrace { try trace.state(app, interval) }
        }
        handlerRuns.add(event, app: app) { app, run in
            ended.append((app, run))
            if writesTrace { attempt { try trace.handler(app, run) } }
        }
    }

    /// Whether trace.json reads events of `kind`: as instants (``TraceStreams/instant(_:app:)``),
    /// state changes (`StateIntervals.Builder`) or handler runs (`StateIntervals.HandlerRuns`).
    static func traces(_ kind: SimEvent.Kind) -> Bool {
        switch kind {
        case .launch, .resume, .compression, .eviction, .exit, .memoryWarning, .pressure, .reclaim, .transition, .handlerStart,
             .handlerEnd:
            true
        case .callback, .decompression, .pushDelivered, .ignored, .objectShown, .objectDismissed, .notificationDelivery, .swap,
             .processExit:
            false
        }
    }

    /// Writes the records of trace.json no later call can precede, as the run goes (after the
    /// counters' final points, dated before the latest call: a change replaces only a point at its
    /// own time): every stream's records dated before the earliest of the latest call and the
    /// starts of the state intervals and handler runs still open (every record to come is dated
    /// then or later, so the merge round by round writes what one merge at the end would). On the
    /// 450-hour run a few megabytes of records wait at most.
    private func writeLiveTrace() {
        var limit = latestUs
        if let start = intervals.earliestOpenStart { limit = min(limit, start) }
        if let start = handlerRuns.earliestWaitingStart { limit = min(limit, start) }
        mergeLiveTrace(before: limit)
    }

    /// Merges trace.json's records dated before `limit` (all for nil) into the live file.
    private func mergeLiveTrace(before limit: Microseconds?) {
        guard let liveTrace, failure == nil else { return }
        let start = WriterClock.Instant.now
        attempt { try trace.merge(before: limit, into: &liveOut) { try liveTrace.append(emptying: &$0) } }
        traceClock.add(start, .now)
    }

    /// Writes out everything still held, at the end of the run.
    func finish() {
        drainSeries(before: .max)
        guard writesTrace || drawsPage else { return }
        let start = WriterClock.Instant.now
        intervals.finishByIndex { app, interval in
            if drawsPage { closed.append((app, interval)) }
            if writesTrace { attempt { try trace.state(app, interval) } }
        }
        handlerRuns.finishByIndex(durationUs: workload.durationUs) { app, run in
            ended.append((app, run))
            if writesTrace { attempt { try trace.handler(app, run) } }
        }
        if writesTrace { traceClock.add(start, .now) }
        drawClosed()
        finishLiveTrace()
    }

    /// Merges the last records into the live trace.json and ends it.
    private func finishLiveTrace() {
        guard let liveTrace else { return }
        mergeLiveTrace(before: nil)
        guard failure == nil else { return }
        let start = WriterClock.Instant.now
        attempt {
            try trace.finish(into: &liveOut) { try liveTrace.append(emptying: &$0) }
            try liveTrace.finish()
        }
        traceClock.add(start, .now)
        if failure == nil {
            writtenTrace = RunPipeline.WrittenFile(name: "trace.json", clock: traceClock, bytes: Int(liveTrace.appended),
                                                   streamed: true)
        }
    }

    /// Writes trace.json whole, when it was not written as the run went (after ``finish()`` and
    /// ``addSampledWork(_:)``).
    func writeTrace(into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        try trace.write(into: &out, flush: flush)
    }

    /// The level `TraceJSON.levelNumber(_:)` gives as `number`.
    private static func level(_ number: Int64) -> PressureLevel {
        PressureLevel.allCases.first { TraceJSON.levelNumber($0) == number } ?? .normal
    }

    /// The memory chart's series (once, at the end).
    func finishMemory() -> MemoryDigest.Drawn { memory.finish() }

    /// The decisions, jetsam reports, pressure strip and handler runs (once, at the end).
    func finishHistory() -> HistoryDigest.Drawn { history.finish() }

    /// The swimlanes (once, at the end).
    func finishLanes() -> LaneDigest.Drawn { lanes.finish() }

    /// Adds the samples track (after ``finish()``, once the profile is made).
    func addSampledWork(_ profile: SamplingProfile?) {
        guard let keptHandlerRuns else { return }
        let start = WriterClock.Instant.now
        attempt { try trace.sampledWork(profile, handlers: keptHandlerRuns) }
        traceClock.add(start, .now)
    }
}

/// Time a writer spent, in batches: wall time, and the thread's CPU time (which a machine busy
/// with other work does not inflate).
struct WriterClock {
    var wallNs: UInt64 = 0
    var cpuNs: UInt64 = 0

    struct Instant {
        var wall: UInt64
        var cpu: UInt64

        static var now: Instant {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Instant(wall: DispatchTime.now().uptimeNanoseconds,
                           cpu: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
        }
    }

    mutating func add(_ start: Instant, _ end: Instant) {
        wallNs += end.wall - start.wall
        cpuNs += end.cpu &- start.cpu
    }
}
