import Foundation
import MemprofField

/// The answer of a what-if in MetricKit's terms: per app, MetricKit counter and cell, the base
/// and changed worlds' rates per 1,000 device-days (each run is a device-day, as each payload
/// is), the change relative to the base with its 95% interval, and the same over each
/// population of the sweep's device mix, weighted by its shares.
///
/// The two worlds ran the same seeds, so each seed is a pair and the interval is the paired
/// one of ``PairedTest`` (Student's t on the per-seed differences, with the Wilcoxon
/// signed-rank p-value). A weighted row pairs the seeds too: each seed's difference is the
/// changed world's share-weighted value over the population's cells less the base world's,
/// so a change of the mix alone is compared on the same days.
public struct WhatIfComparison: Codable, Sendable, Equatable {
    /// What a row measures: a MetricKit exit counter on one side, or a memory figure.
    public struct Measure: Codable, Sendable, Hashable {
        /// `background` or `foreground` for exits; `memory` for `peakMemoryUsage` and
        /// `averageSuspendedMemory`.
        public var side: String
        /// The MetricKit key (`cumulativeMemoryPressureExitCount`, `peakMemoryUsage`).
        public var key: String

        public var isExit: Bool { side != "memory" }

        /// `background memory-pressure exits`, `average suspended memory`.
        public var words: String {
            switch key {
            case "peakMemoryUsage": return "peak memory"
            case "averageSuspendedMemory": return "average suspended memory"
            default: return "\(side) \(FieldSummary.reason(key).replacingOccurrences(of: " ", with: "-")) exits"
            }
        }

        /// The day's value: exits on the side, bytes for memory; nil for a suspended footprint
        /// on a day the app was never suspended.
        func value(_ m: MetricKitExport.AppMetrics) -> Double? {
            switch side {
            case "background": return Double(m.background[key] ?? 0)
            case "foreground": return Double(m.foreground[key] ?? 0)
            default:
                if key == "peakMemoryUsage" { return Double(m.peakMemoryBytes) }
                return m.suspended.sampleCount > 0 ? Double(m.suspended.averageBytes) : nil
            }
        }

        /// Every measure, in the order rows are shown: the background memory-pressure exits,
        /// the other background counters and the foreground ones in Apple's order, then memory.
        static let all: [Measure] = {
            let pressure = Measure(side: "background", key: "cumulativeMemoryPressureExitCount")
            return [pressure]
                + MetricKitExits.backgroundCounters.map { Measure(side: "background", key: $0) }.filter { $0 != pressure }
                + MetricKitExits.foregroundCounters.map { Measure(side: "foreground", key: $0) }
                + [Measure(side: "memory", key: "peakMemoryUsage"), Measure(side: "memory", key: "averageSuspendedMemory")]
        }()

        static let memoryPressure = all[0]
    }

    /// One app, measure and cell (or population).
    public struct Row: Codable, Sendable, Equatable {
        public var app: String
        public var measure: Measure
        /// The cell's label (`device.preset=iphone-13`), or the population's (`all`) for a
        /// weighted row.
        public var cell: String
        public var weighted: Bool
        /// Seeds paired.
        public var pairs: Int
        /// Means over the pairs: exits per 1,000 days, or bytes.
        public var base: Double
        public var new: Double
        /// The mean change and its 95% interval, in the same unit.
        public var change: Double
        public var ciLow: Double
        public var ciHigh: Double
        /// The change and its interval relative to the base (-0.35 is −35%); nil when the base is 0.
        public var relativeChange: Double?
        public var relativeCiLow: Double?
        public var relativeCiHigh: Double?
        /// Two-sided Wilcoxon signed-rank p-value of the paired differences.
        public var pValue: Double
        /// With a calibration: the same row re-run at the ends of the fitted parameters' intervals.
        public var acrossFit: FitSpan?

        var key: String { "\(app)\u{1F}\(measure.side)\u{1F}\(measure.key)\u{1F}\(weighted)\u{1F}\(cell)" }
    }

    /// A row over the ends of the fit's intervals: the least and most of its new value and of its
    /// relative change (each end's point estimate), and the widest 95% interval of the relative
    /// change among them: how sure the answer is given that the fit itself is uncertain.
    public struct FitSpan: Codable, Sendable, Equatable {
        public var newLow: Double
        public var newHigh: Double
        public var relativeLow: Double?
        public var relativeHigh: Double?
        public var relativeCiLow: Double?
        public var relativeCiHigh: Double?
    }

    public var rows: [Row]

    /// A world as a what-if compares it: the cells of its fleet result with their runs, and
    /// each cell's population share (by cell index; empty without a mix).
    public struct World: Sendable {
        public var cells: [FleetMetricKit.Cell]
        public var shares: [Int: Double]

        public init(cells: [FleetMetricKit.Cell], shares: [Int: Double]) {
            self.cells = cells
            self.shares = shares
        }
    }

    /// Compares the changed world with the base, pairing runs by cell label and seed.
    ///
    /// - Parameters:
    ///   - base: the base (calibrated) world.
    ///   - new: the changed world, on the same seeds.
    ///   - populations: the mix's populations (labels and cell indices), none without a mix.
    ///   - app: the team's app: its rows come first, with every counter that is not zero and
    ///     its memory; other apps give their exit counters that are not zero.
    ///   - apps: only these apps (all of the fleet's when nil).
    public static func compare(base: World, new: World, populations: [(label: String, cells: [Int])], app: String,
                               apps: [String]? = nil) -> WhatIfComparison {
        let newByLabel = Dictionary(new.cells.map { ($0.label, $0) }, uniquingKeysWith: { a, _ in a })
        let pairs: [(base: FleetMetricKit.Cell, new: FleetMetricKit.Cell)] = base.cells.compactMap { cell in
            newByLabel[cell.label].map { (cell, $0) }
        }
        let allApps = Set(base.cells.flatMap { $0.days.flatMap { $0.apps.map(\.app) } })
        let order = [app] + allApps.subtracting([app]).sorted().filter { apps?.contains($0) ?? true }
        // Per cell pair, seed → (base, new) metrics of each app.
        typealias Day = (base: [String: MetricKitExport.AppMetrics], new: [String: MetricKitExport.AppMetrics])
        var days: [Int: [UInt64: Day]] = [:]
        for (b, n) in pairs {
            let newBySeed = Dictionary(n.days.map { ($0.seed, $0) }, uniquingKeysWith: { a, _ in a })
            var bySeed: [UInt64: Day] = [:]
            for day in b.days {
                guard let other = newBySeed[day.seed] else { continue }
                bySeed[day.seed] = (Dictionary(day.apps.map { ($0.app, $0) }, uniquingKeysWith: { a, _ in a }),
                                    Dictionary(other.apps.map { ($0.app, $0) }, uniquingKeysWith: { a, _ in a }))
            }
            days[b.index] = bySeed
        }
        let labels = Dictionary(pairs.map { ($0.base.index, $0.base.label) }, uniquingKeysWith: { a, _ in a })
        var rows: [Row] = []
        for name in order {
            for measure in Measure.all where measure.isExit || name == app {
                var group: [Row] = []
                for population in populations {
                    let cells = population.cells.filter { days[$0] != nil }
                    guard cells.count == population.cells.count, let row = weightedRow(
                        app: name, measure: measure, label: population.label, cells: cells, days: days,
                        baseShares: base.shares, newShares: new.shares) else { continue }
                    group.append(row)
                }
                for (b, _) in pairs {
                    var diffs: [Double] = [], sumBase = 0.0, sumNew = 0.0
                    for seed in (days[b.index] ?? [:]).keys.sorted() {
                        let day = days[b.index]![seed]!
                        guard let x = day.base[name].flatMap(measure.value), let y = day.new[name].flatMap(measure.value) else { continue }
                        diffs.append(y - x)
                        sumBase += x
                        sumNew += y
                    }
                    guard !diffs.isEmpty else { continue }
                    group.append(row(app: name, measure: measure, cell: labels[b.index]!, weighted: false, diffs: diffs,
                                     baseMean: sumBase / Double(diffs.count), newMean: sumNew / Double(diffs.count)))
                }
                // An exit counter is shown when it is not zero somewhere; the team's app's
                // background memory-pressure exits always are.
                let shown = !measure.isExit || (name == app && measure == .memoryPressure)
                    || group.contains { $0.base != 0 || $0.new != 0 }
                if shown { rows += group }
            }
        }
        return WhatIfComparison(rows: rows)
    }

    /// A population's row: per seed, the share-weighted value over its cells in each world.
    static func weightedRow(app: String, measure: Measure, label: String, cells: [Int],
                            days: [Int: [UInt64: (base: [String: MetricKitExport.AppMetrics], new: [String: MetricKitExport.AppMetrics])]],
                            baseShares: [Int: Double], newShares: [Int: Double]) -> Row? {
        let baseTotal = cells.reduce(0) { $0 + (baseShares[$1] ?? 0) }, newTotal = cells.reduce(0) { $0 + (newShares[$1] ?? 0) }
        guard baseTotal > 0, newTotal > 0, let first = cells.first else { return nil }
        var diffs: [Double] = [], sumBase = 0.0, sumNew = 0.0
        seeds: for seed in days[first]!.keys.sorted() {
            var x = 0.0, y = 0.0
            for cell in cells {
                guard let day = days[cell]?[seed], let bx = day.base[app].flatMap(measure.value),
                      let ny = day.new[app].flatMap(measure.value) else { continue seeds }
                x += (baseShares[cell] ?? 0) / baseTotal * bx
                y += (newShares[cell] ?? 0) / newTotal * ny
            }
            // Rounded to 12 significant digits, so that equal differences summed in another
            // order stay equal (ties) for the signed-rank test.
            diffs.append(significant(y - x))
            sumBase += x
            sumNew += y
        }
        guard !diffs.isEmpty else { return nil }
        return row(app: app, measure: measure, cell: label, weighted: true, diffs: diffs,
                   baseMean: sumBase / Double(diffs.count), newMean: sumNew / Double(diffs.count))
    }

    static func significant(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return x }
        let scale = pow(10, 11 - floor(log10(abs(x))))
        return (x * scale).rounded() / scale
    }

    static func row(app: String, measure: Measure, cell: String, weighted: Bool, diffs: [Double], baseMean: Double,
                    newMean: Double) -> Row {
        let test = PairedTest.wilcoxon(fractional: diffs)
        // Exits are given per 1,000 device-days; memory in bytes.
        let unit = measure.isExit ? 1000.0 : 1
        let relative = { (x: Double) in baseMean != 0 ? x / abs(baseMean) : nil }
        return Row(app: app, measure: measure, cell: cell, weighted: weighted, pairs: diffs.count, base: baseMean * unit,
                   new: newMean * unit, change: test.meanChange * unit, ciLow: test.ciLow * unit, ciHigh: test.ciHigh * unit,
                   relativeChange: relative(test.meanChange), relativeCiLow: relative(test.ciLow),
                   relativeCiHigh: relative(test.ciHigh), pValue: test.pValue, acrossFit: nil)
    }

    /// The rows with their spans over other comparisons of the same what-if (one per end of
    /// each fitted parameter's interval), matched by app, measure and cell.
    public func spanning(_ others: [WhatIfComparison]) -> WhatIfComparison {
        guard !others.isEmpty else { return self }
        var byKey: [String: [Row]] = [:]
        for other in others { for r in other.rows { byKey[r.key, default: []].append(r) } }
        var out = self
        for i in out.rows.indices {
            let ends = byKey[out.rows[i].key] ?? []
            guard ends.count == others.count else { continue }
            func least(_ v: [Double?]) -> Double? { v.contains { $0 == nil } ? nil : v.compactMap { $0 }.min() }
            func most(_ v: [Double?]) -> Double? { v.contains { $0 == nil } ? nil : v.compactMap { $0 }.max() }
            let all = ends + [out.rows[i]]
            out.rows[i].acrossFit = FitSpan(newLow: all.map(\.new).min()!, newHigh: all.map(\.new).max()!,
                                            relativeLow: least(all.map(\.relativeChange)), relativeHigh: most(all.map(\.relativeChange)),
                                            relativeCiLow: least(all.map(\.relativeCiLow)), relativeCiHigh: most(all.map(\.relativeCiHigh)))
        }
        return out
    }
}
