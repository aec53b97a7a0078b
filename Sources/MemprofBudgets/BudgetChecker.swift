import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport
import MemprofWorkload

public enum BudgetChecker {
    /// At most this many causing events per broken budget; the rest are counted.
    public static let maxCauses = 12

    public static func check(_ report: Report, against budget: Budget) throws -> BudgetCheck {
        let metrics = MetricExtractor.metrics(of: report)
        var results: [BudgetResult] = []
        for limit in budget.limits {
            let path = MetricPath(limit.metric)
            let paths: [String]
            if path.app == "*" {
                paths = report.apps.keys.sorted().map { "apps.\($0).\(path.relative)" }
            } else {
                if let app = path.app, report.apps[app] == nil {
                    let apps = report.apps.keys.sorted()
                    let message = withSuggestion("no app '\(app)' in the report", for: app, among: apps)
                        + "; it has \(apps.joined(separator: ", "))"
                    throw limit.appPlace.map { $0.error(message) } ?? CompareInputError.badBudget(message)
                }
                paths = [limit.metric]
            }
            for full in paths {
                guard let actual = metrics[full] else {
                    let inSummary = full.hasPrefix("summary.")
                    let scope = inSummary ? "summary" : "apps.<key>"
                    let known = Set(metrics.keys.filter { $0.hasPrefix("summary.") == inSummary }
                        .map { MetricPath($0).relative }).sorted()
                    let name = MetricPath(full).relative
                    let message = withSuggestion("'\(name)' is not a metric of \(scope)", for: name, among: known)
                        + "; metrics are: \(known.joined(separator: ", "))"
                    throw limit.place.map { $0.error(message) } ?? CompareInputError.badBudget(message)
                }
                results.append(result(full, limit: limit, actual: actual, report: report))
            }
        }
        return BudgetCheck(workload: report.run.workload, results: results)
    }

    static func result(_ full: String, limit: Budget.Limit, actual: Double, report: Report) -> BudgetResult {
        let p = MetricPath(full)
        let kind = MetricKind.of(full)
        var met = true
        var message = "\(p.scopeName): \(p.relative) is \(kind.format(actual))"
        if let hi = limit.max, actual > hi {
            met = false
            message = "\(p.scopeName): \(p.relative) allowed at most \(kind.format(hi)), was \(kind.format(actual))"
        } else if let lo = limit.min, actual < lo {
            met = false
            message = "\(p.scopeName): \(p.relative) allowed at least \(kind.format(lo)), was \(kind.format(actual))"
        } else {
            let bounds = [limit.min.map { "at least \(kind.format($0))" }, limit.max.map { "at most \(kind.format($0))" }]
                .compactMap { $0 }.joined(separator: " and ")
            message += " (allowed \(bounds))"
        }
        let causes = met ? [] : Evidence.causes(of: p, report: report, limit: maxCauses)
        return BudgetResult(metric: full, scope: p.scopeName, name: p.relative, kind: kind, max: limit.max, min: limit.min,
                            actual: actual, met: met, message: message, causes: causes)
    }
}
