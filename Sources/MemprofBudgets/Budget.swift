import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport
import Yams

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
    }

    public var limits: [Limit]

    public static func parse(yaml text: String) throws -> Budget {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw CompareInputError.badBudget("not YAML: \(error)")
        }
        guard let root, let top = root.mapping else {
            throw CompareInputError.badBudget("expected a mapping with 'apps' and/or 'summary'")
        }
        var limits: [Limit] = []
        for (keyNode, value) in top {
            switch keyNode.string ?? "" {
            case "summary":
                limits += try parseMetrics(value, prefix: "summary")
            case "apps":
                guard let apps = value.mapping else { throw CompareInputError.badBudget("'apps' must map app keys to budgets") }
                for (appNode, metrics) in apps {
                    let app = appNode.string ?? ""
                    guard !app.isEmpty, !app.contains(".") else { throw CompareInputError.badBudget("'\(app)' is not an app key") }
                    limits += try parseMetrics(metrics, prefix: "apps.\(app)")
                }
            case let other:
                throw CompareInputError.badBudget("unknown key '\(other)' at the top (use apps, summary)")
            }
        }
        guard !limits.isEmpty else { throw CompareInputError.badBudget("no budgets in the file") }
        return Budget(limits: limits)
    }

    static func parseMetrics(_ node: Node, prefix: String) throws -> [Limit] {
        guard let mapping = node.mapping else {
            throw CompareInputError.badBudget("'\(prefix)' must map metric names to limits such as {max: 1}")
        }
        var out: [Limit] = []
        for (nameNode, limitNode) in mapping {
            let name = nameNode.string ?? ""
            let path = "\(prefix).\(name)"
            guard let fields = limitNode.mapping else {
                throw CompareInputError.badBudget("\(path): expected a limit such as {max: 1}")
            }
            var limit = Limit(metric: path)
            for (fieldNode, valueNode) in fields {
                let field = fieldNode.string ?? ""
                guard let text = valueNode.scalar?.string else {
                    throw CompareInputError.badBudget("\(path).\(field): expected a single value")
                }
                let value: Double
                do {
                    value = try Quantities.number(text, kind: MetricKind.of(path), context: "\(path).\(field)")
                } catch CompareInputError.badThresholds(let why) {
                    throw CompareInputError.badBudget(why)
                }
                switch field {
                case "max": limit.max = value
                case "min": limit.min = value
                default: throw CompareInputError.badBudget("\(path): unknown limit '\(field)' (use max, min)")
                }
            }
            guard limit.max != nil || limit.min != nil else { throw CompareInputError.badBudget("\(path): no max or min") }
            if let lo = limit.min, let hi = limit.max, lo > hi {
                throw CompareInputError.badBudget("\(path): min is above max")
            }
            out.append(limit)
        }
        return out
    }
}
