import MemprofCore
import MemprofReport

/// One decision of the system: a compression, a reclaim with what it evicted, the memory warnings
/// of one rise, or a kill. The report's events list an eviction as three (the eviction, the
/// app's exit and the reclaim); here they are one row.
public struct DecisionRow: Sendable, Hashable {
    public struct Taken: Sendable, Hashable {
        public var app: String
        public var bytes: Bytes
    }

    public var atUs: Microseconds
    /// What the row is, by the kind of event that makes it (``SimEvent/Kind/Outputs/decisionRow``
    /// declares the kinds and their words): a compression; an eviction (a reclaim that took one
    /// or more suspended apps to make room); a reclaim that found nothing to take; a memory
    /// warning (a rise of the pressure level, or a scripted warning, reaching one or more apps);
    /// an exit (an app killed by the system outside a reclaim: a memory limit, a watchdog...);
    /// or a kind declared later, drawn from its report.json `detail`.
    public var kind: SimEvent.Kind
    /// The app the decision was for (the demand of a reclaim) or about (a compression, a kill).
    public var app: String
    /// What the row says of why: the exit reason of a kill or eviction, the freezer's reasons for a
    /// compression it chose, the cause of memory warnings; empty otherwise.
    public var detail: String
    /// The cause of memory warnings (rows of kind `memoryWarning`).
    public var warning: MemoryWarningCause?
    /// The exit reason of a kill (rows of kind `kill`).
    public var exitReason: ExitReason?
    public var bytes: Bytes?
    public var neededBytes: Bytes?
    public var freedBytes: Bytes?
    /// Apps evicted or killed for this decision, in the order taken.
    public var taken: [Taken] = []
    /// Apps the policy considered, in order (reclaims).
    public var candidates: [SimEvent.Candidate] = []
    /// Memory warnings: the apps that freed something and how much, in delivery order.
    public var warned: [Taken] = []
    /// Memory warnings: the apps that freed nothing, folded into one mention.
    public var freedNothing: [String] = []
    /// Indices into the report's `jetsamEvents` of the kills in this decision.
    public var jetsam: [Int] = []

    /// The row's word in the table and its `kind` filter, as its kind declares it.
    public var word: String { kind.outputs.decisionRow ?? kind.rawValue }

    /// Every app this row involves (for the app filter).
    public var involved: [String] {
        var out = [app]
        var seen: Set = [app]
        for a in taken.map(\.app) + warned.map(\.app) + freedNothing where seen.insert(a).inserted { out.append(a) }
        return out
    }
}

public enum Decisions {
    /// One row per decision in `events` (in event order), kills linked to their jetsam snapshot.
    public static func rows(_ events: [SimEvent], jetsam: [JetsamEvent] = []) -> [DecisionRow] {
        var snapshots: [String: Int] = [:]
        for (index, event) in jetsam.enumerated() { snapshots["\(event.atUs)|\(event.killed)"] = index }
        var builder = DecisionRowBuilder { at, app in snapshots["\(at)|\(app)"].map { [$0] } ?? [] }
        var rows: [DecisionRow] = []
        for event in events { builder.add(event) { rows.append($0) } }
        builder.finish { rows.append($0) }
        return rows
    }

    /// Where the charts put a mark: each decision's time and kind (reclaims that took nothing have none).
    public static func marks(_ events: [SimEvent]) -> [(atUs: Microseconds, kind: SimEvent.Kind)] {
        rows(events).compactMap { $0.kind == .reclaim ? nil : ($0.atUs, $0.kind) }
    }
}

/// Builds the rows of `Decisions.rows` one event at a time, handing each row on once it is
/// complete, so a reader can turn a report's events into decisions without keeping them: it
/// holds at most the evictions of one instant and the last row (warnings of one rise merge into it).
public struct DecisionRowBuilder {
    /// The jetsam snapshots (indices into the report's `jetsamEvents`) of a kill of an app at an instant.
    let snapshot: (Microseconds, String) -> [Int]
    /// Evictions (with their exits) waiting for the reclaim at the same instant that explains them.
    var pending: [DecisionRow.Taken] = []
    var pendingAt: Microseconds = 0
    /// The last row, held until no later warning can merge into it.
    var held: DecisionRow?

    public init(snapshot: @escaping (Microseconds, String) -> [Int] = { _, _ in [] }) {
        self.snapshot = snapshot
    }

    mutating func append(_ row: DecisionRow, _ emit: (DecisionRow) -> Void) {
        if let held { emit(held) }
        held = row
    }

    mutating func flushPending(_ emit: (DecisionRow) -> Void) {
        for taken in pending {
            var row = DecisionRow(atUs: pendingAt, kind: .eviction, app: taken.app, detail: "memoryPressure")
            row.taken = [taken]
            row.freedBytes = taken.bytes
            row.jetsam = snapshot(pendingAt, taken.app)
            append(row, emit)
        }
        pending.removeAll()
    }

    /// Adds the next event of the report; `emit` receives the rows it completes, in order.
    public mutating func add(_ event: SimEvent, _ emit: (DecisionRow) -> Void) {
        if !pending.isEmpty, event.atUs != pendingAt { flushPending(emit) }
        switch event.payload {
        case .compression(let bytes, _, let freezer):
            var row = DecisionRow(atUs: event.atUs, kind: .compression, app: event.app ?? "",
                                  detail: freezer?.detail ?? "")
            row.bytes = bytes
            append(row, emit)
        case .eviction(let bytes):
            if pending.isEmpty { pendingAt = event.atUs }
            pending.append(.init(app: event.app ?? "", bytes: bytes))
        case .exit(let reason, _):
            guard reason != .userQuit else { return }
            if pendingAt == event.atUs, let k = pending.firstIndex(where: { $0.app == event.app }) {
                // The exit of an app a reclaim just evicted is part of its eviction; an idle app
                // killed by xnu-11417's idle split or its reaper, or for the compressor's space,
                // was taken by no reclaim: a kill.
                guard reason == .idleExit || reason == .longIdleExit || reason == .compressorSpaceShortage else { return }
                pending.remove(at: k)
            }
            var row = DecisionRow(atUs: event.atUs, kind: .exit, app: event.app ?? "", detail: reason.rawValue)
            row.exitReason = reason
            row.jetsam = snapshot(event.atUs, event.app ?? "")
            append(row, emit)
        case .reclaim(let r):
            var row = DecisionRow(atUs: event.atUs, kind: pending.isEmpty ? .reclaim : .eviction,
                                  app: event.app ?? "", detail: "")
            row.neededBytes = r.neededBytes
            row.freedBytes = r.freedBytes
            row.candidates = r.candidates
            row.taken = pending
            row.jetsam = pending.flatMap { snapshot(event.atUs, $0.app) }
            pending.removeAll()
            append(row, emit)
        case .memoryWarning(let cause, let freed):
            let app = event.app ?? ""
            if var last = held, last.kind == .memoryWarning, last.atUs == event.atUs, last.warning == cause {
                if freed > 0 { last.warned.append(.init(app: app, bytes: freed)) } else { last.freedNothing.append(app) }
                last.freedBytes = (last.freedBytes ?? 0) + freed
                held = last
            } else {
                var row = DecisionRow(atUs: event.atUs, kind: .memoryWarning, app: app, detail: cause.rawValue)
                row.warning = cause
                if freed > 0 { row.warned = [.init(app: app, bytes: freed)] } else { row.freedNothing = [app] }
                row.freedBytes = freed
                append(row, emit)
            }
        default:
            // Any other kind declared a row: its report.json `detail` and `bytes`.
            guard event.kind.outputs.decisionRow != nil else { return }
            let fields = event.fields
            var row = DecisionRow(atUs: event.atUs, kind: event.kind, app: event.app ?? "", detail: fields.detail ?? "")
            row.bytes = fields.bytes
            append(row, emit)
        }
    }

    /// Hands on the rows still held, once the events are over.
    public mutating func finish(_ emit: (DecisionRow) -> Void) {
        flushPending(emit)
        if let held { emit(held) }
        held = nil
    }
}
