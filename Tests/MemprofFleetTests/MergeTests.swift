import Foundation
import MemprofCore
import MemprofTestSupport
import Testing
@testable import MemprofFleet

/// Shards and merge (spec §12): a merge of all shards is the unsharded sweep byte for byte
/// (except host), whatever the order and grouping of the merges.
@Suite(.serialized) struct MergeTests {
    @Test func mergeIsAssociativeOrderFreeAndEqualsTheUnshardedSweep() throws {
        // With a mix: its weighted totals and runs.csv's matrix columns merge as the rest does.
        let mix = "mix:\n  device: {iphone-6-plus: 70%, ipad-air-2: 30%}\n"
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..10", extra: mix))
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        _ = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 2, into: whole)
        let expected = try FleetFixtures.comparable(whole)
        let expectedBytes = try FleetFixtures.bytesWithoutHost(whole)
        let n = 4
        var shards: [String] = []
        for k in 1...n {
            let out = dir.appendingPathComponent("s\(k)")
            _ = try FleetSweep.run(try FleetFixtures.plan(dir, shard: .init(index: k, count: n)), threads: 1 + k % 2, into: out)
            shards.append(out.path)
        }
        var generator = SeededGenerator(seed: 23)  // seeded: a failure replays
        var merged = 0
        func merge(_ parts: [String], partial: Bool = false) throws -> String {
            merged += 1
            let out = dir.appendingPathComponent("m\(merged)")
            _ = try FleetMerge.merge(parts, into: out, partial: partial)
            return out.path
        }
        for trial in 0..<6 {
            // A random order, cut into random groups merged first (partials), then merged together.
            let order = shards.shuffled(using: &generator)
            var groups: [[String]] = []
            var rest = order[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...rest.count, using: &generator)
                groups.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            let partials = try groups.map { $0.count == n ? $0[0] : try merge($0, partial: true) }
            let final = try merge(groups.count == 1 ? groups[0] : partials.shuffled(using: &generator))
            let got = try FleetFixtures.comparable(URL(fileURLWithPath: final))
            #expect(got.json == expected.json, "trial \(trial): \(groups)")
            #expect(got.csv == expected.csv, "trial \(trial)")
            #expect(try FleetFixtures.bytesWithoutHost(URL(fileURLWithPath: final)) == expectedBytes)
        }
    }

    @Test func mergeRefusesWhatIsNotOneSweep() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..3"))
        defer { try? FileManager.default.removeItem(at: dir) }
        for k in 1...3 {
            _ = try FleetSweep.run(try FleetFixtures.plan(dir, shard: .init(index: k, count: 3)), threads: 1,
                                   into: dir.appendingPathComponent("s\(k)"))
        }
        try FleetFixtures.sweep(seeds: "1..4").write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        _ = try FleetSweep.run(try FleetFixtures.plan(dir, shard: .init(index: 3, count: 3)), threads: 1,
                               into: dir.appendingPathComponent("other"))
        let p = { (name: String) in dir.appendingPathComponent(name).path }
        func message(_ parts: [String]) -> String {
            do {
                _ = try FleetMerge.merge(parts, into: dir.appendingPathComponent("out"))
                return "merged"
            } catch { return "\(error)" }
        }
        #expect(message([p("s1"), p("s2")]) == "missing shard 3/3; pass --partial to write a partial result")
        #expect(message([p("s1"), p("s2"), p("s2"), p("s3")]) == "shard 2/3 appears twice: in \(p("s2")) and \(p("s2"))")
        #expect(message([p("s1"), p("s2"), p("other")]).contains("are parts of different sweeps"))
        try Data("{\"schema\":\"memprof.report/1\"}".utf8).write(to: dir.appendingPathComponent("s3/fleet.json"))
        #expect(message([p("s1"), p("s2"), p("s3")]) == "\(p("s3"))/fleet.json: schema 'memprof.report/1', not memprof.fleet/1")
        #expect(message([p("s1"), p("nowhere")]).hasPrefix("\(p("nowhere")): no fleet.json"))
        #expect(!FileManager.default.fileExists(atPath: p("out")))
    }

    @Test func accumulatorsAddUpTheSameInAnyOrder() {
        var generator = SeededGenerator(seed: 77)
        let values: [Int64] = (0..<500).map { _ in
            [Int64.random(in: 0...5, using: &generator), Int64.random(in: 0...100_000_000, using: &generator)].randomElement(using: &generator)!
        }
        let worse: (Int64, Int64) -> Bool = { $0 > $1 }
        var one = MetricAccumulator()
        for (i, v) in values.enumerated() { one.add(v, run: i, seed: UInt64(i), keep: 5, worse: worse) }
        for _ in 0..<5 {
            var parts = Array(repeating: MetricAccumulator(), count: 3)
            for (i, v) in values.enumerated().shuffled(using: &generator) {
                parts[Int.random(in: 0..<3, using: &generator)].add(v, run: i, seed: UInt64(i), keep: 5, worse: worse)
            }
            var merged = parts[2]
            merged.merge(parts[0], keep: 5, worse: worse)
            merged.merge(parts[1], keep: 5, worse: worse)
            #expect(merged == one)
        }
        let sorted = values.sorted()
        #expect(one.min == sorted.first && one.max == sorted.last)
        for p in [5.0, 50, 95, 99] {
            let exact = sorted[Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1]
            let got = one.percentile(p)
            #expect(got <= exact && Double(got) >= Double(exact) * (1 - 1.0 / 256), "p\(p): \(got) vs \(exact)")
        }
    }
}
