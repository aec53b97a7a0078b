/// Real work a background handler asks memprof to run while the simulated handler runs (spec §8).
///
/// The core never runs work itself: it hands each request to a ``WorkPerformer`` that the caller
/// injects, so the simulation stays free of I/O and threads.
public struct WorkSpec: Sendable, Hashable, Codable {
    /// Name of a registered work kernel, for example `checksum`.
    public var kernel: String
    /// How much data the kernel processes, in bytes.
    public var sizeBytes: Int64

    public init(kernel: String, sizeBytes: Int64) {
        self.kernel = kernel
        self.sizeBytes = sizeBytes
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
}

/// Runs the work of a handler for real, outside the simulation.
public protocol WorkPerformer {
    /// Runs `work` for `handler` of `app` and returns its measured wall-clock time in microseconds.
    mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64
}
