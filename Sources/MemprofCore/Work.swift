/// Real work a background handler asks memprof to run while the simulated handler runs (spec §8).
///
/// The core never runs work itself: it hands each request to a ``WorkPerformer`` that the caller
/// injects, so the simulation stays free of I/O and threads.
public struct WorkSpec: Sendable, Hashable, Codable {
    /// Name of a registered work kernel, for example `checksum`; empty for a program.
    public var kernel: String
    /// How much data the kernel processes, in bytes.
    public var sizeBytes: Int64
    /// The user's own program to run instead of a kernel (spec §8.1).
    public var program: ProgramSpec?

    public init(kernel: String, sizeBytes: Int64) {
        self.kernel = kernel
        self.sizeBytes = sizeBytes
    }

    public init(program: ProgramSpec) {
        self.kernel = ""
        self.sizeBytes = 0
        self.program = program
    }
}

/// `work: {command: [PATH, ARG...], env: {NAME: VALUE}, cwd: DIR}` (spec §8.1).
public struct ProgramSpec: Sendable, Hashable, Codable {
    /// The program and its arguments, as the workload wrote them.
    public var command: [String]
    /// Variables added to (or replacing in) memprof's environment, sorted by name.
    public var environment: [String: String]
    /// The directory the program starts in; nil: the directory memprof runs in.
    public var directory: String?

    public init(command: [String], environment: [String: String] = [:], directory: String? = nil) {
        self.command = command
        self.environment = environment
        self.directory = directory
    }
}

/// What running a handler's work gave (spec §8.1).
public struct WorkOutcome: Sendable, Hashable {
    /// Measured wall-clock time, in microseconds.
    public var wallMicroseconds: Int64
    /// The most bytes the work held at once (0 when not measured).
    public var peakBytes: Bytes
    /// The work was still running at its wall-clock limit and was stopped.
    public var overran: Bool
    /// The work ended by failing, after `wallMicroseconds`: a program that crashed (the signal's
    /// name, `SIGSEGV`) or exited with a status other than 0 (`exit status 3`); nil otherwise.
    public var failure: String?

    public init(wallMicroseconds: Int64, peakBytes: Bytes = 0, overran: Bool = false, failure: String? = nil) {
        self.wallMicroseconds = wallMicroseconds
        self.peakBytes = peakBytes
        self.overran = overran
        self.failure = failure
    }
}

/// How a handler with `work` gets its simulated duration.
public enum WorkTiming: String, Sendable, Hashable, Codable {
    /// The declared `time` (the default; keeps reports deterministic).
    case declared
    /// The measured time of the work on this machine × the device's `cpuScale`.
    case measured
}

/// The background handlers that may carry work.
public enum HandlerKind: String, Sendable, Hashable, Codable, CaseIterable {
    case backgroundTask
    case fetch
    case push
    /// A BGTaskScheduler app refresh task.
    case refresh
    /// A BGTaskScheduler processing task.
    case processing
}

/// Runs the work of a handler for real, outside the simulation.
public protocol WorkPerformer {
    /// Runs `work` for `handler` of `app` and returns its measured wall-clock time in microseconds.
    mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64
    /// Runs `work`, stopping it once it has run `wallLimitUs` (nil: no limit), and says what it
    /// took. The default calls ``perform(_:app:handler:)`` and measures no memory.
    mutating func run(_ work: WorkSpec, app: String, handler: HandlerKind, wallLimitUs: Microseconds?) -> WorkOutcome
    /// Says where the work that ``run(_:app:handler:wallLimitUs:)`` just ran lies in simulated
    /// time: its handler started at `startUs` and ran it for `durationUs` (the declared or
    /// measured duration, or the window when the work overran it). The default ignores it; the
    /// sampler uses it to give every sample a simulated time.
    mutating func placeLastRun(startUs: Microseconds, durationUs: Microseconds)
}

extension WorkPerformer {
    public mutating func run(_ work: WorkSpec, app: String, handler: HandlerKind,
                             wallLimitUs: Microseconds?) -> WorkOutcome {
        WorkOutcome(wallMicroseconds: perform(work, app: app, handler: handler))
    }

    public mutating func placeLastRun(startUs: Microseconds, durationUs: Microseconds) {}
}
