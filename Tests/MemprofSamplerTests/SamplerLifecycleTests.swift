import Foundation
import MemprofCore
import MemprofProfile
import Testing

@testable import MemprofSampler

/// A user's own work, registered by name: private, non-inlined functions of the test binary
/// that only the ELF symbol table (not dladdr) can name.
@inline(never)
private func userWorkOuter(_ bytes: Int64) -> UInt64 {
    var total: UInt64 = 0
    var remaining = bytes
    while remaining > 0 {
        total &+= userWorkInner(UInt64(truncatingIfNeeded: remaining))
        remaining -= 4096
    }
    return total
}

@inline(never)
private func userWorkInner(_ seed: UInt64) -> UInt64 {
    var value = seed | 1
    for _ in 0..<4096 { value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
    return value
}

/// Runs the checksum and the JSON kernels in turn until `seconds` have passed: JSON allocates
/// and frees all the time, so signals land inside malloc, Foundation and the Swift runtime.
private func runFor(seconds: Double) {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        _ = ChecksumKernel.run(bytes: 1 << 20)
        _ = JSONKernel.run(bytes: 64 << 10)
    }
}

@Suite("Sampler lifecycle", .serialized)
struct SamplerLifecycleTests {
    @Test("samples land under the (app, handler) whose work was running")
    func attribution() throws {
        _ = ChecksumKernel.run(bytes: 1 << 16)
        _ = SortKernel.run(bytes: 1 << 16)
        var performer = SampledWorkPerformer(rateHz: 997)
        for _ in 0..<4 {
            _ = performer.perform(WorkSpec(kernel: "checksum", sizeBytes: 6 << 20), app: "Mail", handler: .fetch)
            _ = performer.perform(WorkSpec(kernel: "sort", sizeBytes: 3 << 20), app: "Photos", handler: .push)
        }
        let profile = performer.makeProfile()
        #expect(profile.handlers.map { "\($0.app)/\($0.handler)/\($0.kernel)/\($0.runs)" }
            == ["Mail/fetch/checksum/4", "Photos/push/sort/4"])
        for handler in profile.handlers {
            let own = handler.kernel == "checksum" ? "ChecksumKernel." : "SortKernel."
            let other = handler.kernel == "checksum" ? "SortKernel." : "ChecksumKernel."
            #expect(handler.samples > 20)
            var withOwn = 0
            for stack in handler.stacks {
                let names = profile.frames(of: stack).map(\.name)
                #expect(!names.contains { $0.contains(other) }, "\(handler.app) has a sample of the other kernel")
                if names.contains(where: { $0.contains(own) }) { withOwn += stack.count }
            }
            #expect(Double(withOwn) >= 0.95 * Double(handler.samples))
        }
    }

    @Test("registered user work is sampled, its private functions named from the ELF symbol table")
    func userWork() throws {
        WorkRegistry.register(name: "test-user-work") { size in _ = userWorkOuter(size) }
        defer { WorkRegistry.unregister(name: "test-user-work") }
        #expect(WorkRegistry.names.contains("test-user-work"))
        let performer = SampledWorkPerformer(rateHz: 997)
        var size: Int64 = 1 << 20
        while performer.makeProfile().sampleCount < 100 {
            if performer.perform(kernel: "test-user-work", sizeBytes: size, app: "App", handler: "backgroundTask") < 100_000 {
                size *= 2
            }
        }
        let profile = performer.makeProfile()
        let handler = try #require(profile.handlers.first)
        var matching = 0
        for stack in handler.stacks {
            let names = profile.frames(of: stack).map(\.name)
            if KernelSamplingTests.contains(["userWorkOuter(", "userWorkInner("], in: names) { matching += stack.count }
        }
        #expect(Double(matching) >= 0.95 * Double(handler.samples))
        #expect(profile.frames.contains { $0.name.contains("userWorkInner(") && $0.module.contains("PackageTests") })
    }

    @Test("start and stop many times")
    func manyStarts() throws {
        let performer = SampledWorkPerformer(rateHz: 2000)
        for round in 0..<150 {
            performer.perform(kernel: "checksum", sizeBytes: 64 << 10, app: "A\(round % 3)", handler: "fetch")
        }
        let profile = performer.makeProfile()
        #expect(profile.handlers.count == 3)
        #expect(profile.handlers.map(\.runs) == [50, 50, 50])
        #expect(profile.sampler.samples == profile.sampleCount)
        // The low-level API on the calling thread, too.
        StackSampler.prepareCurrentThread()
        for _ in 0..<50 {
            let sampler = try StackSampler.open(bufferCapacity: 64)
            try sampler.start(rateHz: 4000, tag: 7)
            _ = ChecksumKernel.run(bytes: 32 << 10)
            sampler.stop()
            var drained = 0
            sampler.drain { sample in
                #expect(sample.tag == 7)
                drained += 1
            }
            let stats = sampler.statistics
            #expect(stats.recorded == drained)
            #expect(stats.ticks == stats.recorded + stats.dropped)
            sampler.close()
        }
    }

    @Test("5 kHz for 10 seconds: no crash, no hang, drops counted", .timeLimit(.minutes(1)))
    func fastAndLong() throws {
        WorkRegistry.register(name: "test-ten-seconds") { _ in runFor(seconds: 10) }
        defer { WorkRegistry.unregister(name: "test-ten-seconds") }
        // A small buffer drained rarely, so it overflows and drops are counted.
        let options = SamplerOptions(rateHz: 5000, bufferCapacity: 256, drainInterval: 0.25)
        let performer = SampledWorkPerformer(options: options)
        let micros = performer.perform(kernel: "test-ten-seconds", sizeBytes: 0, app: "App", handler: "fetch")
        #expect(micros >= 10_000_000)
        let summary = performer.makeProfile().sampler
        #expect(summary.clock == "monotonic")
        #expect(summary.samples > 1000)
        #expect(summary.droppedSamples > 0)
        #expect(summary.achievedRateHz > 1000)
        let handler = try #require(performer.makeProfile().handlers.first)
        #expect(handler.droppedSamples == summary.droppedSamples)
        #expect(handler.samples == summary.samples)
    }

    @Test("rates up to 250 Hz use the worker's CPU clock")
    func cpuClock() {
        let performer = SampledWorkPerformer(rateHz: 250)
        while performer.makeProfile().sampleCount < 10 {
            performer.perform(kernel: "checksum", sizeBytes: 8 << 20, app: "A", handler: "fetch")
        }
        let summary = performer.makeProfile().sampler
        #expect(summary.clock == "thread-cpu")
        #expect(summary.achievedRateHz > 50 && summary.achievedRateHz < 400)
        #expect(summary.costPerSampleNanoseconds > 0)
        #expect(summary.overheadPercent > 0 && summary.overheadPercent < 20)
    }

    @Test("without sampling the work still runs and is timed, and no stacks are kept")
    func off() throws {
        var performer = SampledWorkPerformer(options: .off)
        let micros = performer.perform(WorkSpec(kernel: "checksum", sizeBytes: 2 << 20), app: "A", handler: .backgroundTask)
        #expect(micros > 0)
        let profile = performer.makeProfile()
        #expect(!profile.hasSamples)
        #expect(profile.sampler == .off)
        let handler = try #require(profile.handlers.first)
        #expect(handler.wallMicroseconds == micros)
        #expect(handler.cpuMicroseconds > 0)
        #expect(profile.notes.isEmpty)
    }

    @Test("work too short to be sampled says so; unknown kernels do not run")
    func notes() {
        let performer = SampledWorkPerformer(rateHz: 1)
        performer.perform(kernel: "checksum", sizeBytes: 1024, app: "A", handler: "push")
        #expect(performer.perform(kernel: "no-such-kernel", sizeBytes: 1024, app: "A", handler: "push") == 0)
        let profile = performer.makeProfile()
        #expect(!profile.hasSamples)
        #expect(profile.notes.contains { $0.contains("no samples were collected") })
        #expect(profile.notes.contains { $0.contains("no-such-kernel") })
    }
}
