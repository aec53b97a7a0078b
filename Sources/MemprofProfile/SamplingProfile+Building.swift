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
            let stacks = ordered.map { frames, count in
                Stack(
                    frames: frames.map { frame in
                        if let index = frameIndex[frame] { return index }
                        frameIndex[frame] = frameTable.count
                        frameTable.append(frame)
                        return frameTable.count - 1
                    },
                    count: count)
            }
            profiles.append(
                HandlerProfile(
                    app: input.app, handler: input.handler, kernel: input.kernel,
                    runs: input.runs, sizeBytes: input.sizeBytes,
                    wallMicroseconds: input.wallMicroseconds,
                    cpuMicroseconds: input.cpuMicroseconds,
                    droppedSamples: input.droppedSamples, stacks: stacks))
        }
        self.formatVersion = Self.formatVersion
        self.sampler = sampler
        self.frames = frameTable
        self.handlers = profiles
        self.notes = notes
        self.runs = runs
    }

    /// The frames of `stack`, root first.
    public func frames(of stack: Stack) -> [Frame] {
        stack.frames.map { frames[$0] }
    }
}
