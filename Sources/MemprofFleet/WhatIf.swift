import Foundation
import MemprofInput
import MemprofOutput
import MemprofWorkload

/// `memprof whatif SWEEP --set KEY=VALUE… [--mix KEY={…}…] [--calibration FILE]`: a change to a
/// (calibrated) sweep's world, run on the same seeds as the world itself and answered per
/// MetricKit exit counter, app and cell (``WhatIfComparison``).
///
/// Every world is validated before anything runs: the base (the sweep as it is), the changed
/// world (the sweep with the changes after its `set:`, and its `mix:` replaced by the given
/// ones), and with fitted parameters both again at each end of each parameter's interval.
///
///     let plan = try WhatIfPlan(sweep: try SweepFile.load("calibrated.yaml"),
///                               changes: [try WorkloadOverride.parse(assignment: "apps.news.averageSuspendedMemory=120MB")])
///     let result = try plan.run(threads: 2, into: URL(fileURLWithPath: "whatif"))
public struct WhatIfPlan: Sendable {
    /// A fitted parameter of a calibration: its key path and the values `--set` gives it (as a
    /// sweep's `set:` writes them) at its fit and at the ends of its 95% interval.
    public struct Parameter: Sendable, Equatable, Codable {
        public var keyPath: String
        public var fitted: String
        public var low: String
        public var high: String
        /// Whether the field constrains it; when not, its interval is its whole declared range.
        public var constrained: Bool

        public init(keyPath: String, fitted: String, low: String, high: String, constrained: Bool) {
            self.keyPath = keyPath
            self.fitted = fitted
            self.low = low
            self.high = high
            self.constrained = constrained
        }
    }

    /// One end of a parameter's interval, with its two worlds.
    struct End: Sendable {
        var parameter: Int
        var side: String
        var value: String
        var base: SweepPlan
        var changed: SweepPlan?
        var folder: String { "fit/\(parameter + 1)-\(side)" }
    }

    public var sweep: SweepFile
    public var changes: [WorkloadOverride]
    /// The changed world's mix (the sweep's, with each `--mix` in place of its key's).
    public var mix: [SweepFile.Mix]
    /// The team's app: its rows come first.
    public var app: String
    public var parameters: [Parameter]
    let base: SweepPlan
    /// Nil when only the mix changes: the changed world then has the base's runs.
    let changed: SweepPlan?
    let ends: [End]

    /// The most fitted parameters a what-if re-runs at the ends of (each costs four sweeps).
    public static let maxParameters = 8

    /// Validates every world of the what-if.
    ///
    /// - Parameters:
    ///   - sweep: the (calibrated) sweep.
    ///   - changes: `--device`, `--policy`, `--set`, applied after the sweep's `set:`.
    ///   - mix: another population share for some of the sweep's mixed keys.
    ///   - app: the team's app; by default the app the changes name, or the workload's only app.
    ///   - parameters: the calibration's fitted parameters, to re-run at their intervals' ends.
    /// - Throws: `WorkloadError` located in the sweep file or the option, `BadInput`.
    public init(sweep: SweepFile, changes: [WorkloadOverride], mix: [SweepFile.Mix] = [], app: String? = nil,
                parameters: [Parameter] = []) throws {
        guard !changes.isEmpty || !mix.isEmpty else {
            throw BadInput("a what-if needs a change: --set KEY=VALUE, --device, --policy or --mix KEY={VALUE: SHARE, ...}")
        }
        guard parameters.count <= Self.maxParameters else {
            throw BadInput("the calibration fits \(parameters.count) parameters; a what-if re-runs at most \(Self.maxParameters)")
        }
        self.sweep = sweep
        self.changes = changes
        self.mix = sweep.mix.map { own in mix.last { $0.keyPath == own.keyPath } ?? own }
        self.parameters = parameters
        var changedSweep = sweep
        changedSweep.mix = self.mix
        base = try SweepPlan(sweep: sweep)
        changed = changes.isEmpty ? nil : try SweepPlan(sweep: changedSweep, overrides: changes)
        let apps = base.base.workload.apps.map(\.id)
        let named = FleetCompare.changedApps([], changes.map { FleetResult.Override(keyPath: $0.keyPath, value: $0.value) })
        if let app {
            guard apps.contains(app) else {
                throw BadInput(withSuggestion("--app \(app): no app '\(app)' in the sweep's workload; it has: \(apps.joined(separator: ", "))",
                                              for: app, among: apps))
            }
            self.app = app
        } else if let first = named.first(where: apps.contains) {
            self.app = first
        } else if apps.count == 1 {
            self.app = apps[0]
        } else {
            throw BadInput("name the team's app with --app: the changes name none, and the workload has \(apps.joined(separator: ", "))")
        }
        var ends: [End] = []
        for (i, p) in parameters.enumerated() {
            for (side, value) in [("low", p.low), ("high", p.high)] {
                let origin = WorkloadOverride.Origin(file: "the calibration's \(p.keyPath) (\(side) end of its interval)")
                let end = WorkloadOverride(keyPath: p.keyPath, value: value, origin: origin)
                try end.checkKeyPath()
                ends.append(End(parameter: i, side: side, value: value, base: try SweepPlan(sweep: sweep, overrides: [end]),
                                changed: changes.isEmpty ? nil : try SweepPlan(sweep: changedSweep, overrides: [end] + changes)))
            }
        }
        self.ends = ends
    }

    /// The files and folders a what-if's output folder holds.
    static let ownNames: Set<String> = ["base", "changed", "fit", "metrickit", "whatif.json", "whatif.md"]

    /// Runs every world into `folder`, whole or not at all: `base/` and `changed/` (fleet
    /// results), `fit/N-low|high/{base,changed}/` with fitted parameters, `metrickit/base/` and
    /// `metrickit/changed/` (the worlds' MetricKit payloads, a file per cell), `whatif.json` and
    /// `whatif.md`.
    public func run(threads: Int, into folder: URL, progress: ((String) -> Void)? = nil) throws -> WhatIfResult {
        let staged = try StagedFolder(replacing: folder, isOwnFile: Self.ownNames.contains)
        do {
            let root = staged.stagingURL
            func world(_ plan: SweepPlan, _ name: String) throws -> WhatIfComparison.World {
                progress?(name)
                _ = try FleetSweep.run(plan, threads: threads, into: root.appendingPathComponent(name))
                let cells = try FleetMetricKit.cells(root.appendingPathComponent(name).path).cells
                return WhatIfComparison.World(cells: cells, shares: shares(plan, mix: plan.sweep.mix))
            }
            let baseWorld = try world(base, "base")
            var changedWorld = try changed.map { try world($0, "changed") }
                ?? WhatIfComparison.World(cells: baseWorld.cells, shares: shares(base, mix: mix))
            changedWorld.shares = shares(base, mix: mix)
            let populations = FleetResult.populations(base.cells.map { ($0.index, overrides($0, of: base)) },
                                                      sweep: FleetSweep.sweepInfo(base)) ?? []
            var comparison = WhatIfComparison.compare(base: baseWorld, new: changedWorld, populations: populations, app: app)
            var endResults: [WhatIfResult.End] = []
            var endComparisons: [WhatIfComparison] = []
            for end in ends {
                let b = try world(end.base, end.folder + "/base")
                let c = try end.changed.map { try world($0, end.folder + "/changed") } ?? b
                let compared = WhatIfComparison.compare(
                    base: b, new: .init(cells: c.cells, shares: shares(end.base, mix: mix)), populations: populations,
                    app: app, apps: [app])
                endComparisons.append(compared)
                endResults.append(.init(keyPath: parameters[end.parameter].keyPath, side: end.side, value: end.value,
                                        folder: end.folder, rows: compared.rows.filter { $0.measure == .memoryPressure }))
            }
            comparison = comparison.spanning(endComparisons)
            try AtomicFiles.write(try FleetMetricKit.files(root.appendingPathComponent("base").path),
                                  into: root.appendingPathComponent("metrickit/base"))
            try AtomicFiles.write(try FleetMetricKit.files(root.appendingPathComponent(changed == nil ? "base" : "changed").path),
                                  into: root.appendingPathComponent("metrickit/changed"))
            let result = WhatIfResult(
                sweep: sweep.name, sweepFile: sweep.file, seeds: sweep.seedsText, seedCount: sweep.seeds.count, app: app,
                changes: changes.map { "\($0.keyPath)=\($0.value)" },
                mix: mix == sweep.mix ? nil : mix.map { .init(keyPath: $0.keyPath, shares: Dictionary(uniqueKeysWithValues: $0.shares.map { ($0.value, $0.share) })) },
                dayUs: baseWorld.cells.first?.durationUs ?? 0, parameters: parameters, ends: endResults,
                rows: comparison.rows)
            try staged.write(OutputFile(name: "whatif.json", data: try result.encoded()))
            try staged.write(OutputFile(name: "whatif.md", data: Data(WhatIfOutput.markdown(result).utf8)))
            try staged.commit()
            return result
        } catch {
            staged.abort()
            throw error
        }
    }

    /// A cell's overrides as its fleet result records them (``SweepPlan/overrides(of:)``).
    func overrides(_ cell: SweepPlan.Cell, of plan: SweepPlan) -> [FleetResult.Override] {
        plan.overrides(of: cell).map { FleetResult.Override(keyPath: $0.keyPath, value: $0.value) }
    }

    /// Each cell's population share under `mix`, by cell index (empty without a mix).
    func shares(_ plan: SweepPlan, mix: [SweepFile.Mix]) -> [Int: Double] {
        var info = FleetSweep.sweepInfo(plan)
        info.mix = mix.isEmpty ? nil : mix.map { m in
            .init(keyPath: m.keyPath, shares: Dictionary(uniqueKeysWithValues: m.shares.map { ($0.value, $0.share) }))
        }
        var out: [Int: Double] = [:]
        for cell in plan.cells {
            if let share = FleetResult.populationShare(overrides(cell, of: plan), sweep: info) { out[cell.index] = share }
        }
        return out
    }
}

/// What `memprof whatif` writes as whatif.json (`memprof.whatif/1`) and prints.
public struct WhatIfResult: Codable, Sendable, Equatable {
    /// One end of a fitted parameter's interval: the team's app's background memory-pressure
    /// rows when the base and the changed world are both run with the parameter there.
    public struct End: Codable, Sendable, Equatable {
        public var keyPath: String
        public var side: String
        public var value: String
        /// Its worlds' fleet results, in the output folder.
        public var folder: String
        public var rows: [WhatIfComparison.Row]
    }

    public var schema = "memprof.whatif/1"
    public var sweep: String
    public var sweepFile: String
    public var seeds: String
    public var seedCount: Int
    public var app: String
    /// The changes, as `--set` takes them (`apps.news.averageSuspendedMemory=120MB`).
    public var changes: [String]
    /// The changed world's mix, when it differs from the sweep's.
    public var mix: [FleetResult.MixAxis]?
    /// One run of the workload (a device-day), in microseconds.
    public var dayUs: Int64
    public var parameters: [WhatIfPlan.Parameter]
    public var ends: [End]
    public var rows: [WhatIfComparison.Row]
    public var method = "paired by seed: the changed world runs the base's seeds; mean change with Student's t 95% interval, "
        + "Wilcoxon signed-rank p (two-sided); weighted rows pair each seed's share-weighted values"

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
