import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore

/// The figures the sweep summary and fleet.html give per cell (and per population of a `mix`),
/// each counting what its heading says; README "Fleets" defines every one. A day is one run of
/// the workload (its `duration`).
struct CellFigures {
    /// A cell's metrics, or a weighted total's (means and shares only).
    var mean: (String) -> Double?
    var share: (String) -> Double?
    /// nil for a weighted total: percentiles of cells do not add up to a population's.
    var percentile: ((String, Int) -> Int64?)?
    var memoryKillDays: FleetResult.MemoryKillDays?
    /// The apps whose memory kills the metrics count.
    var apps: [String]

    init(_ cell: FleetResult.Cell) {
        let m = cell.metrics
        apps = Self.apps(m.keys)
        mean = { m[$0]?.mean }
        share = { m[$0]?.shareAboveZero }
        percentile = { name, p in
            guard let s = m[name] else { return nil }
            return p == 50 ? s.p50 : s.p95
        }
        memoryKillDays = cell.memoryKillDays
    }

    init(_ total: FleetResult.WeightedTotal) {
        let m = total.metrics
        apps = Self.apps(m.keys)
        mean = { m[$0]?.mean }
        share = { m[$0]?.shareAboveZero }
        percentile = nil
        memoryKillDays = total.memoryKillDays
    }

    static func apps(_ names: some Sequence<String>) -> [String] {
        names.compactMap { name in
            let path = MetricPath(name)
            return path.relative == MetricColumns.memoryKills ? path.app : nil
        }.sorted()
    }

    /// Memory kills a day (`ExitReason.isMemoryKill`: jetsam ending the app for memory, for
    /// whatever reason xnu gives): of one app, or of every app of the run together.
    func memoryKills(app: String? = nil) -> Double? {
        guard let app else {
            let perApp = apps.compactMap { memoryKills(app: $0) }
            return perApp.isEmpty ? nil : perApp.reduce(0, +)
        }
        return mean("apps.\(app).\(MetricColumns.memoryKills)")
    }

    /// An app's memory kills a day while it was not in the foreground.
    func backgroundMemoryKills(app: String) -> Double? {
        guard let all = memoryKills(app: app) else { return nil }
        let foreground = ExitReason.memoryKills.compactMap { mean("apps.\(app).foregroundExits.\($0.rawValue)") }.reduce(0, +)
        return max(0, all - foreground)
    }

    /// The share of days with a memory kill: of any app, or of one.
    func daysWithMemoryKill(app: String? = nil) -> Double? {
        guard let days = memoryKillDays else { return nil }
        return app.map { days.apps[$0] ?? 0 } ?? days.all
    }

    // Text as the summary and the page print it.

    static func percent(_ share: Double?) -> String { share.map(FleetSummary.percent) ?? "-" }
    static func rate(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
    func percentileText(_ name: String, _ p: Int, kind: MetricKind = .count) -> String {
        guard let percentile else { return "-" }
        return percentile(name, p).map { kind == .count ? String($0) : kind.format(Double($0)) } ?? "-"
    }

    /// The run's columns: days with an eviction, evictions a day, cold launches p50 and p95, peak
    /// used p95, memory kills a day, days with a memory kill.
    static let headings = ["days with an eviction", "evictions a day", "cold p50", "cold p95", "peak used p95",
                           "memory kills a day", "days with a memory kill"]

    var columns: [String] {
        [Self.percent(share("summary.evictions")), Self.rate(mean("summary.evictions")),
         percentileText("summary.coldLaunches", 50), percentileText("summary.coldLaunches", 95),
         percentileText("summary.peakUsedBytes", 95, kind: .bytes),
         Self.rate(memoryKills()), Self.percent(daysWithMemoryKill())]
    }

    /// One app's columns (`memprof sweep --app`, fleet.html's per-app tables).
    static let appHeadings = ["days evicted", "evictions a day", "memory kills a day", "in the background",
                              "days with a memory kill", "cold launches a day", "peak p95", "suspended mean"]

    func appColumns(_ app: String) -> [String] {
        let p = "apps.\(app)."
        return [Self.percent(share(p + "evictions")), Self.rate(mean(p + "evictions")),
                Self.rate(memoryKills(app: app)), Self.rate(backgroundMemoryKills(app: app)),
                Self.percent(daysWithMemoryKill(app: app)), Self.rate(mean(p + "launches.cold")),
                percentileText(p + "peakFootprintBytes", 95, kind: .bytes),
                mean(p + "suspendedMemory.averageBytes").map { MetricKind.bytes.format($0) } ?? "-"]
    }
}
