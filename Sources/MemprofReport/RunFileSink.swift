import MemprofCore
import MemprofOutput

/// One file of a run written as it goes (report.json, report.html, trace.json), from the run's
/// first batch to the file in the staging folder.
///
/// The run's pipeline makes one sink per format the same way, with the staging folder given once,
/// here; lends each the engine's calls in batches (``take(_:)``), on a thread of its own, until
/// ``endOfRun()``; and, once the run has ended and its ``ReportHead`` is made, asks each for its
/// file with ``finish(_:)``, side by side. Everything a file holds comes either from the batches or from
/// the head: a sink never sees a ``Report``.
public protocol RunFileSink: AnyObject, SendableMetatype {
    /// The file's name in the report folder.
    static var fileName: String { get }

    /// The sink of a run of `workload` whose file goes into `folder` (its scratch space too).
    /// `eventLog`: what report.json keeps of the events; `sampledWork`: whether the run samples
    /// its background work (the profile then comes with the head).
    init(workload: Workload, eventLog: EventLog, sampledWork: Bool, folder: StagedFolder) throws

    /// The next batch of the run, lent for the time of the call.
    func take(_ batch: EventBatch)

    /// The run has ended: no batch follows.
    func endOfRun()

    /// Puts the file together in the folder given at the start once the run has ended: what
    /// only the end knows is in `head`. Called once, after ``RunFileSink/endOfRun()``.
    /// - Throws: the first failure to write, while the run went or now.
    func finish(_ head: ReportHead) throws -> WrittenFile
}
