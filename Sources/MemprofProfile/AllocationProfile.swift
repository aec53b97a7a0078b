/// What a handler's program allocated, by stack (spec §8.1): bytes and blocks allocated, bytes
/// in use at the program's peak and the stacks that held them then, and bytes still held when it
/// ended. Over several runs of one handler, allocated and leaked bytes add up and the peak is the
/// highest run's, with that run's stacks.
public struct AllocationProfile: Sendable, Hashable, Codable {
    /// Bytes asked for from the malloc family and anonymous `mmap`, summed over runs.
    public var allocatedBytes: Int64
    /// Blocks allocated (calls that returned memory), summed over runs.
    public var allocations: Int64
    /// The most bytes in use at once, in the run where that was highest.
    public var peakBytes: Int64
    /// Bytes still in use when the program ended (leaks), summed over runs.
    public var leakedBytes: Int64
    /// Blocks still in use when the program ended, summed over runs.
    public var leakedBlocks: Int64
    /// Per stack, most bytes allocated first (ties: most at the peak, then by frame names).
    public var stacks: [AllocationStack]

    public init(allocatedBytes: Int64, allocations: Int64, peakBytes: Int64, leakedBytes: Int64,
                leakedBlocks: Int64, stacks: [AllocationStack]) {
        self.allocatedBytes = allocatedBytes
        self.allocations = allocations
        self.peakBytes = peakBytes
        self.leakedBytes = leakedBytes
        self.leakedBlocks = leakedBlocks
        self.stacks = stacks
    }
}

/// One allocation site's stack and its totals.
public struct AllocationStack: Sendable, Hashable, Codable {
    /// Indices into ``SamplingProfile/frames``, root (outermost caller) first.
    public var frames: [Int]
    public var allocatedBytes: Int64
    public var allocations: Int64
    /// Bytes this stack held at the program's peak.
    public var peakBytes: Int64
    /// Bytes and blocks this stack still held when the program ended.
    public var leakedBytes: Int64
    public var leakedBlocks: Int64

    public init(frames: [Int], allocatedBytes: Int64, allocations: Int64, peakBytes: Int64,
                leakedBytes: Int64, leakedBlocks: Int64) {
        self.frames = frames
        self.allocatedBytes = allocatedBytes
        self.allocations = allocations
        self.peakBytes = peakBytes
        self.leakedBytes = leakedBytes
        self.leakedBlocks = leakedBlocks
    }
}

/// How a handler's program ended (spec §8.1), over its runs.
public struct ProgramSummary: Sendable, Hashable, Codable {
    /// The command as the workload wrote it.
    public var command: [String]
    /// The last run's exit status, when it exited.
    public var exitStatus: Int?
    /// The last run's ending signal (`SIGSEGV`, ...), when a signal ended it.
    public var signal: String?
    /// Runs that exited with a status other than 0.
    public var failedRuns: Int
    /// Runs a signal ended that memprof did not send (crashes).
    public var crashedRuns: Int
    /// Runs still going at the end of their window, killed by memprof.
    public var timedOutRuns: Int
    /// The end of the last non-empty standard error (at most 4 KiB).
    public var stderrTail: String
    /// Events of the channel lost (the program died while writing one, or a table was full).
    public var lostEvents: Int
    /// Whether memprof's recorder ran in the program (false: nothing was recorded).
    public var recorderStarted: Bool

    public init(command: [String], exitStatus: Int?, signal: String?, failedRuns: Int, crashedRuns: Int,
                timedOutRuns: Int, stderrTail: String, lostEvents: Int, recorderStarted: Bool) {
        self.command = command
        self.exitStatus = exitStatus
        self.signal = signal
        self.failedRuns = failedRuns
        self.crashedRuns = crashedRuns
        self.timedOutRuns = timedOutRuns
        self.stderrTail = stderrTail
        self.lostEvents = lostEvents
        self.recorderStarted = recorderStarted
    }
}

extension SamplingProfile {
    /// Allocation stacks of one (app, handler), given by their frames (root first).
    public struct AllocationInput: Sendable {
        /// The handler's totals (its `stacks` are not read: they come from ``stacks``).
        public var totals: AllocationProfile
        public var stacks: [(frames: [Frame], totals: AllocationStack)]

        public init(totals: AllocationProfile, stacks: [(frames: [Frame], totals: AllocationStack)]) {
            self.totals = totals
            self.stacks = stacks
        }
    }

    /// The frames of an allocation stack, root first.
    public func frames(of stack: AllocationStack) -> [Frame] {
        stack.frames.map { frames[$0] }
    }
}

/// The values an allocation profile has per stack, each a flame graph, folded file and pprof
/// sample type of its own.
public enum AllocationMetric: String, CaseIterable, Sendable {
    /// Bytes allocated (pprof `alloc_space`).
    case allocatedBytes
    /// Blocks allocated (pprof `alloc_objects`).
    case allocations
    /// Bytes in use at the program's peak (pprof `peak_space`).
    case peakBytes
    /// Bytes still in use when the program ended (pprof `inuse_space`, as Go's heap profiles
    /// count what is held when the profile is taken).
    case leakedBytes

    public func value(of stack: AllocationStack) -> Int64 {
        switch self {
        case .allocatedBytes: stack.allocatedBytes
        case .allocations: stack.allocations
        case .peakBytes: stack.peakBytes
        case .leakedBytes: stack.leakedBytes
        }
    }

    /// pprof's sample type and unit.
    public var pprofType: (type: String, unit: String) {
        switch self {
        case .allocatedBytes: ("alloc_space", "bytes")
        case .allocations: ("alloc_objects", "count")
        case .peakBytes: ("peak_space", "bytes")
        case .leakedBytes: ("inuse_space", "bytes")
        }
    }

    /// The name of its folded-stacks file in a report folder.
    public var foldedFileName: String {
        switch self {
        case .allocatedBytes: "allocated-bytes.folded"
        case .allocations: "allocations.folded"
        case .peakBytes: "peak-bytes.folded"
        case .leakedBytes: "leaked-bytes.folded"
        }
    }

    /// Words for titles: "allocated bytes", "bytes in use at the peak", ...
    public var title: String {
        switch self {
        case .allocatedBytes: "allocated bytes"
        case .allocations: "allocations"
        case .peakBytes: "bytes in use at the peak"
        case .leakedBytes: "bytes held at exit"
        }
    }

    public var unitIsBytes: Bool { self != .allocations }
}
