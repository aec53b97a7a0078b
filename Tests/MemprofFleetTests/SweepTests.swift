import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofReport
import MemprofTestSupport
import MemprofWorkload
import Testing
@testable import MemprofFleet

@Suite(.serialized) struct SweepTests {
    @Test func theMatrixMakesEveryCombinationACell() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try FleetFixtures.plan(dir)
        #expect(plan.cells.map(\.label) == [
            "device=iphone-6-plus apps.game.launch.footprint=420MB", "device=iphone-6-plus apps.game.launch.footprint=520MB",
            "device=ipad-air-2 apps.game.launch.footprint=420MB", "device=ipad-air-2 apps.game.launch.footprint=520MB"])
        #expect(plan.cells[3].workload.workload.device.name == "ipad-air-2")
        #expect(plan.cells[3].workload.workload.apps[2].launchFootprint == 520 * 1024 * 1024)
        #expect(plan.runCount == 96)
    }

    @Test func theThreadCountNeverChangesTheResult() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try FleetFixtures.plan(dir)
        var outputs: [(json: [String: NSObject], csv: Data, bytes: String)] = []
        for threads in [1, 2, 5] {
            let out = dir.appendingPathComponent("t\(threads)")
            _ = try FleetSweep.run(plan, threads: threads, into: out)
            let c = try FleetFixtures.comparable(out)
            outputs.append((c.json, c.csv, try FleetFixtures.bytesWithoutHost(out)))
        }
        #expect(outputs[0].json == outputs[1].json && outputs[0].json == outputs[2].json)
        #expect(outputs[0].csv == outputs[1].csv && outputs[0].csv == outputs[2].csv)
        #expect(outputs[0].bytes == outputs[2].bytes)
    }

    /// Each statistic agrees with the runs.csv column it summarises, and with a replay of the worst seed.
    @Test func statisticsMatchThePerRunValues() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try FleetFixtures.plan(dir)
        let result = try FleetSweep.run(plan, threads: 2, into: dir.appendingPathComponent("out"))
        let (header, labelHeader, rows) = try RunsCSV.read(Array(try Data(contentsOf: dir.appendingPathComponent("out/runs.csv"))),
                                                           labels: plan.sweep.axes.count)
        #expect(rows.count == 96)
        // A column per matrix key holds each run's cell values.
        #expect(labelHeader == plan.sweep.axes.map(\.keyPath) && !labelHeader.isEmpty)
        for row in rows { #expect(row.labels == result.cells[row.cell].values(matrixKeys: labelHeader.count)) }
        // Days with a memory kill: runs with an app's memory kill (any reason of ExitReason.memoryKills),
        // of any app and of each.
        let reasons = ExitReason.memoryKills.map { "exits.\($0.rawValue)" }
        let kills = header.indices.filter { c in MetricPath(header[c]).app != nil && reasons.contains(MetricPath(header[c]).relative) }
        #expect(!kills.isEmpty)
        for cell in result.cells {
            let cellRows = rows.filter { $0.cell == cell.index }
            let days = cellRows.filter { row in kills.contains { (row.values[$0 - 3] ?? 0) > 0 } }.count
            #expect(cell.memoryKillDays?.all == Double(days) / Double(cellRows.count))
            let mailKills = reasons.compactMap { header.firstIndex(of: "apps.mail.\($0)") }
            let mailDays = cellRows.filter { row in mailKills.contains { (row.values[$0 - 3] ?? 0) > 0 } }.count
            #expect(cell.memoryKillDays?.apps["mail"] == Double(mailDays) / Double(cellRows.count))
        }
        for name in ["summary.evictions", "summary.coldLaunches", "apps.mail.evictions", "summary.peakUsedBytes"] {
            let column = header.firstIndex(of: name)! - 3
            for cell in result.cells {
                let values = rows.filter { $0.cell == cell.index }.map { $0.values[column]! }.sorted()
                let stats = try #require(cell.metrics[name])
                #expect(stats.count == values.count)
                #expect(stats.min == values.first && stats.max == values.last)
                #expect(abs(stats.mean - Double(values.reduce(0, +)) / Double(values.count)) < 1e-9)
                let exactP50 = values[Int((0.5 * Double(values.count)).rounded(.up)) - 1]
                #expect(Double(stats.p50) <= Double(exactP50) && Double(stats.p50) >= Double(exactP50) * 0.996)
                if stats.kind == .count {
                    #expect(stats.shareAboveZero == Double(values.filter { $0 > 0 }.count) / Double(values.count))
                }
                if let worst = stats.worst.first {
                    #expect(worst.value == values.last)
                    #expect(worst.replay.hasPrefix("memprof run \(dir.path)/tiny.yaml --seed \(worst.seed) --device "))
                    // The replay is the same run: simulate it as memprof run would and read the metric.
                    let overrides = cell.overrides.map { WorkloadOverride(keyPath: $0.keyPath, value: $0.value, origin: .init(file: "")) }
                    let loaded = try WorkloadLoader.load(dir.appendingPathComponent("tiny.yaml").path, overrides: overrides)
                    let metrics = FleetRun.metrics(loaded.workload, seed: worst.seed, measured: MeasuredWork())
                    #expect(metrics[name] == Double(worst.value))
                }
            }
        }
    }

    /// A mix weights each cell by its population share; each population (the cells that differ
    /// only in mixed values) has the share-weighted means and shares of its cells.
    @Test func weightedTotalsOfADeviceMix() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..8", extra: "mix:\n  device: {iphone-6-plus: 70%, ipad-air-2: 30%}\n"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 2, into: dir.appendingPathComponent("out"))
        // Cells: device varies slowest: (6 Plus, 420MB), (6 Plus, 520MB), (Air 2, 420MB), (Air 2, 520MB).
        #expect(result.cells.map(\.populationShare) == [0.7, 0.7, 0.3, 0.3])
        let totals = try #require(result.weighted)
        #expect(totals.map(\.label) == ["apps.game.launch.footprint=420MB", "apps.game.launch.footprint=520MB"])
        #expect(totals.map(\.cells) == [[0, 2], [1, 3]])
        for (total, (a, b)) in zip(totals, [(0, 2), (1, 3)]) {
            for name in ["summary.evictions", "summary.peakUsedBytes", "apps.mail.evictions"] {
                let expected = 0.7 * result.cells[a].metrics[name]!.mean + 0.3 * result.cells[b].metrics[name]!.mean
                #expect(abs(total.metrics[name]!.mean - expected) < 1e-9)
            }
            let share = 0.7 * result.cells[a].metrics["summary.evictions"]!.shareAboveZero! + 0.3 * result.cells[b].metrics["summary.evictions"]!.shareAboveZero!
            #expect(abs(total.metrics["summary.evictions"]!.shareAboveZero! - share) < 1e-9)
            let days = 0.7 * result.cells[a].memoryKillDays!.all + 0.3 * result.cells[b].memoryKillDays!.all
            #expect(abs(total.memoryKillDays!.all - days) < 1e-9)
        }
        // fleet.json as JSONEncoder writes it, and the summary's weighted rows and app table.
        #expect(try result.encoded() == result.referenceEncoded())
        let printed = FleetSummary.render(result, apps: ["mail"])
        #expect(printed.contains("weighted: apps.game.launch.footprint=420MB") && printed.contains("mail, per cell:"))
        #expect(printed.contains("days with a memory kill") && printed.contains("memory kills a day"))
        let html = try String(contentsOf: dir.appendingPathComponent("out/fleet.html"), encoding: .utf8)
        #expect(html.contains("<th>population share</th>") && html.contains("weighted: apps.game.launch.footprint=520MB"))
        #expect(html.contains(">iphone-6-plus · 420MB</th>") && !html.contains(">cell 0<"))
        #expect(html.contains("<section id=\"kill-heatmap\">") && html.contains("<section id=\"apps\">"))
        // The kill heatmap counts every memory-kill reason, and its cells say which.
        #expect(html.contains("killed for memory (memoryPressure, memoryLimit, highwater, idleExit, longIdleExit, compressorSpaceShortage) at least once"))
        #expect(!html.contains("(memoryPressure or memoryLimit)"))
    }

    @Test func theMetricsAreCompareNamesAndTheSameForEverySeed() throws {
        let loaded = try WorkloadLoader.parse(FleetFixtures.workload, file: "tiny.yaml")
        let names = Set(FleetRun.metrics(loaded.workload, seed: 1, measured: MeasuredWork()).keys)
        #expect(names.contains("summary.evictions") && names.contains("apps.mail.exits.memoryLimit"))
        for seed in 2...12 as ClosedRange<UInt64> {
            #expect(Set(FleetRun.metrics(loaded.workload, seed: seed, measured: MeasuredWork()).keys) == names)
        }
    }
}

/// The sweep reads metrics field by field; the names and values are compare's (which flattens the
/// report model through Encodable), for every built-in and several seeds: a field added to the
/// report's summary or apps and not to `RunMetrics` fails here.
struct RunMetricsTests {
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func sameMetricsAsCompare(_ name: String) throws {
        let loaded = try WorkloadLoader.load(name)
        for seed in [loaded.workload.seed, 7, 1234] {
            let report = try ReportFixture.builtin(name, seed: seed)
            #expect(FleetRun.metrics(loaded.workload, seed: seed, measured: MeasuredWork()) == MetricExtractor.metrics(of: report))
        }
    }

    /// BGTaskScheduler's counts and an app refresh task's headroom, which no built-in declares:
    /// news's four refresh tasks and two processing tasks all expire (ScheduledTaskTests works
    /// them out), and its 45 s refresh handler is 15 s over the 30 s window.
    @Test func scheduledTasksAsCompareNamesThem() throws {
        let loaded = try WorkloadLoader.parse(WorkloadFixtures.scheduledTasks, file: "fixture.yaml")
        let metrics = FleetRun.metrics(loaded.workload, seed: loaded.workload.seed, measured: MeasuredWork())
        #expect(metrics == MetricExtractor.metrics(of: try ReportFixture.report(text: WorkloadFixtures.scheduledTasks)))
        let expected: [String: Double] = [
            "summary.refreshTasks.started": 4, "summary.refreshTasks.completed": 0, "summary.refreshTasks.expired": 4,
            "summary.processingTasks.started": 2, "summary.processingTasks.expired": 2,
            "apps.news.refreshTasks.expired": 4, "apps.news.processingTasks.expired": 2,
            "apps.news.headroom.refresh.spareUs": -15_000_000,
        ]
        for (name, value) in expected { #expect(metrics[name] == value, "\(name)") }
        #expect(metrics["apps.game.refreshTasks.expired"] == nil)
        #expect(MetricDirections.direction(of: "summary.refreshTasks.expired") == .higherIsWorse)
        #expect(MetricDirections.direction(of: "apps.news.processingTasks.completed") == .lowerIsWorse)
        #expect(MetricDirections.direction(of: "summary.processingTasks.started") == .neutral)
    }
}

/// Sweeps never run real work per seed (spec §12): only `timing: measured` handlers are measured,
/// once per (app, handler), and every run takes that measurement.
struct MeasuredWorkTests {
    @Test func measuredOncePerAppAndHandlerAndReused() throws {
        let workload = FleetFixtures.workload
            .replacingOccurrences(of: "fetch: {interval: 15m, time: 4s}",
                                  with: "fetch: {interval: 15m, time: 4s, timing: measured, work: {kernel: checksum, size: 1MB}}")
            .replacingOccurrences(of: "launch: {footprint: 220MB}",
                                  with: "launch: {footprint: 220MB}\n    modes: [fetch]\n    fetch: {interval: 20m, time: 2s, work: {kernel: checksum, size: 1MB}}")
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..4", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        try workload.write(to: dir.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
        let plan = try FleetFixtures.plan(dir)
        let measured = MeasuredWork.measure(plan)
        // mail's fetch is measured; maps' fetch keeps its declared time and runs nothing.
        #expect(Array(measured.microseconds.keys) == ["mail/fetch"])
        var performer = measured
        let spec = plan.cells[0].workload.workload.apps[0].fetch!.handler.work!
        #expect(performer.perform(spec, app: "mail", handler: .fetch) == measured.microseconds["mail/fetch"])
        let result = try FleetSweep.run(plan, threads: 2, into: dir.appendingPathComponent("out"))
        #expect(Set(result.host.measuredWorkUs.keys) == ["mail/fetch"])
        #expect(result.runsFile.rows == 4)
    }

    /// `allocates: measured` (spec §8.1): the user's program runs once, and its measured peak
    /// (memprof-example-c holds 40 MiB) is the fetch's demand in every run of the sweep: on a
    /// device whose app limit it passes, every fetch of every run kills mail with memoryLimit.
    @Test func aMeasuredPeakIsTheDemandInEveryRun() throws {
        let example = Repository.builtProduct("memprof-example-c")
        for (device, kills) in [("iphone-6-plus", false), ("{preset: iphone-6-plus, appLimit: 60MB}", true)] {
            let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..4", matrix: ""))
            defer { try? FileManager.default.removeItem(at: dir) }
            try """
                memprof: 1
                name: measured-fetch
                duration: 1h
                device: \(device)
                apps:
                  mail:
                    launch: {footprint: 45MB}
                    onBackground: {release: 10MB}
                    modes: [fetch]
                    fetch: {interval: 15m, time: 4s, allocates: measured, work: {command: [\(example)]}}
                script:
                  - {at: 0s, open: mail}
                  - {at: 1m, home: true}
                """.write(to: dir.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
            let plan = try FleetFixtures.plan(dir)
            let measured = MeasuredWork.measure(plan)
            let peak = try #require(measured.peakBytes["mail/fetch"])
            #expect(peak >= 40 << 20 && peak < 41 << 20)
            let result = try FleetSweep.run(plan, threads: 2, into: dir.appendingPathComponent("out"))
            #expect(result.host.measuredWorkPeakBytes == ["mail/fetch": peak])
            let cell = try #require(result.cells.first)
            let limitKills = try #require(cell.metrics["apps.mail.exits.memoryLimit"])
            let completed = try #require(cell.metrics["apps.mail.fetches.completed"])
            let peakFootprint = try #require(cell.metrics["apps.mail.peakFootprintBytes"])
            if kills {
                // 35 MB in the background + 40 MiB passes 60 MB: each of the three fetches (at 16,
                // 31 and 46 minutes, relaunching mail in the background) kills it.
                #expect(limitKills.min == 3 && limitKills.max == 3 && completed.max == 0)
            } else {
                #expect(limitKills.max == 0 && completed.min >= 3)
                #expect(peakFootprint.min == 35 << 20 + peak && peakFootprint.max == peakFootprint.min)
            }
        }
    }
}

/// fleet.json is written by hand for speed; it is byte for byte what `JSONEncoder` writes.
struct FleetJSONTests {
    @Test func sameBytesAsJSONEncoderForASweepAndAShard() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for shard in [nil, SweepPlan.Shard(index: 2, count: 3)] {
            let result = try FleetSweep.run(try FleetFixtures.plan(dir, shard: shard), threads: 2,
                                            into: dir.appendingPathComponent("out"))
            #expect(try result.encoded() == result.referenceEncoded())
            #expect(try FleetResult.decode(try result.encoded()) == result)
        }
    }

    @Test func sameBytesForAwkwardNumbersAndStrings() throws {
        let dir = try FleetFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var result = try FleetSweep.run(try FleetFixtures.plan(dir), threads: 1, into: dir.appendingPathComponent("out"))
        let doubles = [0.1, 1.0 / 3, -0.0, 1e-7, 123456.789, 1e15, 999_999_999_999_999, 1e16, 2.5e20, -42, 0]
        let names = result.cells[0].metrics.keys.sorted().prefix(doubles.count)
        for (name, value) in zip(names, doubles) {
            result.cells[0].metrics[name]?.mean = value
            result.cells[0].metrics[name]?.sd = value.magnitude
            result.cells[0].metrics[name]?.shareAboveZero = value
        }
        result.cells[0].label = "quote \" slash / back \\ tab \t é \u{1}"
        result.host.wallMs = 1234.5
        result.host.measuredWorkUs = ["mail/fetch": 12, "maps/push": -3]
        result.host.measuredWorkPeakBytes = ["mail/fetch": 1 << 40]
        #expect(try result.encoded() == result.referenceEncoded())
        result.cells[0].metrics[result.cells[0].metrics.keys.first!]?.mean = .nan
        #expect(throws: EncodingError.self) { try result.encoded() }
    }
}

struct FleetHostTests {
    @Test func timestampsAsISO8601DateFormatterWritesThem() {
        let formatter = ISO8601DateFormatter()
        for seconds in [0, 951_782_400.5, 1_795_000_000, 1_795_999_999.999, 4_102_444_799] as [TimeInterval] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(FleetResult.utcTimestamp(date) == formatter.string(from: date))
        }
    }
}
