import Foundation
import MemprofCompare
import MemprofTestSupport
import MemprofWorkload
import Testing
@testable import MemprofFleet

struct PairedTestTests {
    @Test func exactPValuesByHand() {
        // All five positive: only 1 of 32 sign patterns is as extreme on each side.
        #expect(abs(PairedTest.wilcoxon([1, 2, 3, 4, 5]).pValue - 2.0 / 32) < 1e-12)
        // W− = 5: 10 of the 64 subsets of ranks 1…6 sum to 5 or less.
        let r = PairedTest.wilcoxon([-1, 2, 3, -4, 5, 6])
        #expect(r.wPlus == 16 && abs(r.pValue - 20.0 / 64) < 1e-12)
        // Ties share their average rank; zeros are dropped.
        let tied = PairedTest.wilcoxon([1, 1, 0, 1, 1])
        #expect(tied.nonZero == 4 && tied.wPlus == 10 && abs(tied.pValue - 2.0 / 16) < 1e-12)
        #expect(PairedTest.wilcoxon([0, 0, 0]).pValue == 1)
    }

    @Test func largeSamplesUseTheNormalApproximation() {
        let shifted = (0..<200).map { Int64($0 % 7) - 1 }   // mostly positive
        #expect(PairedTest.wilcoxon(shifted).pValue < 1e-6)
        let balanced = (0..<200).map { Int64($0 % 2 == 0 ? 3 : -3) }
        #expect(PairedTest.wilcoxon(balanced).pValue > 0.9)
    }

    @Test func meanChangeAndConfidenceInterval() {
        let r = PairedTest.wilcoxon([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(r.meanChange == 5.5)
        // sd 3.0277, t(9) 2.262: half-width 2.166.
        #expect(abs(r.ciLow - 3.334) < 0.01 && abs(r.ciHigh - 7.666) < 0.01)
    }
}

/// Two sweeps of one workload and seeds, paired by seed: a large change is a significant
/// regression, a change that seeds' luck explains is not.
@Suite(.serialized) struct FleetCompareTests {
    @Test func aSignificantAndANonSignificantChange() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..30", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        func sweep(_ name: String, _ overrides: [String]) throws -> String {
            let plan = try SweepPlan(sweep: try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path),
                                     overrides: try overrides.map { try WorkloadOverride.parse(assignment: $0) })
            _ = try FleetSweep.run(plan, threads: 2, into: dir.appendingPathComponent(name))
            return dir.appendingPathComponent(name).path
        }
        let base = try sweep("base", [])
        let same = try FleetCompare.compare(base: base, new: try sweep("same", []))
        #expect(!same.hasRegression && same.rows.allSatisfy { $0.pValue == 1 && $0.meanChange == 0 })
        let big = try FleetCompare.compare(base: base, new: try sweep("big", ["apps.game.launch.footprint=560MB"]))
        #expect(big.hasRegression)
        let peak = try #require(big.rows.first { $0.metric == "apps.game.peakFootprintBytes" })
        #expect(peak.verdict == .worse && peak.pValue < 0.01 && peak.pairs == 30)
        #expect(peak.ciLow <= peak.meanChange && peak.meanChange <= peak.ciHigh)
        let small = try FleetCompare.compare(base: base, new: try sweep("small", ["apps.mail.onBackground.release=11MB"]))
        #expect(small.rows.filter { $0.verdict == .worse }.map(\.metric).allSatisfy { !$0.hasPrefix("summary.") })
        // The small change did move something, and what moved was not judged worse.
        #expect(small.rows.contains { $0.meanChange != 0 && $0.verdict != .worse })
        // Every output states the mean change, its interval and the p-value.
        let row = try #require(FleetCompareOutput.shownRows(big, all: false).first)
        #expect(FleetCompareOutput.terminal(big).contains("95% CI"))
        #expect(FleetCompareOutput.markdown(big).contains("| p |"))
        #expect(FleetCompareOutput.junit(big).contains("p = "))
        #expect(FleetCompareOutput.html(big).contains("<th>relative (95% CI)</th>"))
        // The app the override names leads, each row with its change relative to the base mean.
        #expect(big.rows.first?.metric.hasPrefix("apps.game.") == true)
        #expect(big.notes.contains("the overrides that differ name game: their rows lead"))
        #expect(peak.relativeChange.map { abs($0 - peak.meanChange / peak.baseMean) < 1e-12 } == true)
        #expect(FleetCompareOutput.terminal(big).contains("apps.game.peakFootprintBytes"))
        #expect(String(decoding: try FleetCompareOutput.json(big), as: UTF8.self).contains("\"pValue\""))
        #expect(row.verdict == .worse)
        // A significant change is never printed as "same" unless a threshold the user set held it back;
        // a neutral metric's says it changed.
        let significant = big.rows.filter { $0.verdict == .same && $0.meanChange != 0 && $0.pValue < big.alpha && !$0.context }
        #expect(significant.contains { $0.direction == .neutral })
        for r in significant {
            let text = FleetCompareOutput.verdictText(r, alpha: big.alpha)
            #expect(!text.hasPrefix("same") || text.contains("your threshold"), "\(r.metric): \(text)")
        }
        let neutral = try #require(significant.first { $0.direction == .neutral })
        #expect(FleetCompareOutput.verdictText(neutral, alpha: big.alpha) == "changed (neutral: significant at 0.01, not judged)")
    }

    @Test func partialResultsAreRefused() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..4", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("p")
        _ = try FleetSweep.run(try FleetFixtures.plan(dir, shard: .init(index: 1, count: 2)), threads: 1, into: part)
        #expect(throws: MergeError.self) { try FleetCompare.compare(base: part.path, new: part.path) }
    }
}
