import Foundation
import MemprofField
import MemprofInput
import MemprofOutput
import MemprofTestSupport
import MemprofWorkload
import Testing
@testable import MemprofFleet

/// A what-if of the tiny two-hour day on two devices mixed 70/30: the changed world runs the
/// base's seeds, its rows are the paired test of the per-seed MetricKit counters (checked
/// against the fleets' own runs, worked through here), a weighted row is the mix's, and a
/// change of the mix alone moves only the weighted rows.
@Suite(.serialized) struct WhatIfTests {
    static let sweep = FleetFixtures.sweep(seeds: "1..12", matrix: """
        matrix:
          device: [iphone-6-plus, ipad-air-2]
        mix:
          device: {iphone-6-plus: 70%, ipad-air-2: 30%}
        """)

    static func plan(_ dir: URL, _ changes: [String], mix: [String] = [], app: String? = "mail") throws -> WhatIfPlan {
        let file = try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path)
        return try WhatIfPlan(sweep: file, changes: try changes.map { try WorkloadOverride.parse(assignment: $0) },
                              mix: try mix.map { try file.mix(option: $0) }, app: app)
    }

    /// A run's background memory-pressure exits of `app` as MetricKit counts them, by cell and seed.
    static func pressure(_ folder: URL, app: String) throws -> [String: [UInt64: Double]] {
        var out: [String: [UInt64: Double]] = [:]
        for cell in try FleetMetricKit.cells(folder.path).cells {
            for day in cell.days {
                let m = day.apps.first { $0.app == app }!
                out[cell.label, default: [:]][day.seed] = Double(m.background["cumulativeMemoryPressureExitCount"] ?? 0)
            }
        }
        return out
    }

    @Test func theChangedWorldRunsTheBaseSeedsAndEachRowIsThePairedTestOfItsDays() throws {
        let dir = try FleetFixtures.folder(sweep: Self.sweep)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("whatif")
        let result = try Self.plan(dir, ["apps.game.launch.footprint=600MB"]).run(threads: 2, into: out)
        #expect(result.app == "mail" && result.seedCount == 12 && result.changes == ["apps.game.launch.footprint=600MB"])
        for name in ["base/fleet.json", "changed/runs.csv", "metrickit/base/cell-0.json", "metrickit/changed/cell-1.json",
                     "whatif.json", "whatif.md"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
        }
        let base = try Self.pressure(out.appendingPathComponent("base"), app: "mail")
        let new = try Self.pressure(out.appendingPathComponent("changed"), app: "mail")
        #expect(Set(base.keys) == ["device=iphone-6-plus", "device=ipad-air-2"] && base.keys == new.keys)

        // The team's app leads, its background memory-pressure exits first: weighted, then per cell.
        let rows = result.rows.filter { $0.app == "mail" && $0.measure == .memoryPressure }
        #expect(result.rows.first == rows.first && rows.map(\.cell) == ["all", "device=iphone-6-plus", "device=ipad-air-2"])
        #expect(rows.map(\.weighted) == [true, false, false])
        for row in rows.dropFirst() {
            let seeds = base[row.cell]!.keys.sorted()
            #expect(seeds == Array(1...12) && row.pairs == 12)
            let diffs = seeds.map { new[row.cell]![$0]! - base[row.cell]![$0]! }
            let test = PairedTest.wilcoxon(diffs.map { Int64($0) })
            #expect(abs(row.base - seeds.reduce(0) { $0 + base[row.cell]![$1]! } / 12 * 1000) < 1e-9)
            #expect(abs(row.change - test.meanChange * 1000) < 1e-9 && abs(row.ciLow - test.ciLow * 1000) < 1e-9)
            #expect(row.pValue == test.pValue)
            #expect(abs(row.new - row.base - row.change) < 1e-6)
            if row.base > 0 { #expect(abs(row.relativeChange! - row.change / row.base) < 1e-12) }
        }
        // The weighted row: each seed's 70/30 mix of the two cells, in each world.
        let weighted = rows[0]
        let mixed = { (w: [String: [UInt64: Double]], s: UInt64) in 0.7 * w["device=iphone-6-plus"]![s]! + 0.3 * w["device=ipad-air-2"]![s]! }
        let seeds = (1...12).map(UInt64.init)
        #expect(abs(weighted.base - seeds.reduce(0) { $0 + mixed(base, $1) } / 12 * 1000) < 1e-6)
        #expect(abs(weighted.new - seeds.reduce(0) { $0 + mixed(new, $1) } / 12 * 1000) < 1e-6)
        let test = PairedTest.wilcoxon(fractional: seeds.map { mixed(new, $0) - mixed(base, $0) })
        #expect(abs(weighted.ciHigh - test.ciHigh * 1000) < 1e-6 && abs(weighted.pValue - test.pValue) < 1e-9)
        // A bigger game pushes mail out more often.
        #expect(weighted.change > 0 && weighted.pValue < 0.05, "\(weighted)")
        // The team's memory rows are there; whatif.json is the result.
        #expect(result.rows.contains { $0.app == "mail" && $0.measure.key == "averageSuspendedMemory" && $0.cell == "device=ipad-air-2" })
        let written = try JSONDecoder().decode(WhatIfResult.self, from: Data(contentsOf: out.appendingPathComponent("whatif.json")))
        #expect(written == result)
    }

    @Test func aChangeOfTheMixAloneMovesOnlyTheWeightedRows() throws {
        let dir = try FleetFixtures.folder(sweep: Self.sweep)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("mix")
        let result = try Self.plan(dir, [], mix: ["device={iphone-6-plus: 20%, ipad-air-2: 80%}"]).run(threads: 2, into: out)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("changed").path))
        #expect(result.mix == [FleetResult.MixAxis(keyPath: "device", shares: ["iphone-6-plus": 0.2, "ipad-air-2": 0.8])])
        for row in result.rows where !row.weighted {
            #expect(row.change == 0 && row.base == row.new, "\(row)")
        }
        let base = try Self.pressure(out.appendingPathComponent("base"), app: "mail")
        let mean = { (cell: String) in base[cell]!.values.reduce(0, +) / 12 * 1000 }
        let weighted = try #require(result.rows.first { $0.weighted && $0.measure == .memoryPressure })
        #expect(abs(weighted.base - (0.7 * mean("device=iphone-6-plus") + 0.3 * mean("device=ipad-air-2"))) < 1e-6)
        #expect(abs(weighted.new - (0.2 * mean("device=iphone-6-plus") + 0.8 * mean("device=ipad-air-2"))) < 1e-6)
    }

    @Test func theSameWhatIfGivesTheSameBytesWhateverTheThreads() throws {
        let dir = try FleetFixtures.folder(sweep: Self.sweep)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try Self.plan(dir, ["apps.mail.launch.footprint=90MB"])
        _ = try plan.run(threads: 1, into: dir.appendingPathComponent("one"))
        _ = try plan.run(threads: 3, into: dir.appendingPathComponent("three"))
        for name in ["whatif.json", "whatif.md", "metrickit/changed/cell-1.json", "changed/runs.csv"] {
            #expect(try Data(contentsOf: dir.appendingPathComponent("one/\(name)")) == Data(contentsOf: dir.appendingPathComponent("three/\(name)")), "\(name)")
        }
    }

    @Test func badChangesAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try FleetFixtures.folder(sweep: Self.sweep)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: WorkloadError.self) { try Self.plan(dir, ["apps.mial.launch.footprint=60MB"]) }
        #expect(throws: BadInput.self) { try Self.plan(dir, []) }
        #expect(throws: BadInput.self) { try Self.plan(dir, ["apps.game.launch.footprint=600MB"], app: "mial") }
        // The mix option is located in itself, past KEY=.
        let file = try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path)
        let share = try #require(throws: WorkloadError.self) { try file.mix(option: "device={iphone-6-plus: 20%, ipad-air-2: 70%}") }
        #expect(share.file == "--mix device={iphone-6-plus: 20%, ipad-air-2: 70%}" && share.line == 1 && share.column == 8, "\(share)")
        #expect(share.keyPath == "mix.device" && share.message.contains("add up to 90%"), "\(share)")
        let value = try #require(throws: WorkloadError.self) { try file.mix(option: "device={iphone-6: 20%, ipad-air-2: 80%}") }
        #expect(value.line == 1 && value.column == 9 && value.message.contains("'iphone-6' is not a value"), "\(value)")
        let key = try #require(throws: WorkloadError.self) { try file.mix(option: "policy={xnu: 100%}") }
        #expect(key.message.contains("'policy' is not a key of the matrix"), "\(key)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("whatif").path))
    }

    @Test func theFractionalTestIsTheWholeOneOnWholeDifferences() {
        for diffs: [Int64] in [[1, 2, 3, 4, 5], [-1, 2, 3, -4, 5, 6], [1, 1, 0, 1, 1], [0, 0], (0..<120).map { Int64($0 % 7) - 2 }] {
            #expect(PairedTest.wilcoxon(diffs) == PairedTest.wilcoxon(fractional: diffs.map(Double.init)))
        }
    }
}
