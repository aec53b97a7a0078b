import MemprofCore
import MemprofSampler

/// `timing: measured` in a sweep (spec §12): each (app, handler) whose work is timed by
/// measurement runs its work once, unsampled, before the sweep starts; every run of the sweep
/// then takes that measurement. Nothing else runs real work.
public struct MeasuredWork: WorkPerformer, Sendable, Equatable {
    /// `app/handler` → measured wall-clock microseconds.
    public var microseconds: [String: Int64] = [:]

    public var isEmpty: Bool { microseconds.isEmpty }

    public mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64 {
        microseconds["\(app)/\(handler.rawValue)"] ?? 0
    }

    /// Measures the work of every measured handler of every cell once (the first cell that names it).
    static func measure(_ plan: SweepPlan) -> MeasuredWork {
        var out = MeasuredWork()
        var performer: SampledWorkPerformer?
        for cell in plan.cells {
            for app in cell.workload.workload.apps {
                let handlers: [(HandlerKind, HandlerSpec?)] = [(.backgroundTask, app.backgroundTask?.handler),
                                                              (.fetch, app.fetch?.handler), (.push, app.push)]
                for case (let kind, let handler?) in handlers {
                    guard handler.timing == .measured, let work = handler.work else { continue }
                    let key = "\(app.id)/\(kind.rawValue)"
                    guard out.microseconds[key] == nil else { continue }
                    if performer == nil { performer = SampledWorkPerformer(rateHz: 0) }
                    out.microseconds[key] = performer!.perform(work, app: app.id, handler: kind)
                }
            }
        }
        return out
    }
}
