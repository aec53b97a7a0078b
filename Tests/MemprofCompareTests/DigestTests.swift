import Foundation
import MemprofBudgets
import MemprofCompare
import MemprofCore
import MemprofHTML
import MemprofInput
import MemprofOutput
import MemprofReport
import MemprofReportReader
import MemprofTestSupport
import MemprofWorkload
import Testing

/// compare and check gather what they need of the events while reading a report
/// (`DecisionDigest`, `Evidence.Digest`) instead of keeping them: their outputs must be exactly
/// those drawn from the events.
@Suite struct DigestTests {
    /// A report read as compare reads it: with the events kept, or gathered into `sink`.
    func read(_ data: Data, sink: ReportEventSink? = nil, options: ReportReadOptions = ReportLoader.compareOptions) throws -> Report {
        try ReportLoader.decode(data, path: "r.json", options: options, sink: sink)
    }

    @Test(arguments: ["phone-day", "phone-day-xnu", "background-heavy", "ipad-afternoon"])
    func comparePageIsTheSameFromTheDigest(name: String) throws {
        let one = try ReportJSON.encode(try ReportFixture.builtin(name, seed: 1))
        let two = try ReportJSON.encode(try ReportFixture.builtin(name, seed: 7))
        for (a, b) in [(one, two), (two, one)] {
            let base = try read(a), new = try read(b)
            #expect(!base.events.isEmpty)
            let c = try Comparer.compare(base: base, new: new)
            let links = CompareHTML.Links(base: "base/report.html", new: "new/report.html")
            let expected = CompareHTML.comparison(c, base: base, new: new, all: true, links: links)

            let baseDigest = DecisionDigest()
            let lightBase = try read(a, sink: baseDigest)
            let newDigest = DecisionDigest(base: baseDigest)
            let lightNew = try read(b, sink: newDigest)
            #expect(lightBase.events.isEmpty && lightNew.events.isEmpty)
            let c2 = try Comparer.compare(base: lightBase, new: lightNew)
            let page = CompareHTML.comparison(c2, base: lightBase, new: lightNew, all: true, links: links,
                                              digests: (baseDigest, newDigest))
            #expect(page == expected)
        }
    }

    @Test(arguments: ["phone-day", "phone-day-xnu", "background-heavy"])
    func checkIsTheSameFromTheDigest(name: String) throws {
        let full = try ReportFixture.builtin(name, seed: 3)
        let data = try ReportJSON.encode(full)
        // Every metric with events behind it, broken (max 0, or a peak below the actual).
        var yaml = "apps:\n  \"*\": {evictions: {max: 0}, exits.memoryPressure: {max: 0}, launches.cold: {max: 0}, "
            + "coldRelaunchesAfterKill: {max: 0}, memoryWarnings: {max: 0}, compressions: {max: 0}, launches.warm: {max: 0}, launches.fromCompressed: {max: 0}, "
            + "resumeLatencyUs.max: {max: 0}, backgroundTasks.started: {max: 0}, backgroundTasks.completed: {max: 0}, "
            + "peakFootprintBytes: {max: 0}}\n"
        yaml += "summary:\n  evictions: {max: 0}\n  memoryWarnings: {max: 0}\n  timeAtPressureUs.warning: {max: 0}\n"
            + "  timeAtPressureUs.critical: {max: 0}\n  peakUsedBytes: {max: 0}\n  coldLaunches: {max: 0}\n"
            + "  terminations.memoryPressure: {max: 0}\n  fetches.completed: {max: 0}\n"
        let budget = try Budget.parse(yaml: yaml)
        let paths = budget.limits.map { MetricPath($0.metric) }
        var options = ReportLoader.compareOptions
        options.candidates = true
        options.takenCandidatesOnly = true
        options.eventKinds = SimEvent.Kind.decisionRowKinds.union(Evidence.eventKinds(for: paths))

        let kept = try read(data, options: options)
        let expected = try BudgetChecker.check(kept, against: budget)
        #expect(expected.broken.contains { $0.causes.count > 1 })

        let decisions = DecisionDigest()
        let evidence = Evidence.Digest(paths: paths, limit: BudgetChecker.maxCauses)
        decisions.send(to: evidence)
        let light = try read(data, sink: decisions, options: options)
        #expect(light.events.isEmpty)
        let range = try #require(decisions.eventsRange)
        let check = try BudgetChecker.check(light, against: budget, evidence: evidence) { kinds, visit in
            try data.withUnsafeBytes { bytes in
                try withoutActuallyEscaping(visit) { visit in
                    try ReportReader.readEvents(bytes, at: range, kinds: kinds, sink: EventVisitor(visit))
                }
            }
        }
        #expect(try CheckOutput.json(check) == CheckOutput.json(expected))
        #expect(CheckOutput.html(check, report: light, marks: decisions.finish().marks) == CheckOutput.html(expected, report: kept))
    }

    /// Many more marks than columns, at random times: thinned to a few per column, drawn the same.
    @Test func marksAreThinnedButDrawnTheSame() throws {
        var generator = SeededGenerator(seed: 11)
        var full = try ReportFixture.builtin("phone-day")
        let duration = full.run.durationUs
        var times = (0..<60_000).map { _ in Int64.random(in: 0..<duration, using: &generator) }.sorted()
        // Runs of marks at one instant and bursts closer than a column.
        times += Array(repeating: duration - 1, count: 500)
        var events: [SimEvent] = []
        for (i, t) in times.enumerated() {
            switch i % 3 {
            case 0: events.append(SimEvent(atUs: t, app: "mail", .compression(bytes: 1, compressedBytes: 1, freezer: nil)))
            case 1: events.append(SimEvent(atUs: t, app: "mail", .memoryWarning(.pressure, freedBytes: 0)))
            default: events.append(SimEvent(atUs: t, app: "mail", .exit(.memoryLimit, from: .background)))
            }
        }
        full.events = events
        var marks = DecisionMarks()
        var builder = DecisionRowBuilder()
        for e in events { builder.add(e) { marks.add($0) } }
        builder.finish { marks.add($0) }
        #expect(marks.count < 3 * 8192, "each kind thinned to a few marks per column")
        var light = full
        light.events = []
        #expect(CompareHTML.memorySection(light, marks: marks).html == CompareHTML.memorySection(full).html)
    }
}

/// `MetricExtractor` flattens the report model without JSON; its names and values must stay those
/// of the model's JSON form (what JSONEncoder writes, read back number by number), as they were
/// when it encoded to JSON.
struct MetricFlattenerTests {
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func sameMetricsAsTheJSONForm(_ name: String) throws {
        let report = try ReportFixture.builtin(name)
        var expected: [String: Double] = [:]
        try Self.flattenJSON(report.summary, prefix: "summary", into: &expected)
        try Self.flattenJSON(report.apps, prefix: "apps", into: &expected)
        let metrics = MetricExtractor.metrics(of: report)
        #expect(expected.filter { metrics[$0.key] != $0.value }.isEmpty)
        // What the extractor adds to the JSON form: each app's memoryKills, and as 0 the exit
        // reasons report.json leaves out.
        let added = metrics.filter { expected[$0.key] == nil }
        let reasons = Set(ExitReason.allCases.map(\.rawValue))
        for (name, value) in added where MetricPath(name).relative != "memoryKills" {
            let parts = name.split(separator: ".")
            #expect(value == 0 && reasons.contains(String(parts.last!))
                        && ["terminations", "exits", "foregroundExits"].contains(parts[parts.count - 2]), "\(name)")
        }
        #expect(added.keys.filter { MetricPath($0).relative == "memoryKills" }.count == report.apps.count)
        #expect(report.apps.allSatisfy { metrics["apps.\($0.key).memoryKills"] == Double(ExitReason.memoryKills(in: $0.value.exits)) })
    }

    @Test func booleansCountAsOneOrZeroAndFloatsAsTheirText() throws {
        struct Odd: Encodable {
            var on = true, off = false, ratio: Float = 0.1, name = "x", list = [1, 2]
            var nested = ["a": 1.5]
        }
        var expected: [String: Double] = [:]
        try Self.flattenJSON(Odd(), prefix: "summary", into: &expected)
        var pairs: [(String, Double)] = []
        MetricFlattener.flatten(Odd(), prefix: "summary", into: &pairs)
        #expect(Dictionary(pairs, uniquingKeysWith: { $1 }) == expected)
        #expect(expected == ["summary.on": 1, "summary.off": 0, "summary.ratio": 0.1, "summary.nested.a": 1.5])
    }

    /// The JSON route: every number of `value`'s JSON form under `prefix` (strings, nulls and
    /// lists are not metrics; a boolean counts as 1 or 0).
    static func flattenJSON<T: Encodable>(_ value: T, prefix: String, into out: inout [String: Double]) throws {
        func walk(_ s: inout JSONScanner, _ path: String) throws {
            switch s.peek() {
            case 0x7B:
                try s.beginObject()
                var first = true
                while let key = try s.nextMember(first: &first) { try walk(&s, path + "." + s.string(key)) }
            case 0x5B, 0x22, 0x6E: try s.skipValue()
            case 0x74, 0x66: out[path] = try s.readBool() ? 1 : 0
            default: out[path] = try s.readDouble()
            }
        }
        try JSONEncoder().encode(value).withUnsafeBytes { raw in
            var s = JSONScanner(raw)
            try walk(&s, prefix)
        }
    }
}
