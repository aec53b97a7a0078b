import MemprofCore
import MemprofProfile

/// Runs background handlers' work for real on a worker thread of memprof, samples its stack,
/// and afterwards hands over a `SamplingProfile` (spec §8).
///
/// ```swift
/// var performer = SampledWorkPerformer(options: SamplerOptions(rateHz: 997))
/// let micros = performer.perform(WorkSpec(kernel: "checksum", sizeBytes: 64 << 20),
///                                app: "Mail", handler: .fetch)
/// let profile = performer.makeProfile()
/// try profile.makeFoldedStacks().write(to: folder.appending(path: "stacks.folded"), ...)
/// ```
///
/// Copies of a performer share one worker thread and one record of what ran.
public struct SampledWorkPerformer: WorkPerformer {
    private let session: SamplingSession

    public init(options: SamplerOptions = SamplerOptions()) {
        session = SamplingSession(options: options)
    }

    /// Samples at `rateHz`; 0 runs work unsampled.
    public init(rateHz: Double) {
        self.init(options: SamplerOptions(rateHz: rateHz))
    }

    public var options: SamplerOptions { session.options }

    /// Runs `work` for `handler` of `app` on the worker thread, sampled unless sampling is off,
    /// and returns its measured wall-clock time in microseconds. Work naming an unregistered
    /// kernel does not run: it returns 0 and the profile's notes say so.
    public mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64 {
        run(work, app: app, handler: handler, wallLimitUs: nil).wallMicroseconds
    }

    /// Runs `work` as ``perform(_:app:handler:)`` does; a program (spec §8.1) runs in its own
    /// process with memprof's recorder preloaded, is killed once it has run `wallLimitUs`, and
    /// its measured peak in use is returned with its time.
    public mutating func run(_ work: WorkSpec, app: String, handler: HandlerKind,
                             wallLimitUs: Microseconds?) -> WorkOutcome {
        if let program = work.program {
            return session.perform(program: program, app: app, handler: handler.rawValue, wallLimitUs: wallLimitUs)
        }
        return WorkOutcome(wallMicroseconds: session.perform(
            kernel: work.kernel, sizeBytes: work.sizeBytes, app: app, handler: handler.rawValue))
    }

    /// Places the last work's samples in simulated time: a sample taken at fraction `f` of the
    /// work's wall time lies at `startUs + f × durationUs` (see `SampleTime`).
    public mutating func placeLastRun(startUs: Microseconds, durationUs: Microseconds) {
        session.placeLastRun(startUs: startUs, durationUs: durationUs)
    }

    /// The same, for a handler named by a plain string.
    @discardableResult
    public func perform(kernel: String, sizeBytes: Int64, app: String, handler: String) -> Int64 {
        session.perform(kernel: kernel, sizeBytes: sizeBytes, app: app, handler: handler)
    }

    /// Symbolicates what was sampled so far and returns it as a profile.
    public func makeProfile() -> SamplingProfile {
        session.makeProfile()
    }
}
