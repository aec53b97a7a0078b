import ArgumentParser
import MemprofRun
import MemprofSampler

/// `memprof run`'s sampling options (spec §8).
struct SamplingOptions: ParsableArguments {
    @Option(name: .customLong("sample-rate"),
            help: "Stack samples per second while background work runs (default \(Int(SamplerOptions.defaultRateHz))).")
    var sampleRate: Double?

    @Flag(name: .customLong("no-sampling"), help: "Run background work without sampling its stacks.")
    var noSampling = false

    func validate() throws {
        if let rate = sampleRate {
            guard rate >= 1, rate <= 20_000 else {
                throw ValidationError("--sample-rate must be between 1 and 20000 Hz, not \(rate)")
            }
            guard !noSampling else { throw ValidationError("--sample-rate and --no-sampling contradict each other") }
        }
    }

    var sampling: RunRequest.Sampling {
        noSampling ? .unsampled : sampleRate.map { .rate($0) } ?? .default
    }
}
