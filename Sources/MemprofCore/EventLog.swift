/// What a report keeps of a run's event log (report.json's `events`, and so what `compare`,
/// `check` and `export` later read of it).
///
/// The summary, per-app figures, timeline, jetsam snapshots and notification center are always
/// complete, whatever the log keeps; so are the files rendered by the same run (report.html's
/// lanes and decisions, trace.json), which are drawn from the whole log before it is cut.
public enum EventLog: String, Sendable, Hashable, CaseIterable {
    /// Every event (the default).
    case all
    /// The system's memory decisions only: compressions, reads back from flash, evictions,
    /// reclaims, exits, memory warnings, pressure changes and paging out to swap.
    case decisions
    /// No events.
    case none

    /// Whether an event of `kind` is kept.
    @inline(__always)
    public func keeps(_ kind: SimEvent.Kind) -> Bool {
        switch self {
        case .all: true
        case .none: false
        case .decisions: kind.outputs.isDecision
        }
    }
}
