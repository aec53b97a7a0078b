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
    /// What made it happen: events with their times and reasons (broken budgets only).
    public var causes: [String]
}

public struct BudgetCheck: Sendable, Codable {
    public var schema = "memprof.check/1"
    public var workload: String
    public var results: [BudgetResult]

    public var broken: [BudgetResult] { results.filter { !$0.met } }
    public var passed: Bool { broken.isEmpty }
}
