import MemprofCore
import MemprofInput
import MemprofYAMLReader

/// A workload that runs, but not as its author may think: a declared time or footprint that
/// cannot fit its limit. Located like `WorkloadError`; `validate` and `run` print it and go on.
public struct WorkloadWarning: Sendable, Equatable, CustomStringConvertible {
    /// Where, and what (the same form as an error).
    public var located: WorkloadError

    public var description: String { "warning: \(located.description)" }
}

extension WorkloadParser {
    /// Releases that make no sense for the app (spec §4, README "The floor"): more than it can
    /// ever hold above its floor.
    func checkReleases(_ workload: Workload, appNodes: [NodeReader]) throws {
        let allocating = Set(workload.script.compactMap { entry -> Int? in
            if case .allocate(let i, _) = entry.action { return i }
            return nil
        })
        for (i, app) in workload.apps.enumerated() {
            // Unbounded growth or scripted allocations can take an app up to the per-app limit.
            let unbounded = (app.growth != nil && app.maxFootprint == nil) || allocating.contains(i)
            let most = unbounded ? max(app.activeLimit(on: workload.device), app.declaredPeakFootprint) : app.declaredPeakFootprint
            let floor = app.footprintFloor
            let why = unbounded ? "the per-app limit" : "its launch footprint, maxFootprint and largest handler allocation"
            if let suspended = app.suspendedFootprint, suspended > most {
                let node = appNodes[i].descendant(["averageSuspendedMemory"]) ?? appNodes[i]
                throw node.error("averageSuspendedMemory (\(Format.bytes(suspended))) is more than \(app.id) ever holds: "
                    + "at most \(Format.bytes(most)) (\(why))")
            }
            for (keys, release) in [(["onBackground", "release"], app.backgroundRelease),
                                    (["onMemoryWarning", "release"], app.memoryWarningRelease)]
            where release > most - floor {
                let node = appNodes[i].descendant(keys) ?? appNodes[i]
                throw node.error("\(Format.bytes(release)) is more than \(app.id) can ever release: it holds at most "
                    + "\(Format.bytes(most)) (\(why)) and keeps a floor of \(Format.bytes(floor)) "
                    + "(minFootprint\(app.minFootprint == nil ? "; by default the smaller of 5 MB and the launch footprint" : ""))")
            }
        }
    }

    /// One warning for every declared handler time or footprint that cannot fit its limit.
    func limitWarnings(_ workload: Workload, appNodes: [NodeReader]) -> [WorkloadWarning] {
        var warnings: [WorkloadWarning] = []
        for (i, app) in workload.apps.enumerated() {
            for fit in app.limitFits(policy: workload.policy, device: workload.device) where !fit.fits {
                var keys = fit.subject.keyPath
                if fit.subject == .footprint, let max = app.maxFootprint, max > app.launchFootprint {
                    keys = ["maxFootprint"]
                }
                // A background task the app's sessions state (sessions.background).
                if fit.subject == .backgroundTask, appNodes[i].descendant(keys) == nil,
                   let node = appNodes[i].descendant(["sessions", "background"]) {
                    warnings.append(WorkloadWarning(located: node.error(
                        "\(Format.duration(fit.declared)) in the background after a session does not fit the "
                            + "\(Format.duration(fit.limit)) background task limit: the app's task is ended at the limit and "
                            + "it is suspended, \(Format.duration(-fit.spare)) sooner each session")))
                    continue
                }
                let node = appNodes[i].descendant(keys) ?? appNodes[i]
                warnings.append(WorkloadWarning(located: node.error(Self.overLimit(fit, app))))
            }
        }
        return warnings
    }

    static func overLimit(_ fit: LimitFit, _ app: AppSpec) -> String {
        let over = -fit.spare
        switch fit.subject {
        case .footprint:
            let whose = app.increasedMemoryLimit ? "the device's per-app limit with increased-memory-limit" : "the device's per-app limit"
            return "\(app.id) declares up to \(Format.bytes(fit.declared)), over \(whose) of "
                + "\(Format.bytes(fit.limit)) by \(Format.bytes(over)): it is killed with memoryLimit when it gets there"
        case .enterBackground:
            return "\(Format.duration(fit.declared)) does not fit the \(Format.duration(fit.limit)) enter-background "
                + "limit: the app is killed with watchdog \(Format.duration(over)) before its handler returns"
        case .backgroundTask:
            let outcome = app.backgroundTask?.endsOnExpiration == true
                ? "the task is ended at the limit (endsOnExpiration)" : "the app is killed with backgroundTaskTimeout"
            return "\(Format.duration(fit.declared)) does not fit the \(Format.duration(fit.limit)) background task "
                + "limit: \(outcome), \(Format.duration(over)) before the task is done"
        case .refresh:
            return "\(Format.duration(fit.declared)) does not fit the \(Format.duration(fit.limit)) of an app refresh task: "
                + "the system expires it \(Format.duration(over)) before its handler is done"
        case .fetch, .push:
            return "\(Format.duration(fit.declared)) does not fit the \(Format.duration(fit.limit)) \(fit.subject.label) "
                + "window: in the background the app is killed with \(fit.subject.rawValue)Timeout "
                + "\(Format.duration(over)) before its handler is done"
        }
    }
}
