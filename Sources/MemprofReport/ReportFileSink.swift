import Foundation
import MemprofCore
import MemprofOutput

/// report.json of a run written as it goes: the events its log keeps, the jetsam snapshots and
/// the timeline's series go into ``ReportStreams`` (spilled into the staging folder's scratch
/// space) as the batches come; once the run has ended and its ``Report`` is made,
/// ``write(_:into:)`` puts the file together around them, byte for byte what
/// ``ReportJSON/encode(_:)`` writes of the same report held whole.
public final class ReportFileSink: EventBatchSink {
    private var streams: ReportStreams
    private var series: TimelineSeries
    /// The first failure to write; later writes are skipped and ``write(_:into:)`` throws it.
    private var failure: (any Error)?
    /// Time spent making the file's text while the run went.
    private var clock = WriterClock()

    /// report.json of a run of `workload` into `folder`, keeping what `eventLog` keeps of the
    /// events, its streams spilling into the folder's scratch space.
    public init(workload: Workload, eventLog: EventLog, folder: StagedFolder) throws {
        let keys = workload.apps.map(\.id)
        streams = ReportStreams(appKeys: keys, jetsamNames: workload.jetsamNames, eventLog: eventLog,
                                spill: try folder.makeSpillFile())
        series = TimelineSeries(apps: keys.count)
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
            for snapshot in batch.snapshots { try streams.jetsamEvent(snapshot) }
            for k in batch.events.indices where streams.eventLog.keeps(batch.kinds[k]) { try streams.event(batch.events[k]) }
        }
        drain(before: batch.latestUs)
    }

    public func endOfRun() { drain(before: .max) }

    /// Writes the timeline's final points (every series holds a batch's points, not more).
    private func drain(before time: Microseconds) {
        attempt {
            try series.drain(before: time, app: { try streams.point(.app($0), $1, $2) },
                             used: { try streams.point(.used, $0, $1) },
                             compressed: { try streams.point(.compressed, $0, $1) },
                             compressor: { try streams.point(.compressor, $0, $1) },
                             levels: { try streams.level(Timeline.LevelChange(atUs: $0, level: $1)) })
        }
    }

    /// Writes report.json into `folder` once the run has ended: `report`'s sections known at the
    /// end around the streamed ones.
    public func write(_ report: Report, into folder: StagedFolder) throws -> WrittenFile {
        if let failure { throw failure }
        var clock = self.clock
        let skeleton = try clock.time { try ReportStreams.Skeleton(report) }
        let file = try folder.stream("report.json", direct: true)
        clock.add(try file.write { try streams.write(skeleton, into: &$0, flush: $1) })
        return WrittenFile(name: "report.json", clock: clock, bytes: Int(file.appended), streamed: true)
    }
}
