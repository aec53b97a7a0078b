import MemprofCore
import MemprofProfile
import Testing

@testable import MemprofSampler

/// Sampling tests share the process-wide SIGPROF handler, so they run one at a time.
@Suite("Sampling real work", .serialized)
struct KernelSamplingTests {
    /// Runs `kernel` under the sampler until at least `minimumSamples` were taken.
    static func sample(
        _ kernel: String, app: String, handler: HandlerKind, rateHz: Double = 997,
        minimumSamples: Int = 300
    ) -> SamplingProfile {
        WorkRegistry.kernel(named: kernel)!.run(1 << 16)  // build cached inputs unsampled
        var performer = SampledWorkPerformer(rateHz: rateHz)
        var size: Int64 = 1 << 20
        for _ in 0..<40 {
            let micros = performer.perform(WorkSpec(kernel: kernel, sizeBytes: size), app: app, handler: handler)
            if performer.makeProfile().sampleCount >= minimumSamples { break }
            if micros < 200_000 { size *= 2 }
        }
        return performer.makeProfile()
    }

    static func contains(_ chain: [String], in names: [String]) -> Bool {
        var next = 0
        for name in names where next < chain.count && name.contains(chain[next]) { next += 1 }
        return next == chain.count
    }

    @Test("each built-in kernel's samples show its call chain", arguments: ["checksum", "compress", "json", "sort"])
    func kernelChain(kernel: String) throws {
        let profile = Self.sample(kernel, app: "App-\(kernel)", handler: .fetch)
        let chain = try #require(WorkRegistry.kernel(named: kernel)).expectedChain
        #expect(profile.handlers.count == 1)
        let handler = try #require(profile.handlers.first)
        #expect(handler.app == "App-\(kernel)")
        #expect(handler.handler == "fetch")
        #expect(handler.kernel == kernel)
        #expect(handler.samples >= 300)
        #expect(handler.wallMicroseconds > 0 && handler.cpuMicroseconds > 0)
        var matching = 0
        for stack in handler.stacks {
            let names = profile.frames(of: stack).map(\.name)
            if Self.contains(chain, in: names) { matching += stack.count }
        }
        let share = Double(matching) / Double(handler.samples)
        if share < 0.95 {
            let top = handler.stacks.prefix(5).map { profile.frames(of: $0).map(\.name).joined(separator: " ; ") }
            Issue.record("only \(Int(share * 100))% of \(kernel) samples hold \(chain); top stacks:\n\(top.joined(separator: "\n"))")
        }
        #expect(profile.sampler.samples == handler.samples)
        #expect(profile.sampler.achievedRateHz > 0)
    }
}
