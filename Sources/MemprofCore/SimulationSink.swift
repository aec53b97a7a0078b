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
    /// `appBytes` resident, and the device `usedBytes` in use and `compressedBytes` on flash;
    /// `app` is -1 when a process that is not an app changed (only the device's figures count).
    /// Several calls at one instant may follow each other: the last holds (see ``Series``).
    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes)
}
