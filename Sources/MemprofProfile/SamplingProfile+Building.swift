extension SamplingProfile {
    /// Stacks of one (app, handler) given by their frames rather than by index.
    public struct HandlerInput: Sendable {
        public var app: String
        public var handler: String
        public var kernel: String
        public var runs: Int
        public var sizeBytes: Int64
        public var wallMicroseconds: Int64
        public var cpuMicroseconds: Int64
        public var droppedSamples: Int
        /// Stacks, root first, with their counts. Equal stacks are merged.
        public var stacks: [(frames: [Frame], count: Int)]
        /// When the samples of a stack (root first) were taken: simulated time → samples. Stacks
        /// missing here carry no times.
        public var sampleTimes: [[Frame]: [Int64: Int]] = [:]
        /// Allocations of a program's runs (spec §8.1).
        public var allocations: AllocationInput?
        public var program: ProgramSummary?

        public init(
            app: String, handler: String, kernel: String, runs: Int = 1, sizeBytes: Int64 = 0,
            wallMicroseconds: Int64 = 0, cpuMicroseconds: Int64 = 0, droppedSamples: Int = 0,
            stacks: [(frames: [Frame], count: Int)]
        ) {
            self.app = app
            self.handler = handler
            self.kernel = kernel
            self.runs = runs
            self.sizeBytes = sizeBytes
            self.wallMicroseconds = wallMicroseconds
            self.cpuMicroseconds = cpuMicroseconds
            self.droppedSamples = droppedSamples
            self.stacks = stacks
        }
    }

    /// Builds a profile in canonical order: handlers by (app, handler); within a handler, equal
    /// stacks merged, then most frequent first, ties broken by the frames' names root first;
    /// frames numbered in order of first appearance in that walk. Handlers with the same
    /// (app, handler) are merged.
    public init(sampler: SamplerSummary, handlers: [HandlerInput], notes: [String] = [], runs: [WorkRun] = []) {
        var merged: [String: HandlerInput] = [:]
        var order: [String] = []
        for input in handlers {
            let key = input.app + "\u{0}" + input.handler
            if var existing = merged[key] {
                if !existing.kernel.split(separator: ",").contains(Substring(input.kernel)) {
                    existing.kernel = (existing.kernel.split(separator: ",").map(String.init)
                        + [input.kernel]).sorted().joined(separator: ",")
                }
                existing.runs += input.runs
                existing.sizeBytes += input.sizeBytes
                existing.wallMicroseconds += input.wallMicroseconds
                existing.cpuMicroseconds += input.cpuMicroseconds
                existing.droppedSamples += input.droppedSamples
                existing.stacks += input.stacks
                existing.sampleTimes = Self.adding(existing.sampleTimes, input.sampleTimes)
                existing.allocations = Self.merge(existing.allocations, input.allocations)
                existing.program = input.program ?? existing.program
                merged[key] = existing
            } else {
                merged[key] = input
                order.append(key)
            }
        }
        let sortedInputs = order.compactMap { merged[$0] }.sorted {
            ($0.app, $0.handler) < ($1.app, $1.handler)
        }

        var frameTable: [Frame] = []
        var frameIndex: [Frame: Int] = [:]
        var profiles: [HandlerProfile] = []
        for input in sortedInputs {
            var counts: [[Frame]: Int] = [:]
            for stack in input.stacks where stack.count > 0 {
                counts[stack.frames, default: 0] += stack.count
            }
            let ordered = counts.sorted { lhs, rhs in
                if lhs.value != rhs.value { return lhs.value > rhs.value }
                return lhs.key.lexicographicallyPrecedes(rhs.key)
            }
            func indices(_ frames: [Frame]) -> [Int] {
                frames.map { frame in
                    if let index = frameIndex[frame] { return index }
                    frameIndex[frame] = frameTable.count
                    frameTable.append(frame)
                    return frameTable.count - 1
                }
            }
            let stacks = ordered.map { frames, count in
                let times = input.sampleTimes[frames].flatMap { byTime -> [SampleTime]? in
                    let list = byTime.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                        .map { SampleTime(atUs: $0.key, count: $0.value) }
                    return list.isEmpty ? nil : list
                }
                return Stack(frames: indices(frames), count: count, times: times)
            }
            let allocations = input.allocations.map { allocations in
                var byStack: [[Frame]: AllocationStack] = [:]
                for (frames, totals) in allocations.stacks {
                    byStack[frames] = Self.adding(byStack[frames], totals)
                }
                let ordered = byStack.sorted { lhs, rhs in
                    if lhs.value.allocatedBytes != rhs.value.allocatedBytes {
                        return lhs.value.allocatedBytes > rhs.value.allocatedBytes
                    }
                    if lhs.value.peakBytes != rhs.value.peakBytes { return lhs.value.peakBytes > rhs.value.peakBytes }
                    return lhs.key.lexicographicallyPrecedes(rhs.key)
                }
                var profile = allocations.totals
                profile.stacks = ordered.map { frames, totals in
                    var stack = totals
                    stack.frames = indices(frames)
                    return stack
                }
                return profile
            }
            profiles.append(
                HandlerProfile(
                    app: input.app, handler: input.handler, kernel: input.kernel,
                    runs: input.runs, sizeBytes: input.sizeBytes,
                    wallMicroseconds: input.wallMicroseconds,
                    cpuMicroseconds: input.cpuMicroseconds,
                    droppedSamples: input.droppedSamples, stacks: stacks,
                    allocations: allocations, program: input.program))
        }
        self.formatVersion = Self.formatVersion
        self.sampler = sampler
        self.frames = frameTable
        self.handlers = profiles
        self.notes = notes
        self.runs = runs
    }

    /// Two runs' allocations of one handler: allocated and leaked add up; the peak is the higher
    /// run's, with its stacks' bytes at the peak.
    public static func merge(_ lhs: AllocationInput?, _ rhs: AllocationInput?) -> AllocationInput? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        let rhsPeaks = rhs.totals.peakBytes > lhs.totals.peakBytes
        func keepingPeak(_ input: AllocationInput, _ keep: Bool) -> [(frames: [Frame], totals: AllocationStack)] {
            keep ? input.stacks : input.stacks.map { ($0.frames, { var t = $0; t.peakBytes = 0; return t }($0.totals)) }
        }
        let (l, r) = (lhs.totals, rhs.totals)
        return AllocationInput(
            totals: AllocationProfile(
                allocatedBytes: l.allocatedBytes &+ r.allocatedBytes, allocations: l.allocations &+ r.allocations,
                peakBytes: max(l.peakBytes, r.peakBytes), leakedBytes: l.leakedBytes &+ r.leakedBytes,
                leakedBlocks: l.leakedBlocks &+ r.leakedBlocks, stacks: []),
            stacks: keepingPeak(lhs, !rhsPeaks) + keepingPeak(rhs, rhsPeaks))
    }

    /// Sample times of stacks added up, stack by stack and time by time.
    static func adding(_ lhs: [[Frame]: [Int64: Int]], _ rhs: [[Frame]: [Int64: Int]]) -> [[Frame]: [Int64: Int]] {
        var sum = lhs
        for (frames, times) in rhs {
            sum[frames, default: [:]].merge(times, uniquingKeysWith: +)
        }
        return sum
    }

    static func adding(_ lhs: AllocationStack?, _ rhs: AllocationStack) -> AllocationStack {
        guard var sum = lhs else { return rhs }
        sum.allocatedBytes &+= rhs.allocatedBytes
        sum.allocations &+= rhs.allocations
        sum.peakBytes &+= rhs.peakBytes
        sum.leakedBytes &+= rhs.leakedBytes
        sum.leakedBlocks &+= rhs.leakedBlocks
        return sum
    }

    /// The same profile with every CPU and allocation stack's frames (root first) passed through
    /// `transform`; stacks that become equal are merged. Totals, notes and runs are kept.
    public func mappingStacks(_ transform: ([Frame]) -> [Frame]) -> SamplingProfile {
        let inputs = handlers.map { handler in
            var input = HandlerInput(
                app: handler.app, handler: handler.handler, kernel: handler.kernel, runs: handler.runs,
                sizeBytes: handler.sizeBytes, wallMicroseconds: handler.wallMicroseconds,
                cpuMicroseconds: handler.cpuMicroseconds, droppedSamples: handler.droppedSamples,
                stacks: handler.stacks.map { (frames: transform(frames(of: $0)), count: $0.count) })
            for stack in handler.stacks {
                guard let times = stack.times else { continue }
                input.sampleTimes[transform(frames(of: stack)), default: [:]]
                    .merge(times.map { ($0.atUs, $0.count) }, uniquingKeysWith: +)
            }
            input.allocations = handler.allocations.map { allocations in
                AllocationInput(totals: allocations, stacks: allocations.stacks.map { (transform(frames(of: $0)), $0) })
            }
            input.program = handler.program
            return input
        }
        return SamplingProfile(sampler: sampler, handlers: inputs, notes: notes, runs: runs)
    }

    /// The frames of `stack`, root first.
    public func frames(of stack: Stack) -> [Frame] {
        stack.frames.map { frames[$0] }
    }
}
