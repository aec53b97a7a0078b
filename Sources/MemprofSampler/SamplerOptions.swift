/// How a ``SampledWorkPerformer`` samples the work it runs.
public struct SamplerOptions: Sendable, Hashable {
    /// About 1 kHz. A prime rather than 1000 so samples do not line up with work that repeats
    /// every millisecond.
    public static let defaultRateHz: Double = 997

    /// Samples per second; 0 runs the work without sampling (`--no-sampling`). Rates up to
    /// 250 Hz use a timer on the worker's CPU time, faster ones a CLOCK_MONOTONIC timer aimed at
    /// the worker thread (CPU-time timers are capped at the kernel tick). A wall-clock timer also
    /// fires while the work sleeps or blocks, and such a sleep returns early with EINTR: work
    /// that sleeps should loop on the remaining time.
    public var rateHz: Double
    /// Samples the buffer holds between drains; when it is full, samples are counted as dropped.
    public var bufferCapacity: Int
    /// How often the calling thread drains the buffer while work runs, in seconds.
    public var drainInterval: Double
    /// Records the allocations of kernels and registered work with their stacks (on by default;
    /// programs' allocations are always recorded). See CAllocTracker.h.
    public var tracksAllocations: Bool

    public init(rateHz: Double = defaultRateHz, bufferCapacity: Int = 4096, drainInterval: Double = 0.01,
                tracksAllocations: Bool = true) {
        self.rateHz = max(0, rateHz)
        self.bufferCapacity = bufferCapacity
        self.drainInterval = drainInterval
        self.tracksAllocations = tracksAllocations
    }

    /// Runs work unsampled.
    public static let off = SamplerOptions(rateHz: 0)
}
