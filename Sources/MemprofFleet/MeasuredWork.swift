import MemprofCore
import MemprofSampler

/// Measured work in a sweep (spec §12): each (app, handler) whose work is timed by measurement
/// (`timing: measured`), whose demand is the program's measured peak (`allocates: measured`,
/// spec §8.1), or whose work is a program (which may fail) runs its work once, unsampled and
/// within its window, before the sweep starts; every run of the sweep then takes that outcome,
/// as `run` takes the outcome of each run of the work. Nothing else runs real work.
///
/// A program that crashed or exited with a failure status is a failed handler in every run of
/// the sweep, as it is in `run` (the core decides, from the same `WorkOutcome`): the replay
/// lines of fleet.json reproduce their runs.
public struct MeasuredWork: WorkPerformer, Sendable, Equatable {
    /// `app/handler` → measured wall-clock microseconds.
    public var microseconds: [String: Int64] = [:]
    /// `app/handler` → the peak of bytes the program held, for `allocates: measured` handlers.
    public var peakBytes: [String: Bytes] = [:]
    /// `app/handler` → how its program failed (`exit status 3`, `SIGSEGV`), for those that did.
    public var failures: [String: String] = [:]

    public init(microseconds: [String: Int64] = [:], peakBytes: [String: Bytes] = [:], failures: [String: String] = [:]) {
        self.microseconds = microseconds
        self.peakBytes = peakBytes
        self.failures = failures
    }

    public var isEmpty: Bool { microseconds.isEmpty && peakBytes.isEmpty && failures.isEmpty }

    public mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64 {
        microseconds["\(app)/\(handler.rawValue)"] ?? 0
    }

    /// The one measurement, as the run would have seen it: past `wallLimitUs` it overran.
    public mutating func run(_ work: WorkSpec, app: String, handler: HandlerKind,
                             wallLimitUs: Microseconds?) -> WorkOutcome {
        let key = "\(app)/\(handler.rawValue)"
        let wall = microseconds[key] ?? 0
        let overran = wallLimitUs.map { wall > $0 } ?? false
        return WorkOutcome(wallMicroseconds: wall, peakBytes: peakBytes[key] ?? 0, overran: overran,
                           failure: overran ? nil : failures[key])
    }

    /// Measures the work of every measured handler of every cell once (the first cell that names
    /// it), stopped at its kind's window in wall time (the window ÷ the device's `cpuScale`).
    static func measure(_ plan: SweepPlan) -> MeasuredWork {
        var out = MeasuredWork()
        var performer: SampledWorkPerformer?
        for cell in plan.cells {
            let workload = cell.workload.workload
            let windows: [HandlerKind: Microseconds] = [.backgroundTask: workload.policy.backgroundTaskLimitUs,
                                                        .fetch: workload.policy.fetchWindowUs,
                                                        .push: workload.policy.pushWindowUs]
            for app in workload.apps {
                let handlers: [(HandlerKind, HandlerSpec?)] = [(.backgroundTask, app.backgroundTask?.handler),
                                                              (.fetch, app.fetch?.handler), (.push, app.push)]
                for case (let kind, let handler?) in handlers {
                    guard let work = handler.work,
                          handler.timing == .measured || handler.allocatesMeasured || work.program != nil else { continue }
                    let key = "\(app.id)/\(kind.rawValue)"
                    guard out.microseconds[key] == nil else { continue }
                    if performer == nil { performer = SampledWorkPerformer(rateHz: 0) }
                    let scale = max(workload.device.cpuScale, 1e-9)
                    let limit = windows[kind].map { Microseconds((Double($0) / scale).rounded(.up)) }
                    let outcome = performer!.run(work, app: app.id, handler: kind, wallLimitUs: limit)
                    out.microseconds[key] = outcome.wallMicroseconds
                    if handler.allocatesMeasured { out.peakBytes[key] = outcome.peakBytes }
                    if let failure = outcome.failure { out.failures[key] = failure }
                }
            }
        }
        return out
    }
}
