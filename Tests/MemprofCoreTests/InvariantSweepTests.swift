import Foundation
import Synchronization
import MemprofCore
import Testing

/// The engine's invariants — memory accounting (used is the sum of resident
/// footprints, within app memory; compressed within flash), one state per app with transitions
/// that start where the last ended, at most one foreground app, and time in states adding up to
/// the duration — over 10,000 seeded random workloads, on every core. The same checks as
/// ``PropertyTests`` (which looks closely at 200), over fifty times as many seeds.
@Suite("Invariants over 10,000 seeded random workloads")
struct InvariantSweepTests {
    static let count = 10_000

    @Test("10,000 random workloads keep every invariant")
    func tenThousandWorkloads() {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = (Self.count + cores - 1) / cores
        let failures = Mutex<[String]>([])
        let totals = Mutex<(runs: Int, evictions: Int, kills: Int)>((0, 0, 0))
        DispatchQueue.concurrentPerform(iterations: cores) { part in
            var local: [String] = []
            var runs = 0, evictions = 0, kills = 0
            // Seeds past the 200 PropertyTests uses, so the two suites cover different workloads.
            for seed in UInt64(200 + part * chunk)..<UInt64(200 + min(Self.count, (part + 1) * chunk)) {
                let workload = RandomWorkloads.make(seed: seed)
                let result = simulate(workload)
                let problems = PropertyTests.problems(workload, result)
                if !problems.isEmpty { local.append("seed \(seed): \(problems.prefix(3))") }
                runs += 1
                evictions += result.summary.evictions
                kills += result.summary.terminations.values.reduce(0, +)
            }
            failures.withLock { $0 += local }
            totals.withLock { $0 = ($0.runs + runs, $0.evictions + evictions, $0.kills + kills) }
        }
        let (runs, evictions, kills) = totals.withLock { $0 }
        #expect(runs == Self.count)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(5) })")
        // The workloads reach the paths the invariants guard.
        #expect(evictions > Self.count / 10 && kills > Self.count / 10, "evictions \(evictions), kills \(kills)")
    }
}
