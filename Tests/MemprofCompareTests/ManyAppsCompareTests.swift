@testable import MemprofReportReader
import Foundation
@testable import MemprofCompare
import MemprofCore
import MemprofReport
import Testing

/// compare keeps a report's metrics by scope (`ScopedMetrics`), each app's values beside names
/// shared by every app with the same ones; checked here against the flat paths they stand for
/// (`MetricExtractor.metrics(of:)`), on reports of thousands of apps. Its page is bounded
/// however many apps the reports have.
@Suite struct ManyAppsCompareTests {
    /// A report of `count` apps, every fourth with exits, resumes and time in a state of its own
    /// (so apps differ in the keys of a dictionary), `changed` of them with more evictions.
    static func manyApps(_ count: Int, changed: Set<Int> = []) -> Report {
        makeReport(apps: (0..<count).map { "app\($0)" }) { report in
            report.summary.evictions = changed.count
            for i in 0..<count where i % 4 == 0 {
                report.apps["app\(i)"]!.exits["memoryPressure"] = i % 3
                report.apps["app\(i)"]!.resumeLatencyUs = LatencySummary(samples: [Int64(100 + i), 300])
                report.apps["app\(i)"]!.timeInStateUs["suspended"] = Int64(i)
                report.apps["app\(i)"]!.timeInStateUs["elsewhere"] = Int64(i)
            }
            for i in changed { report.apps["app\(i)"]!.evictions = 2 }
        }
    }

    @Test func scopedMetricsAreTheFlatPathsAndAppsShareTheirNames() {
        let report = Self.manyApps(4_000)
        let names = ScopedMetrics.NameTable()
        let scoped = ScopedMetrics(report, names: names)
        var flat: [String: Double] = [:]
        for (name, value) in scoped.summary.pairs { flat["summary.\(name)"] = value }
        for (app, scope) in scoped.apps {
            for (name, value) in scope.pairs { flat["apps.\(app).\(name)"] = value }
        }
        #expect(flat == MetricExtractor.metrics(of: report))
        // Two kinds of app (with and without the dictionaries' extra keys): two lists of names,
        // whatever the order in which each app's dictionaries list their keys.
        #expect(Set(scoped.apps.values.map { ObjectIdentifier($0.names) }).count == 2)
        #expect(names.byList.count == 3, "the summary's, and the apps' two")
    }

    /// The rows are every metric of either report, the apps' by key with their headline metrics
    /// first then by path, the summary's last, each judged as `compareMetric` judges it alone.
    @Test func rowsAreEveryMetricInOrderJudgedAsAlone() throws {
        let base = Self.manyApps(3_000)
        var new = Self.manyApps(3_000, changed: [8, 1_500, 2_999])
        new.apps["extra"] = AppStats(name: "Extra")
        new.apps["app7"] = nil
        let c = try Comparer.compare(base: base, new: new)
        let a = MetricExtractor.metrics(of: base), b = MetricExtractor.metrics(of: new)
        let paths = Set(a.keys).union(b.keys)
        let expected = paths.map { path in
            let parsed = MetricPath(path)
            return (app: parsed.app, rank: parsed.app == nil ? 0 : MetricDirections.headlineRank(path), path: path)
        }.sorted { x, y in
            if (x.app == nil) != (y.app == nil) { return x.app != nil }
            if x.app != y.app { return x.app! < y.app! }
            return (x.rank, x.path) < (y.rank, y.path)
        }.map(\.path)
        #expect(c.metrics.map(\.metric) == expected)
        for row in c.metrics where !row.metric.contains(".resumeLatencyUs.") {
            #expect(row == Comparer.compareMetric(row.metric, base: a[row.metric], new: b[row.metric], thresholds: Thresholds()))
        }
        #expect(c.regressions.map(\.metric) == ["apps.app1500.evictions", "apps.app2999.evictions", "apps.app8.evictions",
                                                "summary.evictions"])
        #expect(c.count(.gone) == a.keys.filter { $0.hasPrefix("apps.app7.") }.count)
        #expect(c.count(.new) == b.keys.filter { $0.hasPrefix("apps.extra.") }.count)
    }

    /// Every full path reads the value of the flat paths (as check reads a budget's metrics).
    @Test func aFullPathReadsItsScope() {
        let report = Self.manyApps(50)
        let scoped = ScopedMetrics(report)
        for (path, value) in MetricExtractor.metrics(of: report) { #expect(scoped[path] == value, "\(path)") }
        #expect(scoped["apps.app1.nothing"] == nil && scoped["summary"] == nil && scoped["apps.nobody.evictions"] == nil)
    }

    /// The compare page of thousands of apps, all of them worse, draws the 100 the new run
    /// troubled most one by one (the rest one layer and a sentence), names at most 100 changes
    /// with 20 metrics each, and shows the first 600 rows of the metrics table.
    @Test func thePageOfManyAppsIsBounded() throws {
        func page(_ count: Int) throws -> String {
            let base = Self.manyApps(count)
            let new = Self.manyApps(count, changed: Set(0..<count))
            return CompareHTML.comparison(try Comparer.compare(base: base, new: new), base: base, new: new)
        }
        let small = try page(1_000), large = try page(4_000)
        for (html, count) in [(small, 1_000), (large, 4_000)] {
            #expect(html.components(separatedBy: "<option value=\"").count - 1 == 102, "'all apps', 100 apps and the note")
            #expect(html.contains("(the 100 most affected of \(CompareHTML.count(count)) apps)"))
            #expect(html.contains("The memory of \(CompareHTML.count(count - 100)) more apps is one layer"))
            #expect(html.components(separatedBy: "<li class=\"cause\">").count - 1 == 100)
            #expect(html.contains("more changes are left out"))
            #expect(html.components(separatedBy: "<tr class=\"v-").count - 1 == 600)
            #expect(html.contains("The first 600 of \(CompareHTML.count(count + 1)) rows"))
        }
        // Four times the apps, about the same page (the apps' names in the hidden data aside).
        #expect(Double(large.utf8.count) < 1.2 * Double(small.utf8.count), "\(small.utf8.count) → \(large.utf8.count)")
        // A few apps: every one drawn, no sentence.
        let few = try page(30)
        #expect(few.components(separatedBy: "<option value=\"").count - 1 == 31)
        #expect(!few.contains("most affected") && !few.contains("more changes are left out") && !few.contains("The first 600"))
    }

    /// check's page of a report of many apps draws 100 of them, the rest one layer.
    @Test func checksMemoryChartIsBounded() {
        let section = CompareHTML.memorySection(Self.manyApps(1_000)).html
        #expect(section.contains("The memory of 900 more apps is one layer: this page draws the 100 apps with the most exits "
                                 + "and evictions in the run (then the largest) of 1,000"))
        #expect(section.components(separatedBy: "<li><i style=").count - 1 == 101, "100 apps and the folded layer in the legend")
    }
}
