import MemprofOutput
import Foundation
import MemprofCore
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
                    throw CompareInputError.badBudget("no app '\(app)' in the report (it has \(report.apps.keys.sorted().joined(separator: ", ")))")
                }
                paths = [limit.metric]
            }
            for full in paths {
                guard let actual = metrics[full] else {
                    let inSummary = full.hasPrefix("summary.")
                    let scope = inSummary ? "summary" : "apps.<key>"
                    let known = Set(metrics.keys.filter { $0.hasPrefix("summary.") == inSummary }
                        .map { MetricPath($0).relative }).sorted()
                    throw CompareInputError.badBudget("'\(MetricPath(full).relative)' is not a metric of \(scope); "
                        + "metrics are: \(known.joined(separator: ", "))")
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

/// The events behind a metric, in words: "at 58m57s: evicted while suspended (106 MB) to make room for safari".
public enum Evidence {
    public static func causes(of path: MetricPath, report: Report, limit: Int) -> [String] {
        let app = path.app
        let events = report.events.filter { app == nil || $0.app == app }
        let segments = path.relative.split(separator: ".").map(String.init)
        let first = segments.first ?? "", second = segments.count > 1 ? segments[1] : ""
        var lines: [String] = []

        func at(_ e: SimEvent) -> String {
            "at \(Format.duration(e.atUs))" + (app == nil ? ", \(e.app ?? "device")" : "")
        }

        switch first {
        case "evictions":
            for e in events where e.kind == .eviction { lines.append("\(at(e)): evicted (\(Format.bytes(e.bytes ?? 0)))" + reclaimText(e, report)) }
        case "exits", "terminations":
            for e in events where e.kind == .exit && e.reason?.rawValue == second {
                lines.append("\(at(e)): exit \(second)" + (e.from.map { " while \($0.rawValue)" } ?? "") + reclaimText(e, report))
            }
        case "compressions":
            for e in events where e.kind == .compression {
                lines.append("\(at(e)): compressed \(Format.bytes(e.bytes ?? 0)) to flash")
            }
        case "memoryWarnings":
            if app == nil {
                for e in report.events where e.kind == .pressure && e.level != .normal {
                    lines.append("at \(Format.duration(e.atUs)): pressure \(e.level?.rawValue ?? "?") with \(Format.bytes(e.usedBytes ?? 0)) in use")
                }
            } else {
                for e in events where e.kind == .memoryWarning {
                    lines.append("\(at(e)): memory warning (\(e.detail ?? "pressure")), freed \(Format.bytes(e.freedBytes ?? 0))")
                }
            }
        case "coldLaunches", "launches", "backgroundLaunches", "coldRelaunchesAfterKill":
            let detail = first == "coldLaunches" || first == "coldRelaunchesAfterKill" ? "cold"
                : first == "backgroundLaunches" ? "background" : second
            if detail == "cold" || detail == "background" {
                var lastExit: [String: String] = [:]
                for e in events {
                    if e.kind == .exit, let a = e.app { lastExit[a] = e.reason?.rawValue }
                    guard e.kind == .launch, e.detail == detail else { continue }
                    let after = e.app.flatMap { lastExit[$0] }
                    if first == "coldRelaunchesAfterKill" && (after == nil || after == "userQuit") { continue }
                    lines.append("\(at(e)): \(detail) launch" + (after.map { " after exit \($0)" } ?? ""))
                }
            } else {
                for e in events where e.kind == .resume && e.detail == detail {
                    lines.append("\(at(e)): \(detail) resume in \(Format.duration(e.latencyUs ?? 0))")
                }
            }
        case "warmResumes", "compressedResumes":
            let detail = first == "warmResumes" ? "warm" : "fromCompressed"
            for e in events where e.kind == .resume && e.detail == detail {
                lines.append("\(at(e)): \(detail) resume in \(Format.duration(e.latencyUs ?? 0))")
            }
        case "backgroundTasks", "fetches", "pushes":
            let handler = first == "backgroundTasks" ? "backgroundTask" : first == "fetches" ? "fetch" : "push"
            if second == "started" {
                for e in events where e.kind == .handlerStart && e.handler == handler {
                    lines.append("\(at(e)): \(handler) started" + (e.detail.map { " (\($0))" } ?? ""))
                }
            } else {
                for e in events where e.kind == .handlerEnd && e.handler == handler {
                    if e.detail == second || second == "completed" {
                        lines.append("\(at(e)): \(handler) \(e.detail ?? "ended")")
                    }
                }
            }
        case "resumeLatencyUs":
            let resumes = events.filter { $0.kind == .resume }.sorted { ($0.latencyUs ?? 0) > ($1.latencyUs ?? 0) }
            for e in resumes { lines.append("\(at(e)): \(e.detail ?? "") resume took \(Format.duration(e.latencyUs ?? 0))") }
        case "peakFootprintBytes", "peakUsedBytes", "peakCompressedBytes":
            let series: [[Int64]] = first == "peakUsedBytes" ? report.timeline.usedBytes
                : first == "peakCompressedBytes" ? report.timeline.compressedBytes
                : report.timeline.appBytes[app ?? ""] ?? []
            if let peak = series.filter({ $0.count >= 2 }).max(by: { $0[1] < $1[1] }) {
                lines.append("at \(Format.duration(peak[0])): peak of \(Format.bytes(peak[1]))")
                // What happened around the peak: for an app, its warnings and the reclaims it caused;
                // for the device, pressure changes and reclaims.
                let nearby = report.events.filter { e in
                    guard abs(e.atUs - peak[0]) <= 60_000_000 else { return false }
                    if let app { return e.app == app && (e.kind == .reclaim || e.kind == .memoryWarning) }
                    return e.kind == .reclaim || e.kind == .pressure
                }
                for e in nearby.prefix(limit - 1) { lines.append("at \(Format.duration(e.atUs)): " + describe(e)) }
            }
        case "timeAtPressureUs":
            var enteredAt: Int64?
            for e in report.events where e.kind == .pressure {
                if e.level?.rawValue == second { enteredAt = e.atUs } else if let start = enteredAt {
                    lines.append("from \(Format.duration(start)) to \(Format.duration(e.atUs)): \(second) (\(Format.duration(e.atUs - start)))")
                    enteredAt = nil
                }
            }
            if let start = enteredAt { lines.append("from \(Format.duration(start)) to the end: \(second)") }
        default:
            break
        }
        if lines.count > limit {
            let more = lines.count - limit
            lines = Array(lines.prefix(limit)) + ["… and \(more) more"]
        }
        return lines
    }

    /// ", to make room for safari (needed 51 KB, freed 106 MB)" from the reclaim decision at the same instant.
    static func reclaimText(_ e: SimEvent, _ report: Report) -> String {
        guard let app = e.app,
              let reclaim = report.events.first(where: { $0.kind == .reclaim && $0.atUs == e.atUs
                  && ($0.candidates ?? []).contains { $0.app == app && $0.taken } })
        else { return "" }
        return ", to make room for \(reclaim.app ?? "the system") (needed \(Format.bytes(reclaim.neededBytes ?? 0)), "
            + "freed \(Format.bytes(reclaim.freedBytes ?? 0)))"
    }

    static func describe(_ e: SimEvent) -> String {
        switch e.kind {
        case .reclaim:
            let taken = (e.candidates ?? []).filter(\.taken).map(\.app)
            return "reclaim for \(e.app ?? "?"): needed \(Format.bytes(e.neededBytes ?? 0)), took \(taken.joined(separator: ", "))"
        case .memoryWarning: return "memory warning to \(e.app ?? "?")"
        case .pressure: return "pressure \(e.level?.rawValue ?? "?") with \(Format.bytes(e.usedBytes ?? 0)) in use"
        default: return e.kind.rawValue
        }
    }
}

/// Text forms of a budget check.
public enum CheckOutput {
    public static func terminal(_ c: BudgetCheck, color: Bool = false) -> String {
        let broken = c.broken
        var out = "memprof check: \(c.workload) — \(c.results.count) budgets, \(broken.count) broken\n"
        for r in c.results {
            let mark = r.met ? "ok    " : "BROKEN"
            let shown = color ? "\u{1B}[\(r.met ? "32" : "31")m\(mark)\u{1B}[0m" : mark
            out += "\(shown)  \(r.message)\n"
            for cause in r.causes { out += "          \(cause)\n" }
        }
        return out
    }

    public static func markdown(_ c: BudgetCheck) -> String {
        let broken = c.broken
        var out = "### \(broken.isEmpty ? "✅" : "❌") memprof check: `\(CompareOutput.mdEscape(c.workload))`\n\n"
        out += "\(c.results.count) budgets, \(broken.count) broken.\n\n"
        out += CompareOutput.markdownTable(header: ["metric", "allowed", "actual", "verdict"], rows: c.results.map { r in
            ["`\(r.metric)`", allowed(r), r.kind.format(r.actual), r.met ? "met" : "**broken**"]
        }, rightAligned: [2])
        for r in broken where !r.causes.isEmpty {
            out += "\n**\(CompareOutput.mdEscape(r.message))**\n\n"
            for cause in r.causes { out += "- \(CompareOutput.mdEscape(cause))\n" }
        }
        return out
    }

    public static func allowed(_ r: BudgetResult) -> String {
        [r.min.map { "≥ \(r.kind.format($0))" }, r.max.map { "≤ \(r.kind.format($0))" }].compactMap { $0 }.joined(separator: ", ")
    }

    public static func junit(_ c: BudgetCheck) -> String {
        JUnit.document(suite: "memprof check \(c.workload)", cases: c.results.map { r in
            JUnit.TestCase(classname: "memprof.check.\(r.scope)", name: r.metric,
                           failure: r.met ? nil : r.message + (r.causes.isEmpty ? "" : "\n" + r.causes.joined(separator: "\n")),
                           output: "allowed \(allowed(r)), actual \(r.kind.format(r.actual))")
        })
    }

    public static func json(_ c: BudgetCheck) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(c)
        data.append(0x0A)
        return data
    }

    public static func html(_ c: BudgetCheck, report: Report) -> String {
        let esc = CompareHTML.esc
        let broken = c.broken
        var body = "<h1>memprof check: \(esc(c.workload))</h1>\n"
        body += "<p class=\"\(broken.isEmpty ? "good" : "bad")\">\(c.results.count) budgets, \(broken.count) broken.</p>\n"
        body += "<h2>Memory in use</h2>\n<div class=\"pair\"><figure>"
            + TimelineChart.svg(report, scale: .init(reports: [report])) + "</figure></div>\n"
        body += "<h2>Budgets</h2>\n<table>\n<thead><tr><th>metric</th><th>allowed</th><th>actual</th><th>verdict</th></tr></thead>\n<tbody>\n"
        for r in c.results {
            body += "<tr class=\"\(r.met ? "same" : "worse")\"><td><code>\(esc(r.metric))</code></td><td>\(esc(allowed(r)))</td>"
                + "<td class=\"num\">\(esc(r.kind.format(r.actual)))</td><td>\(r.met ? "met" : "broken")</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        for r in broken where !r.causes.isEmpty {
            body += "<h3>\(esc(r.message))</h3>\n<ol class=\"events\">\n"
            for cause in r.causes { body += "<li>\(esc(cause))</li>\n" }
            body += "</ol>\n"
        }
        return CompareHTML.page(title: "memprof check: \(c.workload)", body: body)
    }
}
