import MemprofCore
import Testing

/// `Simulator.Options.keepsHistory`: sweeps run without history (no events, memory series or
/// jetsam snapshots), and their numbers must be the numbers of the full run.
@Suite("Runs without history")
struct HistoryTests {
    @Test("counters are the same with and without history over 300 random workloads")
    func countersDoNotDependOnHistory() {
        var evictions = 0, memoryKills = 0
        for seed in UInt64(20_000)..<20_300 {
            let workload = RandomWorkloads.make(seed: seed)
            var full = Simulator(workload: workload)
            var lean = Simulator(workload: workload, options: .init(keepsHistory: false))
            let a = full.run(), b = lean.run()
            #expect(a.summary == b.summary, "seed \(seed)")
            #expect(a.apps == b.apps, "seed \(seed)")
            #expect(a.processedOccurrences == b.processedOccurrences, "seed \(seed)")
            #expect(a.observers == b.observers, "seed \(seed)")
            // The lean run really kept nothing of the history the full one has.
            #expect(b.events.isEmpty && b.jetsamEvents.isEmpty && b.timeline.usedBytes.count <= 1)
            #expect(b.stateIntervals.values.allSatisfy { $0.isEmpty })
            #expect(!a.events.isEmpty)
            evictions += a.summary.evictions
            memoryKills += a.jetsamEvents.count
        }
        // The workloads reach the paths where history is recorded and skipped.
        #expect(evictions > 30 && memoryKills > 30, "evictions \(evictions), kills \(memoryKills)")
    }
}
