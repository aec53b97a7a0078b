import Foundation
import MemprofBudgets
import MemprofCalibrate
import MemprofCompare
import MemprofCore
import MemprofField
import MemprofFleet
import MemprofInput
import MemprofYAMLReader
import MemprofReport
import MemprofReportReader
import MemprofRun
import MemprofWorkload

/// A parser of untrusted input under fuzzing: it takes any bytes and must only ever return or
/// throw — a trap, a hang or unbounded memory is a bug. Every parser memprof has gets one
/// (add yours to ``FuzzTargets/all``, with seeds).
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz.sh --target` and `MEMPROF_FUZZ_TARGET` use.
    public var name: String
    /// Runs the parser (and what reads its result) on one input; true when the input was accepted.
    public var run: @Sendable (Data) -> Bool
    /// The starting corpus: every built-in workload, baseline report and test fixture that fits.
    public var seeds: @Sendable () -> [Data]
}

public enum FuzzTargets {
    public static let all: [FuzzTarget] = [workload, yaml, sweep, thresholds, budget, report, plainJSON, fleet, metrickit, calibration, fieldJSON]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The workload parser (YAML and JSON) and the up-front work estimate; workloads that pass
    /// both and are small are also simulated, so the engine sees whatever the parser lets through.
    public static let workload = FuzzTarget(name: "workload", run: { data in
        guard let text = try? InputText.decode(data, file: "fuzz.yaml"),
              let loaded = try? WorkloadLoader.parse(text, file: "fuzz.yaml") else { return false }
        let estimate = WorkEstimate(loaded.workload)
        guard (try? estimate.check(.default, file: "fuzz.yaml")) != nil else { return false }
        if estimate.occurrences < 5_000, loaded.workload.durationUs <= 48 * 3_600_000_000 {
            var simulator = Simulator(workload: loaded.workload, options: .init(checksInvariants: true))
            let result = simulator.run()
            _ = Report(result: result, workloadSha256: loaded.sha256, source: "fuzz",
                       host: .current(simulationWallMs: 0, processedOccurrences: 0), profile: nil)
        }
        return true
    }, seeds: {
        BuiltinWorkloads.all.map { Data($0.yaml.utf8) } + [Data(Seeds.processesExample.utf8)]
            + Seeds.files(under: "Tests", named: { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") })
    })

    /// The one YAML composer (`YAMLTree`, from libyaml's events) and the node reader every YAML
    /// file is read through: each node is read as every kind of value a file may hold (a
    /// bounded number of nodes, so an alias bomb is not walked to its end).
    public static let yaml = FuzzTarget(name: "yaml", run: { data in
        guard let text = try? InputText.decode(data, file: "y.yaml"),
              let root = try? NodeReader.root(of: text, file: "y.yaml") else { return false }
        var pending = [root]
        var visits = 0
        while let node = pending.popLast(), visits < 10_000 {
            visits += 1
            _ = (node.kind, node.path, node.line, node.column, node.flowText()?.utf8.count)
            if node.isScalar {
                _ = (try? node.int(), try? node.bool(), try? node.fraction(), try? node.percentage())
                _ = (try? node.positiveNumber(max: 1e12), try? node.duration(), try? node.size(), try? node.rate())
            } else if let items = try? node.sequence() {
                pending += items
            } else if let pairs = node.keysAndValues {
                pending += pairs.flatMap { [$0.key, $0.value] }
            }
        }
        return true
    }, seeds: {
        workload.seeds() + Seeds.sweepExamples.map { Data($0.utf8) } + Seeds.thresholdExamples.map { Data($0.utf8) }
            + Seeds.budgetExamples.map { Data($0.utf8) }
    })

    /// The sweep file (spec §12), and the plan of its cells (each cell's workload loaded and
    /// checked) when the matrix is small.
    public static let sweep = FuzzTarget(name: "sweep", run: { data in
        guard let text = try? InputText.decode(data, file: "s.yaml"),
              let sweep = try? SweepFile.parse(text, file: "s.yaml") else { return false }
        let cells = sweep.axes.reduce(1) { $0 * max(1, $1.values.count) }
        if cells <= 8 { _ = try? SweepPlan(sweep: sweep, shard: SweepPlan.Shard(index: 1, count: 2)) }
        return true
    }, seeds: {
        Seeds.sweepExamples.map { Data($0.utf8) }
    })

    /// A fleet result as `merge`, `compare` and `export` read it (spec §12): fleet.json and
    /// runs.csv in one input, fleet.json first, then a line `--- runs.csv`; checked, tallied,
    /// written again as fleet.json and fleet.html, and made into MetricKit payloads.
    public static let fleet = FuzzTarget(name: "fleet", run: { data in
        let bytes = [UInt8](data)
        let separator = Array(Seeds.fleetSeparator.utf8)
        guard let cut = bytes.firstRange(of: separator) else { return false }
        let json = Data(bytes[..<cut.lowerBound]), csv = Data(bytes[cut.upperBound...])
        return (try? FleetMerge.readAndSummarize(json: json, csv: csv)) != nil
    }, seeds: {
        Seeds.fleetResults()
    })

    /// `memprof field`: MetricKit payloads read, summarized per cell (intervals included) and
    /// written as the table and field.json.
    public static let metrickit = FuzzTarget(name: "metrickit", run: { data in
        guard let payloads = try? MetricKitPayloadReader(file: "fuzz.json").read([UInt8](data)), !payloads.isEmpty else { return false }
        let summary = FieldSummary(payloads: payloads, files: 1)
        _ = (summary.text, summary.json)
        return true
    }, seeds: {
        Seeds.files(under: "Tests/MemprofFieldTests/Fixtures/metrickit", named: { $0.hasSuffix(".json") })
            + BuiltinWorkloads.all.prefix(3).compactMap { builtin in
                guard let loaded = try? WorkloadLoader.parse(builtin.yaml, file: "w.yaml") else { return nil }
                var simulator = Simulator(workload: loaded.workload, options: .init())
                let report = Report(result: simulator.run(), workloadSha256: loaded.sha256, source: "fuzz",
                                    host: .current(simulationWallMs: 0, processedOccurrences: 0), profile: nil)
                return Data(MetricKitExport.json(report).utf8)
            }
    })

    /// `memprof whatif --calibration`: calibration.json read with its errors placed (line,
    /// column and key), then what a what-if takes from it and the terminal summary.
    public static let calibration = FuzzTarget(name: "calibration", run: { data in
        let calibration: Calibration
        do throws(WorkloadError) {
            calibration = try Calibration.decode(data, file: "calibration.json")
        } catch {
            // A refusal places itself inside the file.
            guard error.line >= 1, error.column >= 1, error.line <= data.count + 1 else {
                fatalError("calibration.json refused outside the file: \(error)")
            }
            return false
        }
        _ = (calibration.whatIfParameters, calibration.text)
        return true
    }, seeds: {
        Seeds.files(under: "Tests/MemprofCalibrateTests/Fixtures", named: { $0.hasSuffix(".json") })
    })

    /// `memprof calibrate FIELD.json`: field.json read back, its cells pooled as a calibration
    /// pools a device's OS versions, and written again.
    public static let fieldJSON = FuzzTarget(name: "field-json", run: { data in
        guard let summary = try? FieldSummaryReader(file: "field.json").read([UInt8](data)) else { return false }
        if !summary.cells.isEmpty { _ = FieldSummary(files: 1, payloads: summary.payloads, cells: [FieldSummary.pooled(summary.cells)]).json }
        _ = (summary.text, summary.json)
        return true
    }, seeds: {
        Seeds.files(under: "Tests/MemprofFieldTests/Fixtures/metrickit", named: { $0.hasSuffix(".json") }).compactMap { data in
            guard let payloads = try? MetricKitPayloadReader(file: "p.json").read([UInt8](data)), !payloads.isEmpty else { return nil }
            return Data(FieldSummary(payloads: payloads, files: 1).json.utf8)
        }
    })

    /// `compare --thresholds`: the file, and its patterns checked against a report's metrics.
    public static let thresholds = FuzzTarget(name: "thresholds", run: { data in
        guard let text = try? InputText.decode(data, file: "t.yaml"),
              let t = try? Thresholds.parse(yaml: text, file: "t.yaml") else { return false }
        for path in Seeds.metricPaths.prefix(50) { _ = t.effective(for: path, kind: MetricKind.of(path)) }
        return (try? t.checkPatterns(against: Seeds.metricPaths)) != nil
    }, seeds: {
        Seeds.thresholdExamples.map { Data($0.utf8) }
    })

    /// `check --budget`: the file, and the check of a report against it.
    public static let budget = FuzzTarget(name: "budget", run: { data in
        guard let text = try? InputText.decode(data, file: "b.yaml"),
              let budget = try? Budget.parse(yaml: text, file: "b.yaml"),
              let report = Seeds.smallReport,
              let check = try? BudgetChecker.check(report, against: budget) else { return false }
        _ = CheckOutput.terminal(check)
        _ = CheckOutput.markdown(check)
        return true
    }, seeds: {
        Seeds.budgetExamples.map { Data($0.utf8) }
    })

    /// The report reader of compare, check and export, and a comparison of what it read with itself
    /// and with a real report (every number formatted on the way).
    public static let report = FuzzTarget(name: "report", run: { data in
        // Read by two threads (split in the events), the report reads as by one: the same report,
        // or the same failure at the same place. (Failures without a place come from JSONDecoder
        // in the small sections, where which of two broken map entries is named first depends on
        // the map's hashing.)
        func read(_ share: Double?) -> Result<Data, ReportReadFailure> {
            data.withUnsafeBytes { bytes in
                do throws(ReportReadFailure) {
                    let report = try ReportReader.read(bytes, options: .everything, release: nil, sink: nil, splitShare: share)
                    return .success((try? ReportJSON.encode(report)) ?? Data())
                } catch {
                    return .failure(error)
                }
            }
        }
        switch (read(nil), read(0.2)) {
        case (.success(let one), .success(let two)) where one == two: break
        case (.failure(let one), .failure(let two)) where one == two || one.offset == nil && two.offset == nil: break
        case (let one, let two): fatalError("a report read by two threads differs from one: \(one) against \(two)")
        }
        guard let report = try? ReportLoader.decode(data, path: "fuzz.json") else { return false }
        // The bounded reading compare and check do (decisions only, series reduced) must agree.
        let bounded = try? ReportLoader.decode(data, path: "fuzz.json", options: ReportLoader.compareOptions)
        if bounded?.summary != report.summary { fatalError("the bounded reading of a report differs from the full one") }
        // The reading compare does: the decisions gathered into a digest, drawn on the compare page.
        let digest = DecisionDigest()
        if let light = try? ReportLoader.decode(data, path: "fuzz.json", options: ReportLoader.compareOptions, sink: digest),
           let c = try? Comparer.compare(base: light, new: light, allowDifferent: true) {
            _ = CompareHTML.comparison(c, base: light, new: light, digests: (digest, digest))
        }
        for base in [report] + (Seeds.smallReport.map { [$0] } ?? []) {
            if let c = try? Comparer.compare(base: base, new: report, allowDifferent: true) {
                _ = CompareOutput.terminal(c, all: true)
                _ = CompareOutput.markdown(c, all: true)
            }
        }
        return true
    }, seeds: {
        let baselines = Seeds.files(under: "Reports/baselines", named: { $0 == "report.json" })
        return baselines + baselines.compactMap(Seeds.compacted)
    })
}

extension FuzzTargets {
    /// The report reader's fast decoder (`PlainJSONDecoder`) against Foundation's `JSONDecoder`
    /// on the same checked JSON (valid, keys unique in each object, as `JSONScanner` checks
    /// before the fast path is tried): whatever the fast decoder reads, `JSONDecoder` must read
    /// too, to the same value (compared as `JSONEncoder` writes both, keys sorted); where it gives
    /// up, the reader falls back to `JSONDecoder` and nothing is compared. A difference is a crash.
    public static let plainJSON = FuzzTarget(name: "plain-json", run: { data in
        let checked: Bool = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            do throws(JSONScanError) {
                try scanner.skipValue()
                try scanner.expectEnd()
                return true
            } catch {
                return false
            }
        }
        guard checked else { return false }
        var read = false
        read = PlainDifference.check(Report.self, data) || read
        read = PlainDifference.check(Report.Run.self, data) || read
        read = PlainDifference.check(Report.Host.self, data) || read
        read = PlainDifference.check(Report.Notifications.self, data) || read
        read = PlainDifference.check(Report.Finding.self, data) || read
        read = PlainDifference.check([String: Int64].self, data) || read
        read = PlainDifference.check([Double].self, data) || read
        return read
    }, seeds: {
        let reports = report.seeds()
        // Each top-level section of the baselines on its own, so the small types are reached.
        var sections: [Data] = []
        for data in reports.prefix(4) {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            for (_, value) in object {
                if let piece = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]),
                   piece.count < 64 * 1024
                {
                    sections.append(piece)
                }
            }
        }
        return reports + sections + ["{}", "[]", "{\"a\":1}", "[1.5,2,-0.25]", "{\"x\":12345678901234567890}"].map { Data($0.utf8) }
    })
}

/// One type read both ways (``FuzzTargets/plainJSON``).
enum PlainDifference {
    /// Whether the fast decoder read `data` as `T`; traps when `JSONDecoder` disagrees.
    static func check<T: Codable>(_ type: T.Type, _ data: Data) -> Bool {
        let plain = data.withUnsafeBytes { raw in
            PlainJSONDecoder.decode(T.self, from: raw.bindMemory(to: UInt8.self))
        }
        guard let plain else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let foundation = try? JSONDecoder().decode(T.self, from: data) else {
            fatalError("PlainJSONDecoder read a \(T.self) that JSONDecoder refuses: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        let one = try? encoder.encode(plain), two = try? encoder.encode(foundation)
        if one != two {
            fatalError("PlainJSONDecoder and JSONDecoder read different \(T.self): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return true
    }
}

/// Seeds and fixtures for the targets.
enum Seeds {
    /// A workload with processes that are not apps (spec §5), their limits and the freezer's
    /// budget, and the script actions that name them, written in JSON (the same structure as YAML).
    static let processesExample = """
        {"memprof": 1, "name": "processes", "duration": "1m", "device": {"preset": "ipad-air-2", "osVersion": "iOS 14.2",
         "increasedAppLimit": "1500MB"}, "policy": {"preset": "xnu", "freezeDailyBudget": "64MB"},
         "apps": {"a": {"launch": {"footprint": "600MB"}, "increasedMemoryLimit": true, "inactiveLimit": "650MB"},
                  "b": {"launch": {"footprint": "700MB"}}},
         "processes": {"d": {"name": "locationd", "kind": "daemon", "band": 3, "resident": "8MB", "highWaterMark": "9MB",
                             "memoryLimit": "12MB"},
                       "w": {"kind": "extension", "extensionPoint": "widget", "band": 0, "resident": "10MB"},
                       "n": {"kind": "extension", "extensionPoint": "notificationService", "band": 0, "resident": "4MB",
                             "app": "b", "push": {"time": "3s", "allocates": "8MB"}},
                       "s": {"kind": "system", "band": 999, "resident": "30MB"}},
         "script": [{"at": "0s", "open": "a"}, {"at": "5s", "open": "b"}, {"at": "6s", "allocate": "d", "size": "2MB"},
                    {"at": "7s", "freeze": "a"}, {"at": "8s", "free": "s", "size": "1MB"}, {"at": "9s", "push": "b"}]}
        """

    /// The repository, found from the working directory upwards (the fuzz scripts run from it).
    static let repository: URL? = {
        var dir = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    /// Between fleet.json and runs.csv in an input of the `fleet` target.
    static let fleetSeparator = "\n--- runs.csv\n"

    /// Fleet results of a small sweep of a built-in workload: complete, and one shard of two.
    static func fleetResults() -> [Data] {
        let text = "memprof: 1\nsweep: fuzz\nworkload: background-heavy\nseeds: 1..3\nmatrix:\n  device: [iphone-6-plus, ipad-air-2]\n"
            + "mix:\n  device: {iphone-6-plus: 60%, ipad-air-2: 40%}\n"
        guard let sweep = try? SweepFile.parse(text, file: "fuzz.yaml"),
              let scratch = try? FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                                         appropriateFor: FileManager.default.temporaryDirectory, create: true)
        else { return [] }
        defer { try? FileManager.default.removeItem(at: scratch) }
        var out: [Data] = []
        for shard in [nil, SweepPlan.Shard(index: 1, count: 2)] {
            let folder = scratch.appendingPathComponent(shard == nil ? "whole" : "shard")
            guard let plan = try? SweepPlan(sweep: sweep, shard: shard),
                  (try? FleetSweep.run(plan, threads: 1, into: folder)) != nil,
                  let json = FileManager.default.contents(atPath: folder.appendingPathComponent("fleet.json").path),
                  let csv = FileManager.default.contents(atPath: folder.appendingPathComponent("runs.csv").path) else { continue }
            out.append(json + Data(fleetSeparator.utf8) + csv)
        }
        return out
    }

    static func files(under folder: String, named accept: (String) -> Bool) -> [Data] {
        guard let root = repository?.appendingPathComponent(folder),
              let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var out: [Data] = []
        while let path = walker.nextObject() as? String {
            if accept((path as NSString).lastPathComponent),
               let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) { out.append(data) }
        }
        return out
    }

    /// A report with its long lists cut to a few entries: the same structure in a few kilobytes,
    /// so that most mutants are cheap to read.
    static func compacted(_ data: Data) -> Data? {
        func cut(_ value: Any) -> Any {
            if let list = value as? [Any] { return list.prefix(6).map(cut) }
            if let object = value as? [String: Any] { return object.mapValues(cut) }
            return value
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { return nil }
        return try? JSONSerialization.data(withJSONObject: cut(object), options: [.sortedKeys])
    }

    /// The smallest baseline report: what budgets are checked against and reports compared with.
    static let smallReport: Report? = {
        files(under: "Reports/baselines", named: { $0 == "report.json" }).min { $0.count < $1.count }
            .flatMap { try? ReportLoader.decode($0, path: "baseline") }
    }()

    static let metricPaths: Set<String> = smallReport.map { Set(MetricExtractor.metrics(of: $0).keys) } ?? []

    static let sweepExamples = [
        "memprof: 1\nsweep: mail-on-small-phones\nworkload: phone-day\nseeds: 1..1000\nmatrix:\n  device: [iphone-6-plus, ipad-air-2]\n"
            + "  policy: [seed-2015, xnu]\n  apps.mail.launch.footprint: [45MB, 60MB]\n",
        "memprof: 1\nsweep: quick\nworkload: observer-leaks\nseeds: [1, 2, 3]\nworst: 3\n",
        "memprof: 1\nsweep: mix\nworkload: phone-day-2026\nseeds: 1..2\nset: {device.osVersion: iOS 18.5}\nmatrix:\n  device: [iphone-11, iphone-15]\n"
            + "mix:\n  device: {iphone-11: 55%, iphone-15: 45%}\n",
        "memprof: 1\nsweep: per\nworkload: phone-day-2026\nseeds: 1..2\nmatrix:\n  device.preset: [iphone-11, iphone-15]\n  policy: [seed-2015, xnu]\n"
            + "per:\n  device.preset:\n    iphone-11: {apps.mail.launch.footprint: 60MB, device.systemReserved: 1200MB}\n"
            + "    iphone-15: {apps.mail.maxFootprint: 300MB}\n  policy:\n    xnu: {generate.switchEvery: 5m}\n",
        "{\"memprof\": 1, \"sweep\": \"j\", \"workload\": \"ipad-afternoon\", \"seeds\": \"5..9\", \"matrix\": {\"seed\": [1]}}",
        "memprof: 1\nsweep: fit\nworkload: phone-day-2026\nseeds: 1..50\nmatrix:\n  device: [iphone-11, iphone-15]\ncalibrate:\n  app: mail\n"
            + "  bundleIdentifier: com.example.mail\n  parameters:\n    - {key: device.systemReserved, low: 0MB, high: 2GB}\n"
            + "    - {key: generate.switchEvery, low: 2m, high: 20m}\n    - {key: apps.game.growth, low: 0.5, high: 2}\n"
            + "  budget: 30\n  maxSeeds: 200\n  profilePoints: 4\n  holdOut: [iphone-15]\n",
    ]

    static let thresholdExamples = [
        "threshold: 5%\ncountThreshold: 0%\nminDelta: 1\n",
        "metrics:\n  summary.peakUsedBytes: {threshold: 10%, minDelta: 4MB}\n  apps.*.resumeLatencyUs.max: {threshold: 20%, minDelta: 50ms}\n",
        "metrics: {apps.game.timeAtPressureUs.warning: {ignore: true}, summary.evictions: {threshold: 0%}}",
        "{\"threshold\": \"5%\", \"metrics\": {\"apps.*.evictions\": {\"minDelta\": 2}}}",
    ]

    static let budgetExamples = [
        "apps:\n  mail: {evictions: {max: 1}, exits.memoryLimit: {max: 0}, peakFootprintBytes: {max: 150MB}}\n  \"*\": {exits.watchdog: {max: 0}}\n"
            + "summary:\n  backgroundTasks.expiredKilled: {max: 0}\n  fetches.completed: {min: 4}\n",
        "summary: {evictions: {min: 0, max: 3}, timeAtPressureUs.warning: {max: 10m}}",
        "{\"apps\": {\"safari\": {\"resumeLatencyUs.max\": {\"max\": \"250ms\"}}}}",
    ]
}
