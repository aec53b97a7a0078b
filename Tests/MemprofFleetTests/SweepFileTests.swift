import Foundation
import MemprofCore
import MemprofInput
import MemprofWorkload
import Testing
@testable import MemprofFleet

/// Bad sweep files get located errors (file:line:col, key path, "did you mean").
struct SweepFileTests {
    func error(_ text: String) -> String {
        do {
            let dir = try FleetFixtures.folder(sweep: text)
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try FleetFixtures.plan(dir)
            return "no error"
        } catch let e as WorkloadError {
            return "\(URL(fileURLWithPath: e.file).lastPathComponent):\(e.line):\(e.column): \(e.keyPath): \(e.message)"
        } catch { return "\(error)" }
    }

    /// `set:` gives every cell keys before its matrix values; `mix:` a share for every value of a
    /// matrix key, adding up to 100%.
    @Test func setAndMix() throws {
        let mix = "mix:\n  device: {iphone-6-plus: 70%, ipad-air-2: 30%}\n"
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(extra: "set: {apps.safari.maxFootprint: 280MB}\n" + mix))
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try FleetFixtures.plan(dir)
        #expect(plan.fixed.map(\.keyPath) == ["apps.safari.maxFootprint"])
        #expect(plan.cells.count == 4 && plan.cells.allSatisfy { cell in
            cell.workload.workload.apps.first { $0.id == "safari" }?.maxFootprint == 280 * .megabyte
        })
        #expect(plan.sweep.mix == [SweepFile.Mix(keyPath: "device", shares: [("iphone-6-plus", 0.7), ("ipad-air-2", 0.3)])])
        #expect(error(FleetFixtures.sweep(extra: "mix:\n  policy: {xnu: 100%}\n"))
            .hasPrefix("sweep.yaml:9:3: mix: 'policy' is not a key of the matrix"))
        #expect(error(FleetFixtures.sweep(extra: "mix:\n  device: {iphone-6-plus: 70%, ipad-air-2: 20%}\n"))
            .hasSuffix("mix.device: the shares of device add up to 90%, not 100%"))
        #expect(error(FleetFixtures.sweep(extra: "mix:\n  device: {iphone-6-plus: 100%}\n"))
            .hasSuffix("mix.device: no share for ipad-air-2; give every value of device its share"))
        #expect(error(FleetFixtures.sweep(extra: "mix:\n  device: {iphone-6-plus: 70%, ipad-air2: 30%}\n"))
            .contains("'ipad-air2' is not a value of the matrix's device (iphone-6-plus, ipad-air-2)"))
        #expect(error(FleetFixtures.sweep(extra: "set: {apps.safari.maxFootprnt: 280MB}\n")).contains("maxFootprnt"))
    }

    /// `per:` gives the cells with one matrix value keys of their own: after `set:`, before
    /// `--set` and the matrix values; the replay lines and fleet.json's cells carry them.
    @Test func perCellSets() throws {
        let per = "set: {apps.safari.maxFootprint: 280MB}\nper:\n  device:\n"
            + "    ipad-air-2: {apps.safari.maxFootprint: 300MB, apps.maps.launch.footprint: 200MB}\n"
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..2", extra: per))
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try FleetFixtures.plan(dir)
        func app(_ cell: SweepPlan.Cell, _ id: String) -> AppSpec? { cell.workload.workload.apps.first { $0.id == id } }
        #expect(plan.cells.map { app($0, "safari")?.maxFootprint } == [280, 280, 300, 300].map { $0 * .megabyte })
        #expect(plan.cells.map { app($0, "maps")?.launchFootprint } == [220, 220, 200, 200].map { $0 * .megabyte })
        #expect(plan.overrides(of: plan.cells[2]).map { "\($0.keyPath)=\($0.value)" } == [
            "apps.safari.maxFootprint=280MB", "apps.safari.maxFootprint=300MB", "apps.maps.launch.footprint=200MB",
            "device=ipad-air-2", "apps.game.launch.footprint=420MB"])
        // `--set` comes after the cell's own keys.
        let option = WorkloadOverride(keyPath: "apps.safari.maxFootprint", value: "310MB", origin: .init(file: "--set"))
        let set = try SweepPlan(sweep: plan.sweep, overrides: [option])
        #expect(set.cells.allSatisfy { app($0, "safari")?.maxFootprint == 310 * .megabyte })
        // Another per: is another sweep.
        var other = plan.sweep
        other.per[0].values[0].overrides[1].value = "210MB"
        #expect(try SweepPlan(sweep: other).fingerprint != plan.fingerprint)
        let result = try FleetSweep.run(plan, threads: 1, into: dir.appendingPathComponent("out"))
        #expect(result.cells[2].overrides.map(\.value) == ["280MB", "300MB", "200MB", "ipad-air-2", "420MB"])
        #expect(result.cells[0].overrides.map(\.value) == ["280MB", "iphone-6-plus", "420MB"])
        let replay = try #require(result.cells[3].metrics.values.first { !$0.worst.isEmpty }?.worst.first?.replay)
        #expect(replay.contains("--set apps.maps.launch.footprint=200MB --device ipad-air-2"), "\(replay)")
        let csv = try String(contentsOf: dir.appendingPathComponent("out/runs.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("run,cell,seed,device,apps.game.launch.footprint,"))
    }

    /// `per:`'s errors are located at the key or value that is wrong, exit 2 as every sweep error.
    @Test func perCellSetErrors() {
        func per(_ body: String) -> String { error(FleetFixtures.sweep(extra: "per:\n" + body)) }
        #expect(error(FleetFixtures.sweep(extra: "per: [1]\n")).hasPrefix("sweep.yaml:8:6: per: expected a mapping of matrix keys"))
        #expect(per("  policy: {xnu: {apps.mail.launch.footprint: 50MB}}\n")
            .hasPrefix("sweep.yaml:9:3: per: 'policy' is not a key of the matrix; per gives the keys a cell takes by a matrix key's value "
                + "(the matrix has device, apps.game.launch.footprint)"))
        #expect(per("  device: [ipad-air-2]\n").hasPrefix("sweep.yaml:9:11: per.device: expected the keys each value of device sets"))
        let unknown = per("  device:\n    ipad-air3: {apps.mail.launch.footprint: 50MB}\n")
        #expect(unknown.hasPrefix("sweep.yaml:10:5: ") && unknown.contains("'ipad-air3' is not a value of the matrix's device (iphone-6-plus, ipad-air-2)"),
                "\(unknown)")
        #expect(per("  device:\n    ipad-air-2: 50MB\n").hasPrefix("sweep.yaml:10:17: per.device.ipad-air-2: expected a mapping of key paths"))
        #expect(per("  device:\n    ipad-air-2: {apps.game.launch.footprint: 50MB}\n")
            == "sweep.yaml:10:18: per.device.ipad-air-2: 'apps.game.launch.footprint' is a key of the matrix: a cell's matrix value sets it; "
            + "vary it in the matrix or set another key")
        #expect(per("  device:\n    ipad-air-2: {device.ram: 2GB}\n").contains("10:18: per.device.ipad-air-2: 'device.ram' lies under the matrix key device"))
        #expect(per("  apps.game.launch.footprint:\n    420MB: {apps.game: {launch: {footprint: 1MB}}}\n")
            .contains("10:13: per.apps.game.launch.footprint.420MB: 'apps.game' holds the matrix key apps.game.launch.footprint"))
        #expect(per("  device:\n    ipad-air-2: {apps.mail.launch.footprnt: 50MB}\n")
            == "sweep.yaml:10:18: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)")
        #expect(per("  device:\n    ipad-air-2: {apps.mail..launch: 50MB}\n").hasPrefix("sweep.yaml:10:18: apps.mail..launch: '' is not a key"))
        let refused = per("  device:\n    ipad-air-2: {apps.mail.launch.footprint: lots}\n")
        #expect(refused.hasPrefix("sweep.yaml:10:46: apps.mail.launch.footprint: "), "\(refused)")
        #expect(per("  device:\n    ipad-air-2: {apps.mail.launch.footprint: 50MB}\n  apps.game.launch.footprint:\n"
            + "    520MB: {apps.mail.launch.footprint: 60MB}\n")
            .hasPrefix("sweep.yaml:12:13: per.apps.game.launch.footprint.520MB: 'apps.mail.launch.footprint' is also set under per.device"))
        #expect(per("  device:\n    ipad-air-2: {apps.mail.launch.footprint: 50MB}\n") == "no error")
    }

    /// A matrix's device values keep the OS the workload states; a device that cannot run it is
    /// refused at its matrix value before anything runs.
    @Test func matrixDevicesKeepTheStatedOS() throws {
        let workload = FleetFixtures.workload.replacingOccurrences(of: "device: iphone-6-plus",
                                                                   with: "device: {preset: iphone-15, osVersion: \"iOS 18.5\"}")
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(matrix: "matrix:\n  device: [iphone-11, iphone-13]"))
        defer { try? FileManager.default.removeItem(at: dir) }
        try workload.write(to: dir.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
        let plan = try FleetFixtures.plan(dir)
        #expect(plan.cells.map { $0.workload.workload.device.osVersion } == ["iOS 18.5", "iOS 18.5"])
        #expect(plan.cells.map { $0.workload.workload.device.name } == ["iphone-11 (modified)", "iphone-13 (modified)"])
        try FleetFixtures.sweep(matrix: "matrix:\n  device: [iphone-11, iphone-6s]")
            .write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        #expect(throws: WorkloadError.self) { try FleetFixtures.plan(dir) }
        do { _ = try FleetFixtures.plan(dir) } catch let e as WorkloadError {
            #expect(e.line == 6 && e.column == 23 && e.message.contains("the workload states osVersion 'iOS 18.5'"))
        }
    }

    @Test func seeds() {
        #expect(error(FleetFixtures.sweep(seeds: "10..1")).hasPrefix("sweep.yaml:4:8: seeds: the range 10..1 is empty"))
        #expect(error(FleetFixtures.sweep(seeds: "1...x")).hasPrefix("sweep.yaml:4:8: seeds: expected a range such as 1..1000"))
        #expect(error(FleetFixtures.sweep(seeds: "[]")).hasPrefix("sweep.yaml:4:8: seeds: the list of seeds is empty"))
        #expect(error(FleetFixtures.sweep(seeds: "[1, 2, 1]")).hasPrefix("sweep.yaml:4:15: seeds[2]: seed 1 appears twice"))
        #expect(error(FleetFixtures.sweep(seeds: "0..2000000")).contains("more than 1000000 seeds"))
        #expect(error(FleetFixtures.sweep(seeds: "[1, 2, 3]")) == "no error")
    }

    /// `seeds` sets each run's seed: a matrix of seeds would be overridden in every cell.
    @Test func aMatrixOfSeedsIsRefused() {
        let e = error(FleetFixtures.sweep(matrix: "matrix:\n  seed: [1, 2]"))
        #expect(e.hasPrefix("sweep.yaml:6:3: "), "\(e)")
        #expect(e.contains("the matrix cannot vary 'seed': every cell runs each seed of 'seeds'"), "\(e)")
    }

    @Test func matrixKeysAndValues() {
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  apps.game.launch.footprnt: [1MB]"))
            == "sweep.yaml:6:3: apps.game.launch: unknown key 'footprnt' (did you mean 'footprint'?)")
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  apps.gmae.launch.footprint: [1MB]"))
            .hasPrefix("sweep.yaml:6:3: apps.gmae.launch.footprint: no app 'gmae' in the workload (did you mean 'game'?)"))
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  device: [iphone-6-plus, ipad-air2]"))
            .hasPrefix("sweep.yaml:6:27: device: unknown device 'ipad-air2' (did you mean 'ipad-air-2'?); known: iphone-6-plus, ipad-air-2, macbook-pro-2015, "))
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  apps.game.launch.footprint: [1MB, 40XB]"))
            .hasPrefix("sweep.yaml:6:37: apps.game.launch.footprint: '40XB' has unknown unit 'XB'"))
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  device: []")).hasPrefix("sweep.yaml:6:11: matrix.device: expected a non-empty list"))
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  policy: [xnu, xnu]")).hasPrefix("sweep.yaml:6:17: matrix.policy: the value 'xnu' appears twice"))
        #expect(error(FleetFixtures.sweep(matrix: "matrix:\n  apps..x: [1]")).hasPrefix("sweep.yaml:6:3: apps..x: '' is not a key"))
    }

    /// A matrix value is an override's text, written out in flow style (aliases repeated where
    /// they appear); one that would be longer than the bound is refused at its place, not expanded.
    @Test func matrixValuesAsFlowText() throws {
        let text = """
            memprof: 1
            sweep: s
            workload: phone-day
            seeds: 1..2
            matrix:
              apps.mail.onMemoryWarning: [{release: 'x y'}, [a, &b {c: [1, 2]}], *b]
            """
        let sweep = try SweepFile.parse(text, file: "sweep.yaml")
        #expect(sweep.axes[0].values.map(\.value) == ["{release: x y}", "[a, {c: [1, 2]}]", "{c: [1, 2]}"])
        // An alias's value is its anchored node, at that node's place.
        #expect(sweep.axes[0].values.map(\.origin.valueColumn) == [31, 49, 53])
        // Each value ten times the one before: 100, 1,020, 10,220 and 102,220 bytes as flow text.
        let words = Array(repeating: "xxxxxxxx", count: 10).joined(separator: ", ")
        let bomb = text.replacingOccurrences(of: " [{release: 'x y'}, [a, &b {c: [1, 2]}], *b]", with: "\n    - &a0 [\(words)]\n"
            + (1...3).map { "    - &a\($0) [" + Array(repeating: "*a\($0 - 1)", count: 10).joined(separator: ", ") + "]" }.joined(separator: "\n"))
        let e = try #require(throws: WorkloadError.self) { try SweepFile.parse(bomb, file: "sweep.yaml") }
        #expect(e.description == "sweep.yaml:10:7: matrix.apps.mail.onMemoryWarning[3]: the value is longer than 65536 bytes as flow text")
    }

    @Test func topLevel() {
        #expect(error(FleetFixtures.sweep(extra: "seed: 3")) == "sweep.yaml:8:1: : unknown key 'seed' (did you mean 'seeds'?)")
        #expect(error("memprof: 1\nsweep: Bad Name\nworkload: tiny.yaml\nseeds: 1..2")
            .hasPrefix("sweep.yaml:2:8: sweep: 'Bad Name' is not a valid name"))
        #expect(error("memprof: 1\nsweep: x\nworkload: nowhere\nseeds: 1..2").hasPrefix("sweep.yaml:3:11: workload: no such file, and no built-in workload named 'nowhere'"))
        #expect(error("memprof: 1\nsweep: x\nworkload: tiny.yaml").hasPrefix("sweep.yaml:1:1: : missing key 'seeds'"))
        // Located like a workload's errors: YAML syntax, bytes that are not UTF-8, an
        // empty file; and the worst count through the workload reader's range check.
        #expect(error("memprof: [").hasPrefix("sweep.yaml:2:1: : invalid YAML"))
        #expect(error("memprof: 1\nsweep: x\u{7}\n").hasPrefix("sweep.yaml:2:9: : control character 0x07"))
        #expect(error("# nothing\n").hasPrefix("sweep.yaml:1:1: : the file is empty"))
        #expect(error(FleetFixtures.sweep(extra: "worst: 101")).hasPrefix("sweep.yaml:8:8: worst: "))
        #expect(error(FleetFixtures.sweep(extra: "memprof: 2")).hasPrefix("sweep.yaml:1:1: : duplicate key 'memprof'"))
    }

    @Test func shardsParse() {
        #expect(SweepPlan.Shard.parse("2/8") == SweepPlan.Shard(index: 2, count: 8))
        for bad in ["5/4", "0/4", "1/0", "a/b", "1/2/3", "", "-1/4"] { #expect(SweepPlan.Shard.parse(bad) == nil) }
    }
}

/// Sweep files as editors save them.
struct SweepFileEncodingTests {
    /// A UTF-8 byte order mark (Windows editors write one) is not part of the text.
    @Test func aByteOrderMarkIsSkipped() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.yaml")
        try Data([0xEF, 0xBB, 0xBF] + Array(FleetFixtures.sweep().utf8)).write(to: file)
        let sweep = try SweepFile.load(file.path)
        #expect(sweep.name == "tiny" && sweep.seeds.count == 24 && sweep.axes.count == 2)
    }

    /// `--shard` names its bound when N is above it.
    @Test func aShardCountAboveTheBoundIsNamed() {
        #expect(SweepPlan.Shard.parse("2/8") == SweepPlan.Shard(index: 2, count: 8))
        #expect(SweepPlan.Shard.problem(with: "1/1000000") == "--shard 1/1000000: N is at most 100000")
        #expect(SweepPlan.Shard.problem(with: "9/8") == "--shard 9/8: expected K/N with 1 ≤ K ≤ N, such as 2/8")
        #expect(SweepPlan.Shard.problem(with: "x") == "--shard x: expected K/N with 1 ≤ K ≤ N, such as 2/8")
        #expect(SweepPlan.Shard.problem(with: "3/8") == nil)
    }
}
