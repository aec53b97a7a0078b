import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofInput
import MemprofYAMLReader
import MemprofOutput
import MemprofReport

/// Absolute limits on a report's metrics (`memprof check REPORT --budget FILE`):
///
///     apps:
///       mail: {evictions: {max: 1}, exits.memoryLimit: {max: 0}, peakFootprintBytes: {max: 150MB}}
///       "*": {exits.watchdog: {max: 0}}          # every app of the report
///     summary:
///       backgroundTasks.expiredKilled: {max: 0}
///       fetches.completed: {min: 4}
///
/// Metric names are the paths below `summary.` or `apps.<key>.` that `compare` prints. Limits are
/// `max` and/or `min`, both inclusive; values are numbers in the metric's unit, or sizes (`150MB`,
/// powers of 1024) for bytes and durations (`250ms`) for times. An app or metric the report does not
/// have is an error, so a typo cannot pass silently.
///
/// For a fleet result (`memprof check FLEET --budget FILE`) a limit is on a statistic of the
/// metric over each cell's runs, and `cells:` gives budgets to the cells whose matrix values
/// include a `key=value` (or whose label is the key):
///
///     apps:
///       news: {exits.memoryPressure: {mean: {max: 0.5}}}          # every cell
///     cells:
///       device.preset=iphone-11:
///         apps:
///           news: {exits.memoryPressure: {mean: {max: 0.3}, shareAboveZero: {max: 25%}}}
public struct Budget: Sendable, Equatable {
    public struct Limit: Sendable, Equatable {
        /// A full metric path, or `apps.*.…` for every app.
        public var metric: String
        public var max: Double?
        public var min: Double?
        /// Where the limit was read: its metric name in the budget file.
        public var place: InputPlace?
        /// Where its app key was read (for `apps.<key>.…`).
        public var appPlace: InputPlace?
        /// Fleet results: the statistic over a cell's runs the limit is on (``statistics``).
        public var statistic: String?
        /// Fleet results: the cells it holds for (a label, or `key=value` pairs the label has);
        /// nil for every cell.
        public var cells: String?
        /// Where the cells' selector was read.
        public var cellsPlace: InputPlace?
    }

    public var limits: [Limit]

    /// The statistics a fleet budget may limit, per cell over its runs (one run is one day of
    /// the workload): the mean, the share of runs where a count is above zero (`25%`), and
    /// nearest-rank percentiles and the largest value.
    public static let statistics = ["mean", "shareAboveZero", "p50", "p95", "p99", "max"]

    /// Whether the file limits statistics (a budget for fleet results).
    public var isFleet: Bool { limits.contains { $0.statistic != nil } }

    /// Reads a budget file.
    ///
    /// - Throws: ``WorkloadError`` naming file, line, column and key.
    public static func parse(yaml text: String, file: String = "budget") throws -> Budget {
        let root = try NodeReader.root(of: text, file: file)
        let top = try root.mapping(allowed: ["apps", "summary", "cells"])
        var limits = try parseScopes(top, cells: nil, cellsPlace: nil)
        if let cells = top["cells"] {
            for (selector, body) in try cells.namedEntries() {
                guard !selector.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw body.error("a cell is named by its label or key=value pairs")
                }
                let scoped = try parseScopes(try body.mapping(allowed: ["apps", "summary"]), cells: selector,
                                             cellsPlace: body.place)
                guard scoped.allSatisfy({ $0.statistic != nil }) else {
                    throw body.error("budgets of cells are on statistics of their runs: "
                        + "{\(statistics.joined(separator: "|")): {max: …}}")
                }
                limits += scoped
            }
        }
        guard !limits.isEmpty else { throw root.error("no budgets in the file (give 'apps' and/or 'summary' limits)") }
        if let plain = limits.first(where: { $0.statistic == nil }), let fleet = limits.first(where: { $0.statistic != nil }) {
            throw (plain.place ?? fleet.place ?? root.place).error("a budget file limits either a run's metrics ({max, min}) "
                + "or a fleet's statistics ({\(statistics.joined(separator: "|")): {max, min}}), not both")
        }
        return Budget(limits: limits)
    }

    static func parseScopes(_ top: Mapping, cells: String?, cellsPlace: InputPlace?) throws -> [Limit] {
        var limits: [Limit] = []
        for (key, value) in top.entries where key != "cells" {
            if key == "summary" {
                limits += try parseMetrics(value, prefix: "summary", appPlace: nil)
            } else {
                for (app, metrics) in try value.namedEntries() {
                    guard !app.isEmpty, !app.contains(".") else { throw metrics.error("'\(app)' is not an app key") }
                    limits += try parseMetrics(metrics, prefix: "apps.\(app)", appPlace: metrics.place)
                }
            }
        }
        return limits.map { limit in
            var limit = limit
            limit.cells = cells
            limit.cellsPlace = cellsPlace
            return limit
        }
    }

    static func parseMetrics(_ node: NodeReader, prefix: String, appPlace: InputPlace?) throws -> [Limit] {
        var out: [Limit] = []
        for (name, limitNode) in try node.namedEntries() {
            let path = "\(prefix).\(name)"
            let fields = try limitNode.mapping(allowed: ["max", "min"] + statistics.filter { $0 != "max" })
            let kind = MetricKind.of(path)
            // `{max: {max: …}}` is the largest value's limit; `{max: 3}` a run's.
            let statisticEntries = fields.entries.filter { key, value in
                statistics.contains(key) && (key != "max" || value.isMappingNode)
            }
            if !statisticEntries.isEmpty {
                for (statistic, body) in statisticEntries {
                    var limit = try parseBounds(try body.mapping(allowed: ["max", "min"]), body, path: path,
                                                kind: statistic == "shareAboveZero" ? nil : kind, statistic: statistic)
                    limit.appPlace = appPlace
                    if statistic == "shareAboveZero", kind != .count {
                        throw body.error("shareAboveZero is the share of runs where a count is above zero; \(name) is not a count")
                    }
                    out.append(limit)
                }
                if let plain = ["min", "max"].first(where: { key in fields[key].map { !$0.isMappingNode } ?? false }) {
                    throw fields[plain]!.error("a limit on a statistic goes inside it: {mean: {\(plain): …}}")
                }
                continue
            }
            var limit = try parseBounds(fields, limitNode, path: path, kind: kind, statistic: nil)
            limit.appPlace = appPlace
            out.append(limit)
        }
        return out
    }

    /// `{max, min}` of one limit; `kind` nil for a share (`25%`, or a fraction from 0 to 1).
    static func parseBounds(_ fields: Mapping, _ node: NodeReader, path: String, kind: MetricKind?,
                            statistic: String?) throws -> Limit {
        var limit = Limit(metric: path, place: node.place, statistic: statistic)
        func bound(_ v: NodeReader) throws -> Double {
            guard kind == nil else {
                // A mean of counts is fractional (0.3 kills a day): any number, not a whole one.
                let unit = statistic == "mean" && kind == .count ? nil : kind
                return try v.value { MetricValues.number($0, kind: unit) }
            }
            let text = try v.string()
            let share = text.hasSuffix("%") ? try v.value(Quantity.percent) : try v.value { MetricValues.number($0, kind: nil) }
            guard (0...1).contains(share) else { throw v.error("a share is from 0% to 100%") }
            return share
        }
        if let v = fields["max"] { limit.max = try bound(v) }
        if let v = fields["min"] { limit.min = try bound(v) }
        guard limit.max != nil || limit.min != nil else { throw node.error("no max or min") }
        if let lo = limit.min, let hi = limit.max, lo > hi {
            let format = { (x: Double) in kind?.format(x) ?? String(x) }
            throw node.error("min (\(format(lo))) is above max (\(format(hi)))")
        }
        return limit
    }
}
