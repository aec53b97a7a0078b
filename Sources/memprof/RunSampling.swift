import ArgumentParser
import Foundation
import MemprofCore
import MemprofProfile
import MemprofSampler

/// `memprof run`'s sampling options and what they produce (spec §8).
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

    /// A performer when the workload names work to run, else nil (and nothing runs).
    func makePerformer(for workload: Workload) -> SampledWorkPerformer? {
        let hasWork = workload.apps.contains { app in
            app.fetch?.handler.work != nil || app.push?.work != nil || app.backgroundTask?.handler.work != nil
        }
        guard hasWork else { return nil }
        return SampledWorkPerformer(rateHz: noSampling ? 0 : (sampleRate ?? SamplerOptions.defaultRateHz))
    }
}

/// The stack files of a profile: written only when samples were collected.
func stackFiles(for profile: SamplingProfile, workload: String) throws -> [(name: String, data: Data)] {
    guard profile.hasSamples else { return [] }
    return [
        ("stacks.folded", Data(profile.makeFoldedStacks().utf8)),
        ("profile.speedscope.json", try profile.makeSpeedscopeJSON(name: "memprof \(workload)")),
    ]
}

/// One line about the profile for the terminal summary.
func profileLine(_ profile: SamplingProfile?, sampling: SamplingOptions) -> String? {
    guard let profile else { return nil }
    if sampling.noSampling { return "profile    work ran unsampled (--no-sampling); no stack files written" }
    guard profile.hasSamples else {
        let why = profile.notes.isEmpty ? "no samples were collected" : profile.notes.joined(separator: "; ")
        return "profile    \(why); no stack files written"
    }
    let s = profile.sampler
    return "profile    \(profile.sampleCount) samples at \(Int(s.achievedRateHz.rounded())) Hz (asked \(Int(s.requestedRateHz))), "
        + "\(s.droppedSamples) dropped, overhead \(String(format: "%.2f", s.overheadPercent))%"
}
