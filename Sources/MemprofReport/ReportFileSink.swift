import Foundation
import MemprofCore
import MemprofOutput
import MemprofPlatform

/// report.json of a run written as it goes: the events its log keeps, the jetsam snapshots and
/// the timeline's series go, as the batches come, each into a ``SpillStream`` spilling into the
/// staging folder's scratch space; once the run has ended and its ``ReportHead`` is made,
/// ``finish(_:)`` puts the file together around them, byte for byte what
/// ``ReportJSON/encode(_:)`` writes of the same report held whole.
///
/// Events and series points are kept as JSON text; jetsam snapshots as the engine's numbers
/// (``JetsamRecord``, a quarter of their text), made text when the file is written, after the
/// run, when the writer's thread is otherwise waiting for the disk.
public final class ReportFileSink: RunFileSink {
    public static let fileName = "report.json"

    /// What the `events` section keeps.
    private let eventLog: EventLog
    private let folder: StagedFolder
    private let spill: SpillFile
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
    private var series: TimelineSeries
    /// The first failure to write; later writes are skipped and ``finish(_:)`` throws it.
    private var failure: (any Error)?
    /// Time spent making the file's text while the run went.
    private var clock = WriterClock()

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

        /// Appends a point of a timeline series.
        @inline(__always)
        mutating func point(_ atUs: Microseconds, _ value: Int64, _ spill: SpillFile) throws {
            let comma = next()
            stream.out.pair(atUs, value, comma: comma)
            try stream.flush(to: spill)
        }

        func write(into out: inout JSONWriter, _ spill: SpillFile, flush: (inout JSONWriter) throws -> Void) throws {
            out.byte(UInt8(ascii: "["))
            try flush(&out)
            try stream.write(into: &out, spill, flush: flush)
            out.byte(UInt8(ascii: "]"))
        }
    }

    /// report.json of a run of `workload` into `folder`, keeping what `eventLog` keeps of the
    /// events, its streams spilling into the folder's scratch space.
    public init(workload: Workload, eventLog: EventLog, sampledWork: Bool, folder: StagedFolder) throws {
        appKeys = workload.apps.map(\.id)
        jetsamNames = workload.jetsamNames
        self.eventLog = eventLog
        self.folder = folder
        spill = try folder.makeSpillFile()
        apps = appKeys.map { _ in Section(blockSize: 8 * 1024) }
        series = TimelineSeries(apps: appKeys.count)
    }

    private func attempt(_ write: () throws -> Void) {
        guard failure == nil else { return }
        clock.time {
            do { try write() } catch { failure = error }
        }
    }

    public func take(_ batch: EventBatch) {
        series.add(batch)
        attempt {
            for snapshot in batch.snapshots {
                _ = jetsam.next()
                jetsam.stream.out.record { JetsamRecord.write(snapshot, into: &$0) }
                try jetsam.stream.flush(to: spill)
            }
            for k in batch.events.indices where eventLog.keeps(batch.kinds[k]) {
                let comma = events.next()
                events.stream.out.write(batch.events[k], comma: comma)
                try events.stream.flush(to: spill)
            }
        }
        drain(before: batch.latestUs)
    }

    public func endOfRun() { drain(before: .max) }

    /// Writes the timeline's final points (every series holds a batch's points, not more).
    private func drain(before time: Microseconds) {
        attempt {
            try series.drain(before: time, app: { try apps[$0].point($1, $2, spill) },
                             used: { try used.point($0, $1, spill) },
                             compressed: { try compressed.point($0, $1, spill) },
                             compressor: { try compressor.point($0, $1, spill) },
                             levels: { atUs, level in
                                 let comma = levels.next()
                                 levels.stream.out.write(Timeline.LevelChange(atUs: atUs, level: level), comma: comma)
                                 try levels.stream.flush(to: spill)
                             })
        }
    }

    /// Writes report.json once the run has ended: the texts ``ReportJSON/parts(of:)`` makes of
    /// `head`, and the streamed sections in their places.
    public func finish(_ head: ReportHead) throws -> WrittenFile {
        if let failure { throw failure }
        var clock = self.clock
        let file = try folder.stream(Self.fileName, direct: true)
        clock.add(try file.write { out, flush in
            for part in try ReportJSON.parts(of: head) {
                switch part {
                case .text(let text): out.raw(text)
                case .events:
                    try flush(&out)
                    try events.write(into: &out, spill, flush: flush)
                case .jetsamEvents:
                    try flush(&out)
                    try writeJetsam(into: &out, flush: flush)
                case .timeline:
                    try flush(&out)
                    // The compressor's pool has a series in a run that has its summary.
                    try writeTimeline(into: &out, compressor: head.summary.compressor != nil, flush: flush)
                }
            }
            try flush(&out)
        })
        return WrittenFile(name: Self.fileName, clock: clock, bytes: Int(file.appended), streamed: true)
    }

    /// The `jetsamEvents` array: the records made text.
    private func writeJetsam(into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        out.byte(UInt8(ascii: "["))
        var snapshot = JetsamSnapshot(atUs: 0, killed: 0, exitReason: .memoryPressure, largestProcess: 0, pageSize: 0,
                                      processes: [])
        var comma = false
        // Blocks hold whole records (the stream is flushed after each).
        try jetsam.stream.forEachBlock(spill) { raw in
            var at = 0
            while at < raw.count {
                guard JetsamRecord.read(raw, at: &at, into: &snapshot, apps: jetsamNames.count) else {
                    // Only a scratch file changed under the run reads so.
                    throw OutputError(path: "report.json", action: "reading back the jetsam snapshots of", errno: EIO)
                }
                out.write(snapshot, appIDs: jetsamNames, comma: comma)
                comma = true
            }
            if out.count >= 1 << 20 { try flush(&out) }
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// The `timeline` object: the apps' series by key, then the device's (the compressor's pool
    /// with `compressor`: a run with an in-RAM compressor).
    private func writeTimeline(into out: inout JSONWriter, compressor hasCompressor: Bool,
                               flush: (inout JSONWriter) throws -> Void) throws {
        out.raw("{\"appBytes\":{")
        let order = appKeys.indices.sorted { appKeys[$0] < appKeys[$1] }
        for (n, i) in order.enumerated() {
            if n > 0 { out.byte(UInt8(ascii: ",")) }
            out.key(appKeys[i])
            try apps[i].write(into: &out, spill, flush: flush)
        }
        out.raw("},\"compressedBytes\":")
        try compressed.write(into: &out, spill, flush: flush)
        if hasCompressor {
            out.raw(",\"compressorBytes\":")
            try compressor.write(into: &out, spill, flush: flush)
        }
        out.raw(",\"levels\":")
        try levels.write(into: &out, spill, flush: flush)
        out.raw(",\"usedBytes\":")
        try used.write(into: &out, spill, flush: flush)
        out.byte(UInt8(ascii: "}"))
    }
}
