import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofInput
import MemprofOutput
import MemprofReport

public enum BudgetChecker {
    /// At most this many causing events per broken budget; the rest are counted.
    public static let maxCauses = 12

    /// - Parameters:
    ///   - metrics: the report's metrics when read with it (`ReportLoader.loadWithMetrics`); nil: made here.
    ///   - evidence: the causes gathered while reading the report (`Evidence.Digest` of the
    ///     budget's metrics), with `reread` reading its events again; nil: drawn from its events.
    public static func check(_ report: Report, against budget: Budget, metrics: ScopedMetrics? = nil, evidence: Evidence.Digest? = nil,
                             reread: ((Set<SimEvent.Kind>, (SimEvent) -> Void) throws -> Void)? = nil) throws -> BudgetCheck {
        if let fleet = budget.limits.first(where: { $0.statistic != nil }) {
            let message = "\(fleet.metric) \(fleet.statistic!): a statistic over a fleet's runs; a report is one run, "
                + "limited by {max, min}"
            throw fleet.place.map { $0.error(message) } ?? CompareInputError.badBudget(message)
        }
        let metrics = metrics ?? ScopedMetrics(report)
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
                    let scopes = inSummary ? [metrics.summary] : Array(metrics.apps.values)
                    // Apps share their lists of names: each list once.
                    var lists: [ObjectIdentifier: ScopedMetrics.Names] = [:]
                    for scope in scopes { lists[ObjectIdentifier(scope.names)] = scope.names }
                    let known = Set(lists.values.flatMap(\.list)).sorted()
                    let name = MetricPath(full).relative
                    let message = withSuggestion("'\(name)' is not a metric of \(scope)", for: name, among: known)
                        + "; metrics are: \(known.joined(separator: ", "))"
                    throw limit.place.map { $0.error(message) } ?? CompareInputError.badBudget(message)
                }
                results.append(result(full, limit: limit, actual: actual))
            }
        }
        // The events behind each broken budget, in one pass over the events for them all.
        let broken = results.filter { !$0.met }.map { MetricPath($0.metric) }
        guard !broken.isEmpty else { return BudgetCheck(workload: report.run.workload, results: results) }
        let digest = evidence ?? Evidence.Digest(paths: broken, limit: maxCauses)
        if evidence == nil { report.events.forEach(digest.add) }
        let causes = try digest.causes(of: broken, report: report, reread: reread ?? { _, visit in report.events.forEach(visit) })
        for index in results.indices where !results[index].met { results[index].causes = causes[results[index].metric] ?? [] }
        return BudgetCheck(workload: report.run.workload, results: results)
    }

    static func result(_ full: String, limit: Budget.Limit, actual: Double) -> BudgetResult {
        let p = MetricPath(full)
        let kind = MetricKind.of(full)
        let (met, message) = judge(actual, limit: limit, subject: "\(p.scopeName): \(p.relative)", format: kind.format)
        return BudgetResult(metric: full, scope: p.scopeName, name: p.relative, kind: kind, max: limit.max, min: limit.min,
                            actual: actual, met: met, message: message, causes: [])
    }

    /// Whether `actual` keeps within `limit`, and the sentence: "`subject` allowed at most 1, was
    /// 3", or "`subject` is 1 (allowed at most 1)".
    public static func judge(_ actual: Double, limit: Budget.Limit, subject: String,
                             format: (Double) -> String) -> (met: Bool, message: String) {
        if let hi = limit.max, actual > hi { return (false, "\(subject) allowed at most \(format(hi)), was \(format(actual))") }
        if let lo = limit.min, actual < lo { return (false, "\(subject) allowed at least \(format(lo)), was \(format(actual))") }
        let bounds = [limit.min.map { "at least \(format($0))" }, limit.max.map { "at most \(format($0))" }]
            .compactMap { $0 }.joined(separator: " and ")
        return (true, "\(subject) is \(format(actual)) (allowed \(bounds))")
    }
}
