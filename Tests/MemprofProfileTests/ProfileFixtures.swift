import MemprofProfile

/// Small hand-made profiles for the format tests.
enum ProfileFixtures {
    static let main = Frame(name: "main", module: "memprof")
    static let run = Frame(name: "static MemprofSampler.ChecksumKernel.run(bytes:)", module: "memprof")
    static let buffer = Frame(name: "MemprofSampler.ChecksumKernel.checksumBuffer(_:seed:)", module: "memprof")
    static let crc = Frame(name: "MemprofSampler.ChecksumKernel.crc32Update(_:_:)", module: "memprof")
    static let sort = Frame(name: "MemprofSampler.SortKernel.sortRecords(_:)", module: "memprof")
    static let awkward = Frame(name: "odd;name\twith\nbreaks 42", module: "libodd.so")

    static let summary = SamplerSummary(
        requestedRateHz: 997, achievedRateHz: 990.5, clock: "monotonic", samples: 17,
        droppedSamples: 2, timerOverruns: 1, sampledWallMicroseconds: 17_000,
        costPerSampleNanoseconds: 2500, handlerNanosecondsPerSample: 400, overheadPercent: 0.25)

    /// Two handlers given out of order, with a duplicate stack to merge.
    static func profile() -> SamplingProfile {
        SamplingProfile(
            sampler: summary,
            handlers: [
                .init(
                    app: "Photos", handler: "backgroundTask", kernel: "sort", sizeBytes: 1 << 20,
                    wallMicroseconds: 5000, cpuMicroseconds: 4900,
                    stacks: [(frames: [main, sort], count: 5)]),
                .init(
                    app: "Mail", handler: "fetch", kernel: "checksum", sizeBytes: 4 << 20,
                    wallMicroseconds: 12_000, cpuMicroseconds: 11_800, droppedSamples: 2,
                    stacks: [
                        (frames: [main, run, buffer], count: 2),
                        (frames: [main, run, buffer, crc], count: 7),
                        (frames: [main, run, buffer, crc], count: 1),
                        (frames: [main, awkward], count: 2),
                    ]),
            ])
    }
}
