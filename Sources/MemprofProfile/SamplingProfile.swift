/// What the stack sampler saw while real work ran for background handlers (spec §8).
///
/// The value is plain data with no tie to the sampler, so `memprof export` can turn a report's
/// `profile` back into folded stacks or a speedscope file without running anything again.
/// Everything in it is kept in one canonical order (see ``SamplingProfile/init(sampler:handlers:notes:)``),
/// so encoding the same profile twice gives the same bytes.
public struct SamplingProfile: Sendable, Hashable, Codable {
    /// Version of this layout; readers refuse versions they do not know.
    public static let formatVersion = 1

    public var formatVersion: Int
    /// How the sampler ran: rate asked and achieved, samples, drops, overhead.
    public var sampler: SamplerSummary
    /// Every frame that appears in a stack, referenced by index from ``Stack/frames``.
    public var frames: [Frame]
    /// One entry per (app, handler), sorted by app then handler.
    public var handlers: [HandlerProfile]
    /// Plain sentences about the run a reader should know, e.g. that no samples were collected.
    public var notes: [String]
    /// Every time work ran, in the order it ran (the simulation's order), with its own samples:
    /// what places sampled work on a timeline.
    public var runs: [WorkRun]

    /// Total samples over all handlers.
    public var sampleCount: Int { handlers.reduce(0) { $0 + $1.samples } }

    /// Whether any stack was recorded (a report writes stack files only then).
    public var hasSamples: Bool { handlers.contains { !$0.stacks.isEmpty } }

    /// Whether any handler's allocations were tracked.
    public var hasAllocations: Bool { handlers.contains { $0.allocations != nil } }

    enum CodingKeys: String, CodingKey {
        case formatVersion, sampler, frames, handlers, notes, runs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard version <= Self.formatVersion else { throw UnsupportedProfileVersion(found: version) }
        self.formatVersion = version
        self.sampler = try container.decode(SamplerSummary.self, forKey: .sampler)
        self.frames = try container.decode([Frame].self, forKey: .frames)
        self.handlers = try container.decode([HandlerProfile].self, forKey: .handlers)
        self.notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
        self.runs = try container.decodeIfPresent([WorkRun].self, forKey: .runs) ?? []
        for handler in handlers {
            let allocationStacks = handler.allocations?.stacks.map(\.frames) ?? []
            for stack in handler.stacks.map(\.frames) + allocationStacks
            where stack.contains(where: { !frames.indices.contains($0) }) {
                throw DecodingError.dataCorruptedError(
                    forKey: .handlers, in: container,
                    debugDescription: "a stack of \(handler.app)/\(handler.handler) names a frame index out of range")
            }
        }
    }
}

/// A profile written by a newer memprof than this one.
public struct UnsupportedProfileVersion: Error, CustomStringConvertible {
    public var found: Int
    public var description: String {
        "profile format version \(found) is newer than this memprof understands (\(SamplingProfile.formatVersion))"
    }
}

/// How the sampler ran over the whole run.
public struct SamplerSummary: Sendable, Hashable, Codable {
    /// The rate asked for, in Hz; 0 when sampling was off.
    public var requestedRateHz: Double
    /// Timer signals handled (samples recorded + dropped) per second of the clock the timers
    /// counted: a kernel's wall time while sampled, a program's CPU time (spec §8.1).
    public var achievedRateHz: Double
    /// The clock that drove the timer: `thread-cpu`, `monotonic`, `program-thread-cpu` (each
    /// thread of a program on its own CPU clock), several joined by `+`, or `off`.
    public var clock: String
    /// Samples recorded into the buffer and kept.
    public var samples: Int
    /// Timer signals that found the buffer full and were counted but not recorded.
    public var droppedSamples: Int
    /// Timer expirations the kernel merged because a signal was still pending.
    public var timerOverruns: Int
    /// Wall-clock time during which the timer was armed, in microseconds.
    public var sampledWallMicroseconds: Int64
    /// What one sample costs the sampled thread, in nanoseconds of its CPU time, measured on
    /// this machine before the work ran: a spin loop alternately unsampled and sampled, extra
    /// CPU time per signal (timer interrupt, signal delivery, unwinding, cache effects).
    public var costPerSampleNanoseconds: Double
    /// Mean time spent inside the signal handler per sample (unwinding into the buffer), in
    /// nanoseconds: the part of ``costPerSampleNanoseconds`` that is memprof's own code.
    public var handlerNanosecondsPerSample: Double
    /// Estimated share of the sampled thread's time taken by sampling, in percent:
    /// (signals handled × ``costPerSampleNanoseconds``) ÷ sampled wall time.
    public var overheadPercent: Double

    public init(
        requestedRateHz: Double, achievedRateHz: Double, clock: String, samples: Int,
        droppedSamples: Int, timerOverruns: Int, sampledWallMicroseconds: Int64,
        costPerSampleNanoseconds: Double, handlerNanosecondsPerSample: Double, overheadPercent: Double
    ) {
        self.requestedRateHz = requestedRateHz
        self.achievedRateHz = achievedRateHz
        self.clock = clock
        self.samples = samples
        self.droppedSamples = droppedSamples
        self.timerOverruns = timerOverruns
        self.sampledWallMicroseconds = sampledWallMicroseconds
        self.costPerSampleNanoseconds = costPerSampleNanoseconds
        self.handlerNanosecondsPerSample = handlerNanosecondsPerSample
        self.overheadPercent = overheadPercent
    }

    /// The summary of a run that did not sample.
    public static let off = SamplerSummary(
        requestedRateHz: 0, achievedRateHz: 0, clock: "off", samples: 0, droppedSamples: 0,
        timerOverruns: 0, sampledWallMicroseconds: 0, costPerSampleNanoseconds: 0,
        handlerNanosecondsPerSample: 0, overheadPercent: 0)
}

/// One function in a stack.
public struct Frame: Sendable, Hashable, Codable, Comparable {
    /// Demangled function name, or `0x…` when no symbol covers the address.
    public var name: String
    /// File name of the executable or shared library holding it, e.g. `libFoundationEssentials.so`.
    public var module: String
    /// Source file and line from the binary's DWARF line table, when it has one.
    public var file: String?
    public var line: Int?

    public init(name: String, module: String, file: String? = nil, line: Int? = nil) {
        self.name = name
        self.module = module
        self.file = file
        self.line = line
    }

    public static func < (lhs: Frame, rhs: Frame) -> Bool {
        (lhs.name, lhs.module, lhs.file ?? "", lhs.line ?? 0) < (rhs.name, rhs.module, rhs.file ?? "", rhs.line ?? 0)
    }
}

/// The samples of one (app, handler) and the work it ran.
public struct HandlerProfile: Sendable, Hashable, Codable {
    public var app: String
    /// The handler kind's name: `backgroundTask`, `fetch` or `push`.
    public var handler: String
    /// The work kernel's name; several names joined by `,` if the handler ran different ones.
    public var kernel: String
    /// How many times the work ran.
    public var runs: Int
    /// Bytes of work asked for, summed over runs.
    public var sizeBytes: Int64
    /// Measured wall-clock time of the work, summed over runs.
    public var wallMicroseconds: Int64
    /// CPU time of the worker thread while it ran the work, summed over runs.
    public var cpuMicroseconds: Int64
    /// Samples recorded for this handler (the sum of the stacks' counts).
    public var samples: Int
    /// Samples dropped (buffer full) while this handler's work ran.
    public var droppedSamples: Int
    /// Distinct stacks, most frequent first.
    public var stacks: [Stack]
    /// What the handler's program allocated, by stack (work from a program only, spec §8.1).
    public var allocations: AllocationProfile?
    /// How the handler's program ended (work from a program only).
    public var program: ProgramSummary?

    public init(
        app: String, handler: String, kernel: String, runs: Int, sizeBytes: Int64,
        wallMicroseconds: Int64, cpuMicroseconds: Int64, droppedSamples: Int, stacks: [Stack],
        allocations: AllocationProfile? = nil, program: ProgramSummary? = nil
    ) {
        self.allocations = allocations
        self.program = program
        self.app = app
        self.handler = handler
        self.kernel = kernel
        self.runs = runs
        self.sizeBytes = sizeBytes
        self.wallMicroseconds = wallMicroseconds
        self.cpuMicroseconds = cpuMicroseconds
        self.samples = stacks.reduce(0) { $0 + $1.count }
        self.droppedSamples = droppedSamples
        self.stacks = stacks
    }
}

/// A distinct stack and how many samples saw it.
public struct Stack: Sendable, Hashable, Codable {
    /// Indices into ``SamplingProfile/frames``, root (outermost caller) first.
    public var frames: [Int]
    public var count: Int
    /// When its samples were taken, in simulated time, by time (see ``SampleTime``); nil when
    /// the samples carry no time (a profile of an older memprof, or work run outside a
    /// simulation). Their counts add up to at most ``count``: samples of a run that was never
    /// placed in simulated time have none.
    public var times: [SampleTime]?

    public init(frames: [Int], count: Int, times: [SampleTime]? = nil) {
        self.frames = frames
        self.count = count
        self.times = times
    }

    enum CodingKeys: String, CodingKey { case frames, count, times }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frames = try container.decode([Int].self, forKey: .frames)
        count = try container.decode(Int.self, forKey: .count)
        times = try container.decodeIfPresent([SampleTime].self, forKey: .times)
        guard count >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .count, in: container, debugDescription: "a stack's count is negative")
        }
        if let times {
            var sum = 0, previous = Int64.min
            for time in times {
                guard time.atUs > previous else {
                    throw DecodingError.dataCorruptedError(forKey: .times, in: container,
                                                           debugDescription: "a stack's sample times are not in increasing order")
                }
                previous = time.atUs
                let (next, overflow) = sum.addingReportingOverflow(time.count)
                guard !overflow, next <= count else {
                    throw DecodingError.dataCorruptedError(forKey: .times, in: container,
                                                           debugDescription: "a stack's sample times count more samples than the stack has")
                }
                sum = next
            }
        }
    }
}

/// Samples of one stack taken at one simulated time, written `[atUs, count]`.
///
/// The sampler records the wall-clock time of every sample while a handler's work runs; a
/// sample taken at fraction `f` of the work's wall time lies at `start + f × duration` of the
/// handler's simulated run, with `f` rounded down to a multiple of 1/``SampleTime/binsPerRun``
/// and the time taken at the middle of that step (to the microsecond), so a run gives at most
/// that many distinct times per stack.
public struct SampleTime: Sendable, Hashable, Codable, Comparable {
    /// Steps of a run's simulated interval that sample times are rounded to.
    public static let binsPerRun = 1000

    public var atUs: Int64
    public var count: Int

    public init(atUs: Int64, count: Int) {
        self.atUs = atUs
        self.count = count
    }

    /// The simulated time of step `bin` (0..<``binsPerRun``) of a run at `startUs` lasting `durationUs`.
    public static func time(bin: Int, startUs: Int64, durationUs: Int64) -> Int64 {
        let step = min(max(bin, 0), binsPerRun - 1)
        let offset = Double(max(durationUs, 0)) * (Double(step) + 0.5) / Double(binsPerRun)
        return startUs.addingReportingOverflow(Int64(offset.rounded(.down))).partialValue
    }

    /// The step of fraction `fraction` (clamped to 0...1) of a run.
    public static func bin(fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return min(binsPerRun - 1, max(0, Int(fraction * Double(binsPerRun))))
    }

    public static func < (lhs: SampleTime, rhs: SampleTime) -> Bool { (lhs.atUs, lhs.count) < (rhs.atUs, rhs.count) }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        atUs = try container.decode(Int64.self)
        count = try container.decode(Int.self)
        guard container.isAtEnd, atUs >= 0, count > 0 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a sample time is not [atUs ≥ 0, count > 0]")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(atUs)
        try container.encode(count)
    }
}

/// One run of a handler's work: which, how long it took here, and how many samples it got.
public struct WorkRun: Sendable, Hashable, Codable {
    public var app: String
    /// `backgroundTask`, `fetch` or `push`.
    public var handler: String
    public var kernel: String
    public var samples: Int
    public var wallMicroseconds: Int64
    public var cpuMicroseconds: Int64
    /// Where the run lies in simulated time: its handler's start and the simulated time the
    /// work had (its duration, or the window when it overran); nil when it was not placed.
    public var startUs: Int64?
    public var durationUs: Int64?

    public init(app: String, handler: String, kernel: String, samples: Int, wallMicroseconds: Int64,
                cpuMicroseconds: Int64, startUs: Int64? = nil, durationUs: Int64? = nil) {
        self.app = app
        self.handler = handler
        self.kernel = kernel
        self.samples = samples
        self.wallMicroseconds = wallMicroseconds
        self.cpuMicroseconds = cpuMicroseconds
        self.startUs = startUs
        self.durationUs = durationUs
    }
}
