import Foundation
import MemprofCompare
import MemprofCore
import MemprofInput
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
    }

    public var limits: [Limit]

    /// Reads a budget file.
    ///
    /// - Throws: ``WorkloadError`` naming file, line, column and key.
    public static func parse(yaml text: String, file: String = "budget") throws -> Budget {
        let root = try NodeReader.root(of: text, file: file)
        let top = try root.mapping(allowed: ["apps", "summary"])
        var limits: [Limit] = []
        for (key, value) in top.entries {
            if key == "summary" { limits += try parseMetrics(value, prefix: "summary", appPlace: nil); continue }
            for (app, metrics) in try value.namedEntries() {
                guard !app.isEmpty, !app.contains(".") else { throw metrics.error("'\(app)' is not an app key") }
                limits += try parseMetrics(metrics, prefix: "apps.\(app)", appPlace: metrics.place)
            }
        }
        guard !limits.isEmpty else { throw root.error("no budgets in the file (give 'apps' and/or 'summary' limits)") }
        return Budget(limits: limits)
    }

    static func parseMetrics(_ node: NodeReader, prefix: String, appPlace: InputPlace?) throws -> [Limit] {
        var out: [Limit] = []
        for (name, limitNode) in try node.namedEntries() {
            let path = "\(prefix).\(name)"
            let fields = try limitNode.mapping(allowed: ["max", "min"])
            let kind = MetricKind.of(path)
            var limit = Limit(metric: path, place: limitNode.place, appPlace: appPlace)
            if let v = fields["max"] { limit.max = try Quantities.number(v, kind: kind) }
            if let v = fields["min"] { limit.min = try Quantities.number(v, kind: kind) }
            guard limit.max != nil || limit.min != nil else { throw limitNode.error("no max or min") }
            if let lo = limit.min, let hi = limit.max, lo > hi {
                throw limitNode.error("min (\(kind.format(lo))) is above max (\(kind.format(hi)))")
            }
            out.append(limit)
        }
        return out
    }
}
