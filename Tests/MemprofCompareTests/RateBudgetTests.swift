import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofInput
import Testing

/// Budget files on rates, for fleet results: statistics of each cell's runs, cells chosen by
/// their matrix values, and each mix-up refused where it is written.
@Suite struct RateBudgetTests {
    @Test func statisticsAndCellsAreRead() throws {
        let b = try Budget.parse(yaml: """
            apps:
              news:
                exits.memoryPressure: {mean: {max: 0.3}, shareAboveZero: {max: 25%}}
                peakFootprintBytes: {max: {max: 450MB}}
            cells:
              device.preset=iphone-11:
                apps:
                  news: {exits.memoryPressure: {mean: {max: 0.2}}}
            """, file: "rates.yaml")
        #expect(b.isFleet)
        #expect(b.limits.map { "\($0.cells ?? "*") \($0.metric) \($0.statistic!) \($0.max!)" } == [
            "* apps.news.exits.memoryPressure mean 0.3",
            "* apps.news.exits.memoryPressure shareAboveZero 0.25",
            "* apps.news.peakFootprintBytes max 471859200.0",
            "device.preset=iphone-11 apps.news.exits.memoryPressure mean 0.2",
        ])
    }

    @Test(arguments: [
        ("apps: {news: {exits.memoryPressure: {mean: {max: 1}}, evictions: {max: 2}}}",
         "rates.yaml:1:66: apps.news.evictions: a budget file limits either a run's metrics ({max, min}) or a fleet's "
            + "statistics ({mean|shareAboveZero|p50|p95|p99|max: {max, min}}), not both"),
        ("apps: {news: {peakFootprintBytes: {shareAboveZero: {max: 10%}}}}",
         "rates.yaml:1:52: apps.news.peakFootprintBytes.shareAboveZero: shareAboveZero is the share of runs where a count "
            + "is above zero; peakFootprintBytes is not a count"),
        ("apps: {news: {evictions: {shareAboveZero: {max: 120%}}}}",
         "rates.yaml:1:49: apps.news.evictions.shareAboveZero.max: a share is from 0% to 100%"),
        ("apps: {news: {evictions: {mean: {max: 1}, max: 3}}}",
         "rates.yaml:1:48: apps.news.evictions.max: a limit on a statistic goes inside it: {mean: {max: …}}"),
        ("cells: {all: {apps: {news: {evictions: {max: 1}}}}}",
         "rates.yaml:1:14: cells.all: budgets of cells are on statistics of their runs: {mean|shareAboveZero|p50|p95|p99|max: {max: …}}"),
    ])
    func mixUpsAreLocated(text: String, message: String) {
        #expect(throws: (any Error).self) { try Budget.parse(yaml: text, file: "rates.yaml") }
        do {
            _ = try Budget.parse(yaml: text, file: "rates.yaml")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func aReportIsNotCheckedAgainstRates() throws {
        let b = try Budget.parse(yaml: "apps: {mail: {evictions: {mean: {max: 1}}}}", file: "rates.yaml")
        do {
            _ = try BudgetChecker.check(makeReport(), against: b)
            Issue.record("a rate budget checked a report")
        } catch {
            #expect("\(error)" == "rates.yaml:1:33: apps.mail.evictions.mean: apps.mail.evictions mean: a statistic over a fleet's "
                + "runs; a report is one run, limited by {max, min}")
        }
    }
}
