import Foundation
import MemprofCore
import MemprofField
import MemprofTestSupport
import Testing
@testable import MemprofFleet

/// Shards and fleet results that were edited by hand or damaged: every number `merge`, `compare`
/// and `export` read is range-checked and located, and nothing traps or is left half-written.
@Suite(.serialized) struct HostileFleetInputTests {
    /// A complete sweep of three seeds, one cell, in a new folder (`whole`).
    static func sweep() throws -> URL {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..3", matrix: ""))
        _ = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 1, into: dir.appendingPathComponent("whole"))
        return dir
    }

    /// Replaces the value of `column` in data row `row` (0-based) of `folder`/runs.csv.
    static func edit(_ folder: URL, row: Int, column: String, to text: String) throws {
        let file = folder.appendingPathComponent("runs.csv")
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let header = lines[0].components(separatedBy: ",")
        let c = try #require(header.firstIndex(of: column), "no column \(column)")
        var fields = lines[row + 1].components(separatedBy: ",")
        fields[c] = text
        lines[row + 1] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    static func mergeMessage(_ dir: URL) -> String {
        do {
            _ = try FleetMerge.merge([dir.appendingPathComponent("whole").path], into: dir.appendingPathComponent("merged"))
            return "merged"
        } catch { return "\(error)" }
    }

    /// Nothing of a failed merge is left: no result, no staging folder.
    static func expectNothingWritten(_ dir: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains("merged"), "\(names)")
        #expect(!names.contains { $0.hasPrefix(".") }, "\(names)")
    }

    /// A value out of range (that traps the deviation's sums), a negative count, a seed that is
    /// not the sweep's: each refused at its line, before anything is written.
    @Test(arguments: [
        (0, "summary.peakUsedBytes", "8000000000000000000",
         "whole/runs.csv:2: summary.peakUsedBytes 8000000000000000000 is out of range"),
        (1, "summary.coldLaunches", "-4", "whole/runs.csv:3: summary.coldLaunches -4 is out of range"),
        (2, "seed", "99", "whole/runs.csv:4: seed 99 is not the sweep's seed of run 2 (3)"),
    ])
    func mergeRefusesAnEditedRow(row: Int, column: String, text: String, message: String) throws {
        let dir = try Self.sweep()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir.appendingPathComponent("whole"), row: row, column: column, to: text)
        let got = Self.mergeMessage(dir)
        #expect(got.contains(message), "\(got)")
        try Self.expectNothingWritten(dir)
    }

    @Test func mergeRefusesAFleetJSONWhoseCountsAreOutOfRange() throws {
        let dir = try Self.sweep()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("whole/fleet.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""measuredWorkUs":{}"#, with: #""measuredWorkUs":{"a/fetch":-5}"#)
        #expect(edited != text)
        try edited.write(to: file, atomically: true, encoding: .utf8)
        let message = Self.mergeMessage(dir)
        #expect(message.contains("whole/fleet.json: host.measuredWorkUs.a/fetch -5 is out of range"), "\(message)")
    }

    @Test func exportRefusesASampleCountOutOfRange() throws {
        let dir = try Self.sweep()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        try Self.edit(whole, row: 0, column: "apps.mail.suspendedMemory.sampleCount", to: "9000000000000000000")
        try Self.edit(whole, row: 1, column: "apps.mail.suspendedMemory.sampleCount", to: "9000000000000000000")
        #expect(throws: MergeError.self) { try FleetMetricKit.files(whole.path) }
    }

    /// Groups far larger than any sweep makes still pool without overflowing.
    @Test func pooledStatisticsDoNotOverflow() {
        let huge = SuspendedMemory(sampleCount: Int.max, averageBytes: 1 << 50, standardDeviationBytes: 1 << 40)
        let pooled = MetricKitExport.pooled([huge, huge, huge])
        #expect(pooled.sampleCount == Int.max)
        #expect(pooled.averageBytes == 1 << 50)
        #expect(pooled.standardDeviationBytes == 1 << 40)
    }

    /// The largest values a runs.csv may hold, in the most runs a sweep may have, keep exact
    /// sums and a finite deviation.
    @Test func accumulatorHoldsTheLargestValuesOfTheLargestSweep() {
        var a = MetricAccumulator()
        a.add((Int64(1) << 51), run: 0, seed: 0, keep: 0, worse: nil)
        a.add(0, run: 1, seed: 1, keep: 0, worse: nil)
        var many = a
        // Doubling 24 times: 2 × 2^24 runs, more than a sweep may have (20,000,000).
        for _ in 0..<24 { many.merge(many, keep: 0, worse: nil) }
        #expect(many.count == 1 << 25)
        #expect(many.standardDeviation.isFinite)
        let expected = Double((Int64(1) << 51)) / 2  // half the runs at the top, half at 0
        #expect(abs(many.standardDeviation - expected) / expected < 1e-6, "\(many.standardDeviation)")
        var low = MetricAccumulator()
        low.add(-(Int64(1) << 51), run: 0, seed: 0, keep: 0, worse: nil)
        low.add(-(Int64(1) << 51), run: 1, seed: 1, keep: 0, worse: nil)
        #expect(low.standardDeviation == 0)
    }
}
