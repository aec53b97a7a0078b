import Foundation
import MemprofCore
import MemprofSampler
import MemprofWorkload

/// What a run is asked to do: the workload, and how its background work is sampled.
public struct RunRequest {
    /// How background handlers' real `work` runs (spec §8).
    public enum Sampling: Sendable, Equatable {
        /// Run the work and sample its stacks this many times a second.
        case rate(Double)
        /// Run the work without sampling it (`--no-sampling`).
        case unsampled

        /// The default rate (about 1 kHz, a prime so samples do not line up with periodic work).
        public static let `default` = Sampling.rate(SamplerOptions.defaultRateHz)
    }

    /// The workload, as `WorkloadSource.load(_:overrides:limits:)` (MemprofWorkload) returns it (with its text's SHA-256 and source).
    public var workload: LoadedWorkload
    /// How the workload's background `work` is run and sampled.
    public var sampling: Sampling
    /// What report.json keeps of the event log (all of it by default); report.html and trace.json
    /// are drawn from the whole log whatever it keeps.
    public var eventLog: EventLog = .all
    /// Called now and then with the simulated time reached, from the simulating thread.
    public var progress: ((Microseconds) -> Void)?
    /// Called after each file is rendered with its name, milliseconds taken and size in bytes
    /// (`memprof run --timings` prints them; `scripts/bench-html.sh` reads them).
    public var timings: ((_ file: String, _ milliseconds: Double, _ bytes: Int) -> Void)?
    /// Called with the CPU time the writer of a streamed file (report.json, trace.json) took on
    /// its thread, in milliseconds, and with the simulating thread's CPU time as `simulation`.
    public var cpuTimings: ((_ file: String, _ cpuMilliseconds: Double) -> Void)?

    /// A request to run `workload`; by default its work is sampled at the default rate and
    /// nothing is reported while it runs.
    public init(workload: LoadedWorkload, sampling: Sampling = .default,
                progress: ((Microseconds) -> Void)? = nil,
                timings: ((String, Double, Int) -> Void)? = nil) {
        self.workload = workload
        self.sampling = sampling
        self.progress = progress
        self.timings = timings
    }

    /// A performer when the workload names work to run, else nil (and nothing runs).
    func makePerformer() -> SampledWorkPerformer? {
        let hasWork = workload.workload.apps.contains { app in
            app.fetch?.handler.work != nil || app.push?.work != nil || app.backgroundTask?.handler.work != nil
        }
        guard hasWork else { return nil }
        switch sampling {
        case .rate(let hz): return SampledWorkPerformer(rateHz: hz)
        case .unsampled: return SampledWorkPerformer(rateHz: 0)
        }
    }
}
