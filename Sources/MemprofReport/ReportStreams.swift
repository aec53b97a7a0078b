#if canImport(Glibc)
import Glibc
#endif
import MemprofCore
import MemprofOutput

/// report.json's large sections streamed as a run goes: the events the log keeps, the
/// jetsam snapshots and the timeline's series, each in a ``SpillStream``;
/// ``write(_:into:flush:)`` puts them together with the sections known at the end, byte for byte as ``ReportJSON/encode(_:)`` writes the
/// same report held whole. Events and series points are kept as JSON text; jetsam
/// snapshots as the engine's numbers (``JetsamRecord``, a quarter of their text), made text when
/// the file is written, after the run, when the writer's thread is otherwise waiting for the disk.
public struct ReportStreams {
    /// What the `events` section keeps.
    public let eventLog: EventLog
    private let spill: SpillFile?
    private var events = Section(blockSize: 1 << 20)
    private var jetsam = Section(blockSize: 256 * 1024)
    private var used = Section()
    private var compressed = Section()
    /// The in-RAM compressor's pool: written only when the report's timeline has the series.
    private var compressor = Section()
    private var levels = Section(blockSize: 8 * 1024)
    /// Each app's resident bytes, by the app's index in the workload.
    private var apps: [Section]
    /// App keys in the workload's order.
    private let appKeys: [String]
    /// The names of the jetsam snapshots' processes (``Workload/jetsamNames``).
    private let jetsamNames: [String]

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

    /// Streams for a run of the apps `appKeys` (workload order), spilling into `spill`;
    /// `jetsamNames` names the snapshots' processes (the app keys when nil: no other processes).
    public init(appKeys: [String], jetsamNames: [String]? = nil, eventLog: EventLog, spill: SpillFile?) {
        self.appKeys = appKeys
        self.jetsamNames = jetsamNames ?? appKeys
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
        _ = jetsam.next()
        jetsam.stream.out.record { JetsamRecord.write(snapshot, into: &$0) }
        try jetsam.stream.flush(to: spill)
    }

    /// A timeline series.
    public enum Series {
        case used, compressed, compressor
        /// An app's resident bytes, by its index in the workload.
        case app(Int)
    }

    /// A point of a timeline series, final (no later change replaces it).
    public mutating func point(_ series: Series, _ atUs: Microseconds, _ value: Int64) throws {
        switch series {
        case .used: try Self.append(&used, atUs, value, spill)
        case .compressed: try Self.append(&compressed, atUs, value, spill)
        case .compressor: try Self.append(&compressor, atUs, value, spill)
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

    /// The `jetsamEvents` array: the records made text.
    private func writeJetsam(into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        out.byte(UInt8(ascii: "["))
        var reader = jetsam.stream.reader(spill)
        var snapshot = JetsamSnapshot(atUs: 0, killed: 0, exitReason: .memoryPressure, largestProcess: 0, pageSize: 0,
                                      processes: [])
        var comma = false
        while let block = try reader.next() {
            try block.withUnsafeBytes { raw in
                var at = 0
                while at < raw.count {
                    guard JetsamRecord.read(raw, at: &at, into: &snapshot, apps: jetsamNames.count) else {
                        // Only a scratch file changed under the run reads so.
                        throw OutputError(path: "report.json", action: "reading back the jetsam snapshots of", errno: EIO)
                    }
                    out.write(snapshot, appIDs: jetsamNames, comma: comma)
                    comma = true
                }
            }
            if out.count >= 1 << 20 { try flush(&out) }
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// report.json without its streamed sections: the text of `report`'s small sections, and
    /// where in it the `events`, `jetsamEvents` and `timeline` arrays go; the timeline has the
    /// compressor's pool when `report`'s has it (a run with an in-RAM compressor).
    public struct Skeleton {
        let text: [UInt8]
        let events: Int, jetsam: Int, timeline: Int
        let hasCompressor: Bool

        public init(_ report: Report) throws {
            var out = JSONWriter(capacity: 1 << 16)
            var at: [Int] = []
            try ReportJSON.write(report, into: &out, flush: { _ in }, events: { at.append($0.count) },
                                 jetsamEvents: { at.append($0.count) }, timeline: { at.append($0.count) })
            text = out.bytes
            (events, jetsam, timeline) = (at[0], at[1], at[2])
            hasCompressor = report.timeline.compressorBytes != nil
        }
    }

    /// Writes report.json: the skeleton's text with the streamed sections in their places.
    public func write(_ skeleton: Skeleton, into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        func text(_ range: Range<Int>) {
            skeleton.text.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        text(0..<skeleton.events)
        try events.write(into: &out, spill, flush: flush)
        text(skeleton.events..<skeleton.jetsam)
        try writeJetsam(into: &out, flush: flush)
        text(skeleton.jetsam..<skeleton.timeline)
        out.raw("{\"appBytes\":{")
        let order = appKeys.indices.sorted { appKeys[$0] < appKeys[$1] }
        for (n, i) in order.enumerated() {
            if n > 0 { out.byte(UInt8(ascii: ",")) }
            out.key(appKeys[i])
            try apps[i].write(into: &out, spill, flush: flush)
        }
        out.raw("},\"compressedBytes\":")
        try compressed.write(into: &out, spill, flush: flush)
        if skeleton.hasCompressor {
            out.raw(",\"compressorBytes\":")
            try compressor.write(into: &out, spill, flush: flush)
        }
        out.raw(",\"levels\":")
        try levels.write(into: &out, spill, flush: flush)
        out.raw(",\"usedBytes\":")
        try used.write(into: &out, spill, flush: flush)
        out.byte(UInt8(ascii: "}"))
        text(skeleton.timeline..<skeleton.text.count)
        try flush(&out)
    }
}

/// A jetsam snapshot as report.json's stream keeps it while the run goes: its numbers, 8 bytes
/// each (little-endian): the time, the killed app, the exit reason, the largest app, the page
/// size and the number of processes, then per process its app, its priority, its resident pages
/// and its state, audio, whether it has a priority and its process kind (0 for an app) in one word;
/// then whether it has the compressor's counters (1) or not (0), and if so its pages,
/// uncompressed pages, compressions and decompressions.
enum JetsamRecord {
    private static let reasons = ExitReason.allCases
    private static let states = AppState.allCases
    private static let kinds = ProcessKind.allCases

    static func write(_ j: JetsamSnapshot, into out: inout JSONRecord) {
        out.int64Bytes(j.atUs)
        out.int64Bytes(Int64(j.killed))
        out.int64Bytes(Int64(reasons.firstIndex(of: j.exitReason)!))
        out.int64Bytes(Int64(j.largestProcess))
        out.int64Bytes(j.pageSize)
        out.int64Bytes(Int64(j.processes.count))
        for p in j.processes {
            out.int64Bytes(Int64(p.app))
            out.int64Bytes(Int64(p.priority ?? 0))
            out.int64Bytes(p.rpages)
            let kind = p.kind.map { kinds.firstIndex(of: $0)! + 1 } ?? 0
            let flags = states.firstIndex(of: p.state)! | (p.playingAudio ? 1 << 8 : 0) | (p.priority != nil ? 1 << 9 : 0)
                | kind << 10
            out.int64Bytes(Int64(flags))
        }
        if let c = j.compressor {
            out.int64Bytes(1)
            out.int64Bytes(c.pages)
            out.int64Bytes(c.uncompressedPages)
            out.int64Bytes(c.compressions)
            out.int64Bytes(c.decompressions)
        } else {
            out.int64Bytes(0)
        }
    }

    /// Reads the record at `at` into `j` (reusing its processes' storage) and moves `at` past it;
    /// false when the bytes are not such a record (a spill file changed under the run).
    static func read(_ raw: UnsafeRawBufferPointer, at: inout Int, into j: inout JetsamSnapshot, apps: Int) -> Bool {
        var position = at
        func next() -> Int64? {
            guard position + 8 <= raw.count else { return nil }
            defer { position += 8 }
            return Int64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: Int64.self))
        }
        func index(_ value: Int64?, below count: Int) -> Int? {
            guard let value, value >= 0, value < count else { return nil }
            return Int(value)
        }
        guard let atUs = next(), let killed = index(next(), below: apps), let reason = index(next(), below: reasons.count),
            let largest = index(next(), below: apps), let pageSize = next(), let count = index(next(), below: apps + 1)
        else { return false }
        j.atUs = atUs
        j.killed = killed
        j.exitReason = reasons[reason]
        j.largestProcess = largest
        j.pageSize = pageSize
        j.processes.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            guard let app = index(next(), below: apps), let priority = next(), let rpages = next(), let flags = next(),
                let state = index(flags & 0xff, below: states.count), let kind = index(flags >> 10, below: kinds.count + 1)
            else { return false }
            j.processes.append(JetsamSnapshot.Process(app: app, priority: flags & (1 << 9) != 0 ? Int(priority) : nil,
                                                      rpages: rpages, state: states[state],
                                                      playingAudio: flags & (1 << 8) != 0,
                                                      kind: kind == 0 ? nil : kinds[kind - 1]))
        }
        switch next() {
        case 0: j.compressor = nil
        case 1:
            guard let pages = next(), let uncompressed = next(), let compressions = next(), let decompressions = next()
            else { return false }
            j.compressor = JetsamEvent.Compressor(pages: pages, uncompressedPages: uncompressed, compressions: compressions,
                                                  decompressions: decompressions)
        default: return false
        }
        at = position
        return true
    }
}
