import MemprofCore

// Terse builders and queries for engine tests.
//
// The default test device has 200 MB of RAM with 100 MB reserved, so apps share exactly
// `appMemory` = 100 MB: the warning level starts at 80 MB and the critical level at 95 MB
// (0.80 and 0.95 × 100 MB, rounded up to whole bytes, which are already whole here).

// Unit names, written as units are.
// swift-format-ignore: AlwaysUseLowerCamelCase
let KB: Bytes = .kilobyte
// swift-format-ignore: AlwaysUseLowerCamelCase
let MB: Bytes = .megabyte
let ms: Microseconds = 1_000
let sec: Microseconds = .second
let mins: Microseconds = .minute

/// A small iOS device: `appMemory` for the apps, 16 KB pages.
func testDevice(appMemory: Bytes = 100 * MB, appLimit: Bytes? = nil, flash: Bytes = 64 * MB,
                flashReadRate: Bytes = 100 * MB) -> Device {
    Device(name: "test-phone", platform: .ios, ram: appMemory + 100 * MB, systemReserved: 100 * MB,
           appLimit: appLimit ?? appMemory, flash: flash, flashReadRate: flashReadRate,
           pageSize: 16 * KB, cpuScale: 1)
}

/// An app with the defaults of spec §1 (launch 1 s, resume 200 ms, nothing released or run).
/// 20 MB by default, which is over the 16 MB compression threshold, so it stays in RAM when
/// suspended unless a test asks for a smaller one.
func makeApp(_ id: String, footprint: Bytes = 20 * MB, launch: Microseconds = sec,
             resume: Microseconds = 200 * ms, backgroundRelease: Bytes = 0,
             backgroundHandler: Microseconds = 0, warningRelease: Bytes = 0,
             modes: Set<AppMode> = [], fetch: FetchSpec? = nil, push: HandlerSpec? = nil,
             task: BackgroundTaskSpec? = nil, voip: VoIPSpec? = nil,
             growth: Rate? = nil, maxFootprint: Bytes? = nil) -> AppSpec {
    AppSpec(id: id, launchFootprint: footprint, launchTimeUs: launch, resumeTimeUs: resume,
            growth: growth, maxFootprint: maxFootprint, backgroundRelease: backgroundRelease,
            backgroundHandlerTimeUs: backgroundHandler, memoryWarningRelease: warningRelease,
            modes: modes, fetch: fetch, push: push, backgroundTask: task, voip: voip)
}

/// A workload whose script names apps by id: `(at, action)` where the action uses `app("x")`.
func makeWorkload(_ apps: [AppSpec], duration: Microseconds = 60 * sec, device: Device = testDevice(),
                  policy: PolicySettings = .seed2015, seed: UInt64 = 0, generate: GenerateSpec? = nil,
                  _ script: [(Microseconds, ScriptAction)] = []) -> Workload {
    Workload(name: "test", seed: seed, durationUs: duration, device: device, policy: policy, apps: apps,
             script: script.map { ScriptEntry(atUs: $0.0, action: $0.1) }, generate: generate)
}

/// Runs a workload with invariant checks on.
func simulate(_ workload: Workload) -> SimulationResult {
    var simulator = Simulator(workload: workload, options: .init(checksInvariants: true))
    return simulator.run()
}

extension PolicySettings {
    static func seed2015(_ change: (inout PolicySettings) -> Void) -> PolicySettings {
        var p = PolicySettings.seed2015
        change(&p)
        return p
    }
}

extension SimulationResult {
    func index(_ app: String) -> Int { workload.appIndex(app)! }

    func stats(_ app: String) -> AppStats { apps[index(app)] }

    func events(_ app: String, _ kind: SimEvent.Kind? = nil) -> [SimEvent] {
        events.filter { $0.app == app && (kind == nil || $0.kind == kind) }
    }

    /// Transitions of an app as `"atUs from>to"`.
    func transitions(_ app: String) -> [String] {
        events.compactMap {
            guard $0.app == app, case .transition(let from, let to, _) = $0.payload else { return nil }
            return "\($0.atUs) \(from.rawValue)>\(to.rawValue)"
        }
    }

    /// Callbacks of an app as `"atUs callbackName"`.
    func callbacks(_ app: String) -> [String] {
        events.compactMap {
            guard $0.app == app, case .callback(let callback, _) = $0.payload else { return nil }
            return "\($0.atUs) \(callback.rawValue)"
        }
    }

    /// Exits of an app as `"atUs reason"`.
    func exits(_ app: String) -> [String] {
        events.compactMap {
            guard $0.app == app, case .exit(let reason, _) = $0.payload else { return nil }
            return "\($0.atUs) \(reason.rawValue)"
        }
    }

    /// Handler starts and ends of an app as `"atUs start|end handler[ detail]"`.
    func handlers(_ app: String) -> [String] {
        events.compactMap {
            guard $0.app == app else { return nil }
            switch $0.payload {
            case .handlerStart(let activity, _, _): return "\($0.atUs) start \(activity.rawValue)"
            case .handlerEnd(let activity, let outcome): return "\($0.atUs) end \(activity.rawValue) \(outcome.detail)"
            default: return nil
            }
        }
    }

    /// The state an app is in at `t`, after everything at `t` has happened.
    func state(_ app: String, at t: Microseconds) -> AppState {
        for event in events(app, .transition).reversed() where event.atUs <= t {
            if case .transition(_, let to, _) = event.payload { return to }
        }
        return .notRunning
    }

    /// The state an app ends the run in.
    func finalState(_ app: String) -> AppState {
        state(app, at: workload.durationUs)
    }

    func timeIn(_ app: String, _ state: AppState) -> Microseconds {
        stats(app).timeInStateUs[state.rawValue] ?? -1
    }

    func exitCount(_ app: String, _ reason: ExitReason) -> Int {
        stats(app).exits[reason.rawValue] ?? -1
    }

    func terminations(_ reason: ExitReason) -> Int {
        summary.terminations[reason.rawValue] ?? -1
    }

    /// Resident bytes of an app over time, as `[atUs, bytes]` change points.
    func appBytes(_ app: String) -> [[Int64]] { timeline.appBytes[app] ?? [] }

    var reclaims: [SimEvent] { events.filter { $0.kind == .reclaim } }
}
