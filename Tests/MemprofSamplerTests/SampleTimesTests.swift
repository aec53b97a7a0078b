import MemprofCore
import MemprofProfile
import Testing

@testable import MemprofSampler

/// Every sample gets a simulated time once the simulation places its run.
@Suite("Sample times of real work", .serialized)
struct SampleTimesTests {
    @Test("samples lie inside their run's simulated interval, in order of the wall clock")
    func placedRuns() throws {
        WorkRegistry.kernel(named: "checksum")!.run(1 << 16)
        var performer = SampledWorkPerformer(rateHz: 997)
        let starts: [Int64] = [60_000_000, 600_000_000]
        for start in starts {
            var size: Int64 = 4 << 20
            // Long enough for a few dozen samples; shorter runs are left unplaced (no times).
            while performer.perform(WorkSpec(kernel: "checksum", sizeBytes: size), app: "A", handler: .fetch) < 60_000,
                  size < 1 << 30 {
                size *= 2
            }
            performer.placeLastRun(startUs: start, durationUs: 4_000_000)
        }
        // A run nobody placed keeps its samples without times.
        performer.perform(WorkSpec(kernel: "checksum", sizeBytes: 4 << 20), app: "A", handler: .fetch)
        let profile = performer.makeProfile()
        let handler = try #require(profile.handlers.first)
        let placed = profile.runs.filter { $0.startUs != nil }
        #expect(placed.map(\.startUs) == starts)
        #expect(placed.allSatisfy { $0.durationUs == 4_000_000 })
        #expect(profile.runs.last?.startUs == nil)
        var timed = 0
        for stack in handler.stacks {
            let times = stack.times ?? []
            #expect(times.map(\.count).reduce(0, +) <= stack.count)
            #expect(times.map(\.atUs) == times.map(\.atUs).sorted())
            for time in times {
                #expect(starts.contains { time.atUs >= $0 && time.atUs < $0 + 4_000_000 }, "\(time.atUs)")
                timed += time.count
            }
        }
        let samplesOfPlaced = placed.map(\.samples).reduce(0, +)
        #expect(samplesOfPlaced > 20)
        #expect(timed == samplesOfPlaced)
        #expect(handler.samples == profile.runs.map(\.samples).reduce(0, +))
        // Spread over the run, not piled on one step: a steady sampler fills many steps.
        let steps = Set(handler.stacks.flatMap { ($0.times ?? []).map(\.atUs) })
        #expect(steps.count > samplesOfPlaced / 4)
    }
}
