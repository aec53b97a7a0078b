import MemprofReportReader
import Foundation
import MemprofCompare
import MemprofCore
import MemprofOutput
import MemprofReport

/// One budget checked against one report.
public struct BudgetResult: Sendable, Codable, Equatable {
    public var metric: String
    public var scope: String
    public var name: String
    public var kind: MetricKind
    public var max: Double?
    public var min: Double?
    public var actual: Double
    public var met: Bool
    /// "allowed at most 1, was 3" …
    public var message: String
    /// What made it happen: events with their times and reasons (broken budgets only); for a
    /// fleet, the cell's worst runs with the line that replays each.
    public var causes: [String]
    /// Fleet results: the cell (its label) and the statistic of its runs.
    public var cell: String?
    public var statistic: String?

    public init(metric: String, scope: String, name: String, kind: MetricKind, max: Double?, min: Double?, actual: Double,
                met: Bool, message: String, causes: [String], cell: String? = nil, statistic: String? = nil) {
        self.metric = metric
        self.scope = scope
        self.name = name
        self.kind = kind
        self.max = max
        self.min = min
        self.actual = actual
        self.met = met
        self.message = message
        self.causes = causes
        self.cell = cell
        self.statistic = statistic
    }
}

public struct BudgetCheck: Sendable, Codable {
    public var schema = "memprof.check/1"
    public var workload: String
    public var results: [BudgetResult]

    public init(workload: String, results: [BudgetResult]) {
        self.workload = workload
        self.results = results
    }

    public var broken: [BudgetResult] { results.filter { !$0.met } }
    public var passed: Bool { broken.isEmpty }
}
