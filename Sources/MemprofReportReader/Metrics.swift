import Foundation
import MemprofOutput
import MemprofCore
import MemprofReport

/// What a metric counts, which decides how it is printed and which default threshold applies.
public enum MetricKind: String, Sendable, Codable, CaseIterable {
    /// Whole numbers of things: launches, evictions, exits, warnings, handler runs.
    case count
    /// Bytes (`...Bytes`).
    case bytes
    /// Microseconds of simulated time (`...Us` and everything below it).
    case duration

    /// The kind of a metric path: a segment ending in `Bytes` or starting with `bytes`
    /// (`freezer.bytesWritten`) makes bytes, one ending in `Us`
    /// (`timeInStateUs`, `timeAtPressureUs`, `resumeLatencyUs`) a duration, except the `count` of
    /// a latency summary, which is a count.
    public static func of(_ path: String) -> MetricKind {
        var path = path
        return path.withUTF8 { of(utf8: $0) }
    }

    /// `of` over the path's bytes, segment by segment (empty segments do not count).
    public static func of(utf8 p: UnsafeBufferPointer<UInt8>) -> MetricKind {
        var bytes = false, duration = false, lastIsCount = false
        var start = 0
        for end in 0...p.count where end == p.count || p[end] == 0x2E {
            defer { start = end + 1 }
            let n = end - start
            guard n > 0 else { continue }
            func endsWith(_ suffix: StaticString) -> Bool {
                let k = suffix.utf8CodeUnitCount
                return n >= k && memcmp(p.baseAddress! + end - k, suffix.utf8Start, k) == 0
            }
            lastIsCount = n == 5 && endsWith("count")
            let startsWithBytes = n >= 5 && memcmp(p.baseAddress! + start, "bytes", 5) == 0
            if endsWith("Bytes") || startsWithBytes { bytes = true } else if endsWith("Us") { duration = true }
        }
        if lastIsCount { return .count }
        return bytes ? .bytes : duration ? .duration : .count
    }

    /// `56.3 MB`, `1m30s`, `12`.
    public func format(_ value: Double) -> String {
        // Beyond 2^62 a value is no longer a sensible integer of its unit: print it as it is.
        guard value.isFinite, abs(value) < 4.6e18 else { return String(value) }
        switch self {
        case .count:
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bytes:
            return Format.bytes(Int64(value.rounded()))
        case .duration:
            let us = Int64(value.rounded())
            return us < 0 ? "-" + Format.duration(-us) : Format.duration(us)
        }
    }
}

/// Which way a metric gets worse.
public enum MetricDirection: String, Sendable, Codable, CaseIterable {
    /// A rise is a regression (evictions, kills, peak bytes, time under pressure, latency).
    case higherIsWorse
    /// A fall is a regression (handlers that completed).
    case lowerIsWorse
    /// Depends on the workload more than on memprof's behaviour; reported, never fails.
    case neutral
}

/// The direction of every metric, in one place.
///
/// Patterns are metric paths relative to their scope (`summary.` or `apps.<key>.` stripped), with
/// `*` standing for one path segment; the first pattern that matches decides. A metric no pattern
/// matches (a field added to the report later) is neutral until it is added here.
///
/// | metric | direction | why |
/// | --- | --- | --- |
/// | `coldLaunches`, `launches.cold`, `coldRelaunchesAfterKill` | higher is worse | a cold launch is what eviction costs the user |
/// | `evictions`, `memoryWarnings` | higher is worse | memory pressure reaching apps |
/// | `memoryKills` (an app's, derived: every memory-kill reason of its `exits`) | higher is worse | jetsam ended the app for memory, whatever xnu's reason |
/// | `terminations.userQuit`, `exits.userQuit` | neutral | the script quits apps on purpose |
/// | `terminations.*`, `exits.*` (every other reason) | higher is worse | kills: memory, time limits, watchdog |
/// | `backgroundTasks.expiredEnded`, `backgroundTasks.expiredKilled` | higher is worse | work that did not finish in time |
/// | `fetches.timedOut`, `pushes.timedOut` | higher is worse | handlers that overran |
/// | `backgroundTasks.completed`, `fetches.completed`, `pushes.completed` | lower is worse | work that got done |
/// | `refreshTasks.expired`, `processingTasks.expired` | higher is worse | BGTaskScheduler tasks the system ended before their work was done |
/// | `refreshTasks.completed`, `processingTasks.completed` | lower is worse | BGTaskScheduler tasks that got their work done |
/// | `peakUsedBytes`, `peakCompressedBytes`, `peakFootprintBytes` | higher is worse | heavier |
/// | `suspendedMemory.averageBytes` | higher is worse | MetricKit's `averageSuspendedMemory`: a suspended app that holds more is a larger target when memory runs short |
/// | `timeAtPressureUs.warning`, `timeAtPressureUs.critical` | higher is worse | time under pressure |
/// | `resumeLatencyUs.p50`, `resumeLatencyUs.max` | higher is worse | slower resumes |
/// | `swap.peakBytes`, `swap.timeOverRamUs` (macOS) | higher is worse | paging out instead of RAM |
/// | `compressor.peakBytes`, `compressor.decompressions` (`xnu` on a phone) | higher is worse, judged when asked (``isInternal(_:)``) | the pool's RAM; CPU to decompress |
/// | `compressor.*` otherwise | neutral | what the pool holds uncompressed, pages compressed: driven by the script |
/// | `headroom.*.spareUs`, `headroom.footprint.spareBytes` | lower is worse | less room before a limit kills the app |
/// | `handlers.<handler>.peakBytes`, `handlers.<handler>.leakedBytes` (programs run as work, §8.1) | higher is worse | the handler's program needs more memory, or leaks more |
/// | `*.started`, `backgroundLaunches`, `launches.background` | neutral | driven by the script |
/// | `warmResumes`, `launches.warm`, `compressedResumes`, `launches.fromCompressed`, `compressions` | neutral | driven by the script; a compression is cheaper than an eviction |
/// | `timeAtPressureUs.normal`, `timeInStateUs.*`, `resumeLatencyUs.count` | neutral | the other side of metrics above, or workload shape |
/// | `freezer.budgetExhaustions`, `freezer.skips.outOfBudget`, `freezer.skips.outOfSlots` | higher is worse, judged when asked | apps stay in RAM |
/// | `freezer.skips.noSwapSpace`, `freezer.skips.noCompressorSpace` | higher is worse, judged when asked | no swap or compressor space: apps stay in RAM |
/// | `freezer.budgetRemainingBytes`, `freezer.budgetRemainingPages` | lower is worse, judged only when asked | less budget left for the rest of the day |
/// | `freezer.freezes`, `freezer.pagesWritten`, `freezer.bytesWritten`, `freezer.thaws`, `freezer.*` | neutral | driven by the script; a freeze is cheaper than an eviction |
public enum MetricDirections {
    public static let table: [(pattern: String, direction: MetricDirection)] = [
        ("coldLaunches", .higherIsWorse),
        ("launches.cold", .higherIsWorse),
        ("coldRelaunchesAfterKill", .higherIsWorse),
        ("evictions", .higherIsWorse),
        ("memoryWarnings", .higherIsWorse),
        ("memoryKills", .higherIsWorse),
        ("terminations.userQuit", .neutral),
        ("exits.userQuit", .neutral),
        ("terminations.*", .higherIsWorse),
        ("exits.*", .higherIsWorse),
        ("backgroundTasks.expiredEnded", .higherIsWorse),
        ("backgroundTasks.expiredKilled", .higherIsWorse),
        ("fetches.timedOut", .higherIsWorse),
        ("pushes.timedOut", .higherIsWorse),
        ("backgroundTasks.completed", .lowerIsWorse),
        ("fetches.completed", .lowerIsWorse),
        ("pushes.completed", .lowerIsWorse),
        ("refreshTasks.expired", .higherIsWorse),
        ("processingTasks.expired", .higherIsWorse),
        ("refreshTasks.completed", .lowerIsWorse),
        ("processingTasks.completed", .lowerIsWorse),
        ("peakUsedBytes", .higherIsWorse),
        ("peakCompressedBytes", .higherIsWorse),
        ("peakFootprintBytes", .higherIsWorse),
        ("suspendedMemory.averageBytes", .higherIsWorse),
        ("timeAtPressureUs.warning", .higherIsWorse),
        ("timeAtPressureUs.critical", .higherIsWorse),
        ("resumeLatencyUs.p50", .higherIsWorse),
        ("resumeLatencyUs.max", .higherIsWorse),
        ("swap.peakBytes", .higherIsWorse),
        ("swap.timeOverRamUs", .higherIsWorse),
        ("compressor.peakBytes", .higherIsWorse),
        ("compressor.decompressions", .higherIsWorse),
        ("compressor.*", .neutral),
        ("headroom.*.spareUs", .lowerIsWorse),
        ("headroom.footprint.spareBytes", .lowerIsWorse),
        ("handlers.*.peakBytes", .higherIsWorse),
        ("handlers.*.leakedBytes", .higherIsWorse),
        ("*.started", .neutral),
        ("backgroundLaunches", .neutral),
        ("launches.background", .neutral),
        ("warmResumes", .neutral),
        ("launches.warm", .neutral),
        ("compressedResumes", .neutral),
        ("launches.fromCompressed", .neutral),
        ("compressions", .neutral),
        ("timeAtPressureUs.normal", .neutral),
        ("timeInStateUs.*", .neutral),
        ("resumeLatencyUs.count", .neutral),
        ("freezer.budgetExhaustions", .higherIsWorse),
        ("freezer.skips.outOfBudget", .higherIsWorse),
        ("freezer.skips.outOfSlots", .higherIsWorse),
        ("freezer.skips.noSwapSpace", .higherIsWorse),
        ("freezer.skips.noCompressorSpace", .higherIsWorse),
        ("freezer.budgetRemainingBytes", .lowerIsWorse),
        ("freezer.budgetRemainingPages", .lowerIsWorse),
        ("freezer.*", .neutral),
        ("freezer.*.*", .neutral),
    ]

    /// The direction of a full metric path (`summary.evictions`, `apps.mail.exits.memoryLimit`).
    public static func direction(of path: String) -> MetricDirection {
        let segments = MetricPath(path).relative.split(separator: ".", omittingEmptySubsequences: false)
        return splitTable.first { MetricPattern.matches($0.segments, segments) }?.direction ?? .neutral
    }

    /// Whether a metric is one of the system's internal counters (the `xnu` compressor's and
    /// freezer's, `compressor.*` and `freezer.*`): how the kernel got through the day, not what
    /// an app or its user sees. `compare` shows them as context and judges them only when asked
    /// (`--judge-internal`, or a `direction` in a thresholds file).
    public static func isInternal(_ path: String) -> Bool {
        let relative = MetricPath(path).relative
        return relative.hasPrefix("compressor.") || relative.hasPrefix("freezer.")
    }

    /// Where a metric of an app comes in a comparison: the app's exits and what they cost it
    /// first (its memory kills of every reason together, memory-pressure kills, then the per-app
    /// limit, the other exits, evictions, the cold relaunches they cause), then its memory as
    /// MetricKit reports it; the rest after.
    public static func headlineRank(_ path: String) -> Int {
        headlineRank(relative: MetricPath(path).relative)
    }

    /// `headlineRank(_:)` of a path below its app.
    public static func headlineRank(relative: String) -> Int {
        if let rank = headline.firstIndex(of: relative) { return rank }
        if relative.hasPrefix("exits."), relative != "exits.userQuit" { return otherExits }
        return headline.count
    }

    /// Whether `path` is one of an app's headline metrics (its exits, evictions, cold launches,
    /// suspended and peak memory).
    public static func isHeadline(_ path: String) -> Bool {
        MetricPath(path).app != nil && headlineRank(path) < headline.count
    }

    static let headline = ["memoryKills", "exits.memoryPressure", "exits.memoryLimit", "", "evictions", "coldRelaunchesAfterKill",
                           "launches.cold", "suspendedMemory.averageBytes", "peakFootprintBytes"]
    /// The rank of the exits the headline does not name (`""` in it).
    static let otherExits = headline.firstIndex(of: "")!

    /// The table with its patterns split into segments once.
    static let splitTable = table.map { (segments: MetricPattern.segments($0.pattern), direction: $0.direction) }
}

/// Metric patterns: `*` matches one segment; otherwise segments must be equal.
public enum MetricPattern {
    /// Whether `path` matches `pattern`.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        matches(segments(pattern), segments(path))
    }

    /// The segments of a path or pattern.
    public static func segments(_ text: String) -> [Substring] {
        text.split(separator: ".", omittingEmptySubsequences: false)
    }

    /// Whether the segments `s` match the pattern's `p`.
    public static func matches(_ p: [Substring], _ s: [Substring]) -> Bool {
        guard p.count == s.count else { return false }
        return zip(p, s).allSatisfy { $0 == "*" || $0 == $1 }
    }
}

/// A metric path split into its scope and the rest: `apps.mail.exits.memoryLimit` is app `mail`,
/// metric `exits.memoryLimit`; `summary.evictions` is the summary, metric `evictions`.
public struct MetricPath: Sendable, Hashable {
    public var full: String
    /// nil for `summary.` metrics.
    public var app: String?
    public var relative: String

    public init(_ full: String) {
        self.full = full
        let parts = full.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if parts.first == "apps", parts.count == 3 {
            app = parts[1]
            relative = parts[2]
        } else if parts.first == "summary" {
            app = nil
            relative = String(full.dropFirst("summary.".count))
        } else {
            app = nil
            relative = full
        }
    }

    /// `mail` or `summary`, for sentences.
    public var scopeName: String { app ?? "summary" }
}

/// Every number of a report, as flat dotted paths.
public enum MetricExtractor {
    /// Every number under `summary` (as `summary.…`) and under each app (as `apps.<key>.…`),
    /// found by encoding the report model (`MetricFlattener`, the names and values of its JSON
    /// form), so fields added later are picked up without changes here.
    /// App keys containing a dot would make paths ambiguous; workload keys cannot contain one.
    public static func metrics(of report: Report) -> [String: Double] {
        var out = Dictionary(pairs(of: report), uniquingKeysWith: { _, last in last })
        for (path, value) in handlerMetrics(of: report) { out[path] = value }
        return out
    }

    /// The numbers of `metrics(of:)` as they are found, before a later one of the same path
    /// replaces an earlier one, without the handlers' (`handlerMetrics(of:)`).
    public static func pairs(of report: Report) -> [(String, Double)] {
        let names = MetricNames()
        var pairs: [(String, Double)] = []
        pairs.reserveCapacity(64 + 64 * report.apps.count)
        var found: [(name: Int, value: Double)] = []
        summaryMetrics(of: report, names: names, into: &found)
        pairs += found.map { ("summary.\(names[$0.name])", $0.value) }
        for (id, app) in report.apps {
            found.removeAll(keepingCapacity: true)
            appMetrics(of: app, names: names, into: &found)
            pairs += found.map { ("apps.\(id).\(names[$0.name])", $0.value) }
        }
        return pairs
    }

    /// The numbers under `summary`, by the number in `names` of their path below it: every
    /// termination reason (0 where report.json leaves one out, see `everyReason`) and what the
    /// report model holds.
    public static func summaryMetrics(of report: Report, names: MetricNames, into found: inout [(name: Int, value: Double)]) {
        everyReason("terminations", report.summary.terminations, names: names, into: &found)
        MetricFlattener.flatten(report.summary, names: names, into: &found)
    }

    /// The numbers of one app, by the number in `names` of their path below `apps.<key>.`: every
    /// exit reason (0 where report.json leaves one out), what the report model holds, and its
    /// memory kills (derived, not in report.json: every memory-kill reason of its exits together).
    public static func appMetrics(of app: AppStats, names: MetricNames, into found: inout [(name: Int, value: Double)]) {
        everyReason("exits", app.exits, names: names, into: &found)
        everyReason("foregroundExits", app.foregroundExits, names: names, into: &found)
        MetricFlattener.flatten(app, names: names, into: &found)
        found.append((names.child(of: MetricNames.root, "memoryKills"), Double(app.memoryKills)))
    }

    /// Every exit reason is a metric, 0 where report.json leaves out a reason no run of the
    /// workload had (``ExitReason`` counts only some reasons when one happened): so a reason one
    /// run has and another not compares as 0 against a count, and every run of a sweep has the
    /// same metrics. The zeros come first: a count found later replaces its zero.
    private static func everyReason(_ prefix: String, _ counts: ExitCounts?, names: MetricNames,
                                    into found: inout [(name: Int, value: Double)]) {
        guard counts != nil else { return }
        let parent = names.child(of: MetricNames.root, prefix)
        for reason in ExitReason.allCases { found.append((names.child(of: parent, reason.rawValue), 0)) }
    }

    /// Whether a metric's value may be below zero: the room left before a limit
    /// (`headroom.….spare…`, below zero when a declared value cannot fit); every other metric is
    /// a count, bytes or microseconds. `path` is full or below its scope.
    public static func maySignNegative(_ path: String) -> Bool {
        ("." + path).contains(".headroom.") && path.split(separator: ".").last?.hasPrefix("spare") == true
    }

    /// A program's measured memory per handler (spec §8.1): its peak in use and what it leaked.
    /// Kernels' allocations are tracked too, but vary a little from run to run (Foundation's
    /// caches, one-time metadata), so they are not metrics a CI gate should fail on.
    public static func handlerMetrics(of report: Report) -> [(String, Double)] {
        var out: [(String, Double)] = []
        for handler in report.profile?.handlers ?? [] {
            guard let allocations = handler.allocations, handler.program != nil else { continue }
            let prefix = "apps.\(handler.app).handlers.\(handler.handler)"
            out.append(("\(prefix).peakBytes", Double(allocations.peakBytes)))
            out.append(("\(prefix).leakedBytes", Double(allocations.leakedBytes)))
        }
        return out
    }
}
