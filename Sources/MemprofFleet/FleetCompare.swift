import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofOutput

/// `memprof compare BASE NEW` of two fleet results (spec §12): cells matched by their matrix
/// values, runs paired by seed, and per cell and metric the mean change with its 95% confidence
/// interval and the p-value of the Wilcoxon signed-rank test (``PairedTest``). A metric is worse
/// only when its mean change passes the threshold (as for reports: `Thresholds`) in the worse
/// direction and the test is significant at `alpha`.
public struct FleetComparison: Codable, Sendable {
    public struct Row: Codable, Sendable, Equatable {
        public var cell: String
        public var metric: String
        public var kind: MetricKind
        public var direction: MetricDirection
        public var pairs: Int
        public var baseMean: Double
        public var newMean: Double
        public var meanChange: Double
        public var ciLow: Double
        public var ciHigh: Double
        public var pValue: Double
        /// Pairs where new is above / below base.
        public var rose: Int
        public var fell: Int
        public var verdict: Verdict
        public var threshold: Double
        public var minDelta: Double
        public var message: String?
        /// The mean change and its interval relative to the base mean (0.1 is +10%); nil when the
        /// base mean is 0.
        public var relativeChange: Double?
        public var relativeCiLow: Double?
        public var relativeCiHigh: Double?
        /// An internal counter shown for context, never worse or better unless asked.
        public var context: Bool
        /// The threshold came from the user; a fleet applies no other.
        public var userThreshold: Bool
        /// Ignored by the thresholds file.
        public var ignored: Bool
    }

    public var schema = "memprof.fleet-compare/1"
    public var base: String
    public var new: String
    public var alpha: Double
    public var test = "Wilcoxon signed-rank, two-sided, paired by seed"
    public var rows: [Row]
    public var counts: [String: Int]
    public var notes: [String]

    public var hasRegression: Bool { rows.contains { $0.verdict == .worse } }

    public var countsLine: String {
        let context = rows.filter(\.context).count
        var counts = self.counts
        counts[Verdict.same.rawValue, default: 0] -= context
        return Comparison.countsLine(counts, context: context)
    }
}

public enum FleetCompare {
    /// Whether `path` is a fleet result: a folder with fleet.json, or a fleet.json file.
    public static func isFleet(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        return isDirectory.boolValue ? FileManager.default.fileExists(atPath: path + "/fleet.json")
            : URL(fileURLWithPath: path).lastPathComponent == "fleet.json"
    }

    /// Compares two fleet results cell by cell, metric by metric.
    ///
    /// - Parameters:
    ///   - base: the base fleet: a sweep's folder or its fleet.json.
    ///   - new: the fleet compared with it, the same way.
    ///   - thresholds: the changes the user holds back as within a threshold of theirs.
    ///   - alpha: the significance level of each metric's test.
    ///   - filter: the metrics kept (`--app`, `--metric`); the others are left out.
    public static func compare(base: String, new: String, thresholds: Thresholds = Thresholds(),
                               alpha: Double = 0.01, filter: MetricFilter = MetricFilter()) throws -> FleetComparison {
        let folder = { (p: String) in URL(fileURLWithPath: p).lastPathComponent == "fleet.json"
            ? URL(fileURLWithPath: p).deletingLastPathComponent().path : p }
        let a = try FleetMerge.readPart(folder(base)), b = try FleetMerge.readPart(folder(new))
        for part in [a, b] where !part.result.isComplete {
            throw MergeError("\(part.folder) is a partial result (shards \(part.result.shard!.parts.map(String.init).joined(separator: ",")) "
                + "of \(part.result.shard!.of)); merge its shards first")
        }
        var notes: [String] = []
        if a.result.sweep.workloadSha256 != b.result.sweep.workloadSha256 {
            notes.append("the workloads differ (sha256 \(a.result.sweep.workloadSha256.prefix(12)) → \(b.result.sweep.workloadSha256.prefix(12)))")
        }
        if a.result.sweep.overrides != b.result.sweep.overrides {
            let text = { (o: [FleetResult.Override]) in o.isEmpty ? "none" : o.map { "\($0.keyPath)=\($0.value)" }.joined(separator: " ") }
            notes.append("sweep overrides: \(text(a.result.sweep.overrides)) → \(text(b.result.sweep.overrides))")
        }
        let aColumns = Array(a.header.dropFirst(3)), bColumns = Array(b.header.dropFirst(3))
        if !filter.isEmpty { try filter.check(against: Set(aColumns).union(bColumns)) }
        let judgings = Dictionary(uniqueKeysWithValues: aColumns.map { name in
            (name, thresholds.judging(name, kind: MetricKind.of(name), userOnly: true))
        })
        let bColumnIndex = Dictionary(uniqueKeysWithValues: bColumns.enumerated().map { ($1, $0) })
        var rows: [FleetComparison.Row] = []
        for cellA in a.result.cells {
            guard let cellB = b.result.cells.first(where: { $0.label == cellA.label }) else {
                notes.append("cell '\(cellA.label)' is only in the base")
                continue
            }
            var newBySeed: [UInt64: RunsCSV.Row] = [:]
            for row in b.rows where row.cell == cellB.index { newBySeed[row.seed] = row }
            let pairs = a.rows.filter { $0.cell == cellA.index }.compactMap { row in newBySeed[row.seed].map { (row, $0) } }
            let unpaired = a.result.cells[cellA.index].runs - pairs.count
            if unpaired > 0 || cellB.runs > pairs.count {
                notes.append("\(cellA.label): \(pairs.count) runs paired by seed; \(unpaired) base and \(cellB.runs - pairs.count) new runs have no partner")
            }
            guard !pairs.isEmpty else { continue }
            for (ca, name) in aColumns.enumerated() where filter.keeps(name) {
                guard let cb = bColumnIndex[name] else { continue }
                var diffs: [Int64] = []
                var sumA = 0.0, sumB = 0.0
                for (x, y) in pairs {
                    guard let va = x.values[ca], let vb = y.values[cb] else { continue }
                    diffs.append(vb - va)
                    sumA += Double(va)
                    sumB += Double(vb)
                }
                guard !diffs.isEmpty else { continue }
                rows.append(row(cell: cellA.label, metric: name, diffs: diffs, baseMean: sumA / Double(diffs.count),
                                newMean: sumB / Double(diffs.count), judging: judgings[name]!, alpha: alpha))
            }
        }
        for cellB in b.result.cells where !a.result.cells.contains(where: { $0.label == cellB.label }) {
            notes.append("cell '\(cellB.label)' is only in the new result")
        }
        var counts: [String: Int] = [:]
        for r in rows { counts[r.verdict.rawValue, default: 0] += 1 }
        let focus = changedApps(a.result.sweep.overrides, b.result.sweep.overrides)
        if !focus.isEmpty { notes.append("the overrides that differ name \(focus.joined(separator: ", ")): their rows lead") }
        return FleetComparison(base: base, new: new, alpha: alpha,
                               rows: ordered(rows, cells: a.result.cells.map(\.label), focus: focus), counts: counts, notes: notes)
    }

    /// The apps named by the sweep overrides that differ between two results (`--set
    /// apps.news.averageSuspendedMemory=120MB` names news): the apps the what-if is about.
    static func changedApps(_ a: [FleetResult.Override], _ b: [FleetResult.Override]) -> [String] {
        let changed = a.filter { !b.contains($0) } + b.filter { !a.contains($0) }
        var apps: [String] = []
        for o in changed {
            let parts = o.keyPath.split(separator: ".", maxSplits: 2)
            guard parts.count >= 2, parts[0] == "apps" else { continue }
            let app = String(parts[1])
            if !apps.contains(app) { apps.append(app) }
        }
        return apps
    }

    /// The apps' metrics first, those of `focus` (the apps the what-if changed) before the
    /// others, each app's headline metrics first (`MetricDirections.headlineRank`, every cell of
    /// a metric together, in the cells' order); then the summary's; then the internal counters
    /// shown for context.
    static func ordered(_ rows: [FleetComparison.Row], cells: [String], focus: [String]) -> [FleetComparison.Row] {
        let cellIndex = Dictionary(cells.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return rows.map { r -> (key: (Int, Int, String, Int, String, Int), row: FleetComparison.Row) in
            let path = MetricPath(r.metric)
            let group = r.context ? 2 : path.app == nil ? 1 : 0
            let focused = path.app.flatMap { focus.firstIndex(of: $0) } ?? focus.count
            return ((group, focused, path.app ?? "", MetricDirections.headlineRank(r.metric), r.metric, cellIndex[r.cell] ?? 0), r)
        }.sorted { $0.key < $1.key }.map(\.row)
    }

    static func row(cell: String, metric: String, diffs: [Int64], baseMean: Double, newMean: Double,
                    judging j: Thresholds.Judging, alpha: Double) -> FleetComparison.Row {
        let kind = MetricKind.of(metric)
        let test = PairedTest.wilcoxon(diffs)
        let relative = { (x: Double) in baseMean != 0 ? x / abs(baseMean) : nil }
        var row = FleetComparison.Row(
            cell: cell, metric: metric, kind: kind, direction: j.direction, pairs: diffs.count, baseMean: baseMean,
            newMean: newMean, meanChange: test.meanChange, ciLow: test.ciLow, ciHigh: test.ciHigh, pValue: test.pValue,
            rose: diffs.filter { $0 > 0 }.count, fell: diffs.filter { $0 < 0 }.count, verdict: .same,
            threshold: j.relative, minDelta: j.minDelta, message: nil, relativeChange: relative(test.meanChange),
            relativeCiLow: relative(test.ciLow), relativeCiHigh: relative(test.ciHigh), context: j.context,
            userThreshold: j.userSet, ignored: j.ignore)
        let change = test.meanChange
        guard let verdict = Comparer.judge(change: change, base: baseMean, direction: j.direction, relative: j.relative,
                                           floor: j.minDelta, ignore: j.ignore || j.context),
              test.pValue < alpha else { return row }
        row.verdict = verdict
        let relativeText = FleetCompareOutput.relativeText(row).map { ", \($0) relative" } ?? ""
        row.message = "\(cell): \(metric) \(change > 0 ? "rose" : "fell") from \(FleetCompareOutput.value(baseMean, kind)) "
            + "to \(FleetCompareOutput.value(newMean, kind)) a run on average, \(signed(change, kind)) "
            + "(95% CI \(signed(test.ciLow, kind)) to \(signed(test.ciHigh, kind)))\(relativeText), "
            + "p = \(pText(test.pValue)) over \(diffs.count) seeds"
        return row
    }

    static func signed(_ x: Double, _ kind: MetricKind) -> String {
        let magnitude = kind == .count ? String(format: "%.2f", abs(x)) : kind.format(abs(x))
        return (x < 0 ? "-" : "+") + magnitude
    }

    static func pText(_ p: Double) -> String { p < 0.0001 ? String(format: "%.1e", p) : String(format: "%.4f", p) }
}
