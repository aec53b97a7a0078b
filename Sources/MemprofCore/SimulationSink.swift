/// Where a run's history goes as the engine makes it, instead of into the ``SimulationResult``
/// (`Simulator.Options.sink`): events, jetsam snapshots and memory changes, in the order of the
/// run, so a writer can stream them out and memory does not grow with the run.
///
/// The engine calls the sink synchronously from its loop and does no I/O itself; a sink that
/// writes files does so in the run's own module. With a sink, the result's `events`,
/// `jetsamEvents`, `timeline` series and `stateIntervals` are empty: a run's state intervals are
/// its `transition` events (each carries its cause), and its series are the memory changes.
public protocol SimulationSink: AnyObject {
    /// An event, in the order of the run (handed over, not copied); `app` is the index of its
    /// app (`event.app`) in the workload's apps, nil for a device event.
    func record(_ event: consuming SimEvent, app: Int?)
    /// The jetsam snapshot of a memory kill, taken before the kill's own events.
    func record(_ snapshot: consuming JetsamSnapshot)
    /// Memory changed at `atUs`: app `app` (an index into the workload's apps) now holds
    /// `appBytes` resident, and the device `usedBytes` in use, `compressedBytes` on flash and
    /// `compressorBytes` in the in-RAM compressor's pool (0 in a run without one);
    /// `app` is -1 when a process that is not an app changed (only the device's figures count).
    /// Several calls at one instant may follow each other: the last holds (see ``Series``).
    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes,
                       compressorBytes: Bytes)
}

/// The engine's calls of a stretch of the run, as a run written as it goes hands them to each of
/// its outputs (report.json, report.html, trace.json) on a thread of its own: each kind of call
/// in the engine's order, lent in place (an event read out of it is copied: read only the events
/// of the kinds wanted). Jetsam
/// snapshots were all taken before the batch's last event, and a snapshot before the events of
/// its kill.
public struct EventBatch {
    public let events: UnsafeBufferPointer<SimEvent>
    /// The workload index of each event's app (-1: a device event).
    public let apps: UnsafeBufferPointer<Int>
    /// Each event's kind.
    public let kinds: UnsafeBufferPointer<SimEvent.Kind>
    public let snapshots: [JetsamSnapshot]
    public let memory: UnsafeBufferPointer<MemoryChange>

    public init(events: UnsafeBufferPointer<SimEvent>, apps: UnsafeBufferPointer<Int>,
                kinds: UnsafeBufferPointer<SimEvent.Kind>, snapshots: [JetsamSnapshot],
                memory: UnsafeBufferPointer<MemoryChange>) {
        self.events = events
        self.apps = apps
        self.kinds = kinds
        self.snapshots = snapshots
        self.memory = memory
    }

    /// The time of the batch's latest call: every later call is at that time or after.
    public var latestUs: Microseconds {
        var latest = memory.last?.atUs ?? 0
        // Read in place (an event read whole would be copied).
        if let base = events.baseAddress, !events.isEmpty { latest = max(latest, base[events.count - 1].atUs) }
        return latest
    }
}

/// A memory change of the engine (``SimulationSink/memoryChanged(atUs:app:appBytes:usedBytes:compressedBytes:compressorBytes:)``).
public struct MemoryChange: Sendable {
    public var atUs: Microseconds
    /// The app's index in the workload, -1 for a process that is not an app.
    public var app: Int
    public var appBytes: Bytes
    public var usedBytes: Bytes
    public var compressedBytes: Bytes
    /// The in-RAM compressor's pool (0 in a run without one).
    public var compressorBytes: Bytes

    public init(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes,
                compressorBytes: Bytes = 0) {
        self.atUs = atUs
        self.app = app
        self.appBytes = appBytes
        self.usedBytes = usedBytes
        self.compressedBytes = compressedBytes
        self.compressorBytes = compressorBytes
    }
}

/// The timeline's series a run's outputs keep as memory changes and pressure changes come: each
/// app's resident bytes, the device's used and compressed bytes, the in-RAM compressor's pool and
/// the pressure level, the last change at an instant holding (``Series``). Final points are
/// handed out once no later call can replace them (``drain(before:app:used:compressed:compressor:levels:)``).
public struct TimelineSeries {
    public private(set) var apps: [Series]
    public private(set) var used = Series(), compressed = Series(), compressor = Series(), levels = Series()

    /// Series for `apps` apps, each starting at 0 bytes, and the level at normal.
    public init(apps: Int) {
        self.apps = Array(repeating: Series(), count: apps)
        for i in self.apps.indices { self.apps[i].record(0, 0) }
        used.record(0, 0)
        compressed.record(0, 0)
        compressor.record(0, 0)
        levels.record(0, Self.levelNumber(.normal))
    }

    /// A batch's memory changes and pressure changes.
    public mutating func add(_ batch: EventBatch) {
        for change in batch.memory {
            if change.app >= 0 { apps[change.app].record(change.atUs, change.appBytes) }
            used.record(change.atUs, change.usedBytes)
            compressed.record(change.atUs, change.compressedBytes)
            compressor.record(change.atUs, change.compressorBytes)
        }
        addLevels(batch)
    }

    /// A batch's pressure changes only.
    public mutating func addLevels(_ batch: EventBatch) {
        for k in batch.events.indices where batch.kinds[k].outputs.setsPressureLevel {
            if case .pressure(let level, _) = batch.events[k].payload {
                levels.record(batch.events[k].atUs, Self.levelNumber(level))
            }
        }
    }

    /// Hands out every series' points dated before `time` (all for `.max`), which no later call
    /// replaces: each app's (by workload index), then used, compressed, the compressor's pool and
    /// the levels.
    public mutating func drain(before time: Microseconds, app: (Int, Microseconds, Int64) throws -> Void,
                               used usedPoint: (Microseconds, Int64) throws -> Void,
                               compressed compressedPoint: (Microseconds, Int64) throws -> Void,
                               compressor compressorPoint: (Microseconds, Int64) throws -> Void,
                               levels level: (Microseconds, PressureLevel) throws -> Void) rethrows {
        for i in apps.indices { try apps[i].drain(before: time) { try app(i, $0, $1) } }
        try used.drain(before: time, usedPoint)
        try compressed.drain(before: time, compressedPoint)
        try compressor.drain(before: time, compressorPoint)
        try drainLevels(before: time, level)
    }

    /// Hands out the level changes dated before `time`.
    public mutating func drainLevels(before time: Microseconds, _ level: (Microseconds, PressureLevel) throws -> Void) rethrows {
        try levels.drain(before: time) { try level($0, Self.levels[Int($1)]) }
    }

    private static let levels = PressureLevel.allCases

    private static func levelNumber(_ level: PressureLevel) -> Int64 { Int64(levels.firstIndex(of: level)!) }
}
