import MemprofCore
import MemprofOutput

/// report.json's large sections streamed as a run goes (issue 9): the events the log keeps, the
/// jetsam snapshots and the timeline's series, each JSON text in a ``SpillStream``; ``write(_:into:flush:)``
/// puts them together with the sections known at the end, byte for byte as ``ReportJSON/encode(_:)``
/// writes the same report held whole.
public struct ReportStreams {
    /// What the `events` section keeps.
    public let eventLog: EventLog
    private let spill: SpillFile?
    private var events = Section(blockSize: 1 << 20)
    private var jetsam = Section(blockSize: 256 * 1024)
    private var used = Section()
    private var compressed = Section()
    private var levels = Section(blockSize: 8 * 1024)
    /// Each app's resident bytes, by the app's index in the workload.
    private var apps: [Section]
    /// App keys in the workload's order.
    private let appKeys: [String]

    /// A JSON array's members, written one by one.
    private struct Section {
        var stream: SpillStream
        var count = 0

        init(blockSize: Int = 32 * 1024) { stream = SpillStream(blockSize: blockSize) }

        /// Counts a member; whether a comma goes before it.
        @inline(__always)
        mutating func next() -> Bool {
            count += 1
            return count > 1
        }

        func write(into out: inout JSONWriter, _ spill: SpillFile?, flush: (inout JSONWriter) throws -> Void) throws {
            out.byte(UInt8(ascii: "["))
            try flush(&out)
            try stream.write(into: &out, spill, flush: flush)
            out.byte(UInt8(ascii: "]"))
        }
    }

    /// Streams for a run of the apps `appKeys` (workload order), spilling into `spill`.
    public init(appKeys: [String], eventLog: EventLog, spill: SpillFile?) {
        self.appKeys = appKeys
        self.eventLog = eventLog
        self.spill = spill
        apps = appKeys.map { _ in Section(blockSize: 8 * 1024) }
    }

    /// An event of the run, written when the log keeps its kind.
    public mutating func event(_ event: SimEvent) throws {
        guard eventLog.keeps(event.kind) else { return }
        let comma = events.next()
        events.stream.out.write(event, comma: comma)
        try events.stream.flush(to: spill)
    }

    /// A jetsam snapshot of the run.
    public mutating func jetsamEvent(_ snapshot: JetsamSnapshot) throws {
        let comma = jetsam.next()
        jetsam.stream.out.write(snapshot, appIDs: appKeys, comma: comma)
        try jetsam.stream.flush(to: spill)
    }

    /// A timeline series.
    public enum Series {
        case used, compressed
        /// An app's resident bytes, by its index in the workload.
        case app(Int)
    }

    /// A point of a timeline series, final (no later change replaces it).
    public mutating func point(_ series: Series, _ atUs: Microseconds, _ value: Int64) throws {
        switch series {
        case .used: try Self.append(&used, atUs, value, spill)
        case .compressed: try Self.append(&compressed, atUs, value, spill)
        case .app(let i): try Self.append(&apps[i], atUs, value, spill)
        }
    }

    @inline(__always)
    private static func append(_ section: inout Section, _ atUs: Microseconds, _ value: Int64, _ spill: SpillFile?) throws {
        let comma = section.next()
        section.stream.out.pair(atUs, value, comma: comma)
        try section.stream.flush(to: spill)
    }

    /// A pressure level change, final.
    public mutating func level(_ change: Timeline.LevelChange) throws {
        let comma = levels.next()
        levels.stream.out.write(change, comma: comma)
        try levels.stream.flush(to: spill)
    }

    /// Writes report.json: `report`'s small sections, and the streamed ones in place of its
    /// `events`, `jetsamEvents` and `timeline` (which are not read).
    public func write(_ report: Report, into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        try ReportJSON.write(report, into: &out, flush: flush,
                             events: { out in try events.write(into: &out, spill, flush: flush) },
                             jetsamEvents: { out in try jetsam.write(into: &out, spill, flush: flush) },
                             timeline: { out in
                                 out.raw("{\"appBytes\":{")
                                 let order = appKeys.indices.sorted { appKeys[$0] < appKeys[$1] }
                                 for (n, i) in order.enumerated() {
                                     if n > 0 { out.byte(UInt8(ascii: ",")) }
                                     out.key(appKeys[i])
                                     try apps[i].write(into: &out, spill, flush: flush)
                                 }
                                 out.raw("},\"compressedBytes\":")
                                 try compressed.write(into: &out, spill, flush: flush)
                                 out.raw(",\"levels\":")
                                 try levels.write(into: &out, spill, flush: flush)
                                 out.raw(",\"usedBytes\":")
                                 try used.write(into: &out, spill, flush: flush)
                                 out.byte(UInt8(ascii: "}"))
                             })
    }
}
