import MemprofReportReader
import Foundation
import MemprofCore
import MemprofInput
import MemprofYAMLReader
import MemprofOutput

/// How much a metric may move before it counts as worse (or better).
///
/// A change is beyond the threshold when it is at least `minDelta` in absolute terms **and** more
/// than `relative` of the base value (a change from 0 is always more than any relative threshold).
///
/// Defaults, and why: the simulation is deterministic, so the same workload on the same memprof
/// gives the same numbers, and any change is a real change in behaviour. Counts (evictions, kills,
/// launches, warnings) therefore default to relative 0 and a floor of 1: **any rise of a count is a
/// regression**. Sizes and durations default to 5% with a floor of 1 (byte or µs), so that a small
/// intended change in a footprint or timing does not fail a build while a real jump does.
///
/// Precedence, lowest first: these defaults; the top-level keys of a thresholds file; the command
/// line (`--threshold`, `--count-threshold`, `--min-delta`); the file's per-metric `metrics:` entries.
public struct Thresholds: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        /// A fraction: 0.05 is 5%.
        public var relative: Double?
        /// In the metric's unit: a count, bytes or microseconds.
        public var minDelta: Double?
        /// Reported but never worse or better.
        public var ignore: Bool = false
        /// Which way is worse, instead of `MetricDirections.table`'s. A direction given to an
        /// internal counter (`MetricDirections.isInternal(_:)`) makes it judged.
        public var direction: MetricDirection?

        public init(relative: Double? = nil, minDelta: Double? = nil, ignore: Bool = false,
                    direction: MetricDirection? = nil) {
            self.relative = relative
            self.minDelta = minDelta
            self.ignore = ignore
            self.direction = direction
        }
    }

    /// For sizes and durations.
    public var relative: Double {
        get { userRelative ?? 0.05 }
        set { userRelative = newValue }
    }
    /// For counts.
    public var countRelative: Double {
        get { userCountRelative ?? 0 }
        set { userCountRelative = newValue }
    }
    public var minDelta: Double {
        get { userMinDelta ?? 1 }
        set { userMinDelta = newValue }
    }
    /// What the user set (file or command line); nil where the built-in default applies.
    public private(set) var userRelative: Double?
    public private(set) var userCountRelative: Double?
    public private(set) var userMinDelta: Double?
    /// Judge internal counters (`compressor.*`, `freezer.*`) by `MetricDirections.table`
    /// instead of showing them as context (`compare --judge-internal`).
    public var judgeInternal = false
    /// Per-metric rules: a full metric path, `*` for one segment (`apps.*.evictions`). An exact path
    /// wins over a pattern; among patterns, the first in the file.
    public var overrides: [(pattern: String, rule: Rule)] = []

    public init() {}

    public static func == (a: Thresholds, b: Thresholds) -> Bool {
        a.userRelative == b.userRelative && a.userCountRelative == b.userCountRelative && a.userMinDelta == b.userMinDelta
            && a.judgeInternal == b.judgeInternal
            && a.overrides.map(\.pattern) == b.overrides.map(\.pattern) && a.overrides.map(\.rule) == b.overrides.map(\.rule)
    }

    /// The effective threshold of one metric.
    public func effective(for path: String, kind: MetricKind) -> (relative: Double, minDelta: Double, ignore: Bool) {
        let e = judging(path, kind: kind, userOnly: false)
        return (e.relative, e.minDelta, e.ignore)
    }

    /// How one metric is judged: its threshold, whether the user set it (file or command line),
    /// whether it is ignored, and its direction (the file's, else `MetricDirections.table`'s)
    /// with whether it is context (an internal counter nobody asked to judge). With `userOnly`,
    /// thresholds the user did not set are 0: a fleet's paired test alone decides.
    public func judging(_ path: String, kind: MetricKind, userOnly: Bool) -> Judging {
        let rule = self.rule(for: path)
        let userRel = rule?.relative ?? (kind == .count ? userCountRelative : userRelative)
        let userFloor = rule?.minDelta ?? userMinDelta
        let defaults = userOnly ? (0.0, 0.0) : (kind == .count ? 0 : 0.05, 1.0)
        let direction = rule?.direction ?? MetricDirections.direction(of: path)
        let context = rule?.direction == nil && !judgeInternal && MetricDirections.isInternal(path)
        return Judging(relative: userRel ?? defaults.0, minDelta: userFloor ?? defaults.1,
                       userSet: userRel != nil || userFloor != nil, ignore: rule?.ignore ?? false,
                       direction: direction, context: context)
    }

    public struct Judging: Sendable, Equatable {
        public var relative: Double
        public var minDelta: Double
        /// The threshold (relative or floor) came from the user, not the built-in defaults.
        public var userSet: Bool
        public var ignore: Bool
        public var direction: MetricDirection
        /// Shown for context, never worse or better.
        public var context: Bool
    }

    /// The per-metric rule of `metrics:` for a path: an exact path, else the first pattern.
    func rule(for path: String) -> Rule? {
        overrides.first { $0.pattern == path }?.rule
            ?? overrides.first { $0.pattern.contains("*") && MetricPattern.matches($0.pattern, path) }?.rule
    }

    /// Where each per-metric pattern was read (by pattern), for errors found against the reports.
    public var places: [String: InputPlace] = [:]

    /// Reads a thresholds file:
    ///
    ///     threshold: 5%          # sizes and durations (optional)
    ///     countThreshold: 0%     # counts (optional)
    ///     minDelta: 1            # (optional)
    ///     metrics:
    ///       summary.peakUsedBytes: {threshold: 10%, minDelta: 4MB}
    ///       apps.*.resumeLatencyUs.max: {threshold: 20%, minDelta: 50ms}
    ///       apps.game.timeAtPressureUs.warning: {ignore: true}
    ///       summary.compressor.decompressions: {direction: higherIsWorse}   # judged, not context
    ///
    /// - Throws: ``WorkloadError`` naming file, line, column and key.
    public static func parse(yaml text: String, file: String = "thresholds", base: Thresholds = Thresholds()) throws -> Thresholds {
        var result = base
        let root = try NodeReader.root(of: text, file: file)
        let top = try root.mapping(allowed: ["threshold", "countThreshold", "minDelta", "metrics"])
        if let v = top["threshold"] { result.relative = try v.value(Quantity.percent) }
        if let v = top["countThreshold"] { result.countRelative = try v.value(Quantity.percent) }
        if let v = top["minDelta"] { result.minDelta = try v.value { MetricValues.number($0, kind: nil) } }
        if let metrics = top["metrics"] {
            for (path, ruleNode) in try metrics.namedEntries() {
                guard path.hasPrefix("summary.") || path.hasPrefix("apps.") else {
                    throw ruleNode.error("a metric path starts with 'summary.' or 'apps.'")
                }
                let fields = try ruleNode.mapping(allowed: ["threshold", "minDelta", "ignore", "direction"])
                var rule = Rule()
                if let v = fields["threshold"] { rule.relative = try v.value(Quantity.percent) }
                if let v = fields["minDelta"] { rule.minDelta = try v.value { MetricValues.number($0, kind: MetricKind.of(path)) } }
                if let v = fields["ignore"] { rule.ignore = try v.bool() }
                if let v = fields["direction"] {
                    rule.direction = MetricDirection(rawValue: try v.choice(MetricDirection.allCases.map(\.rawValue),
                                                                            what: "direction"))
                }
                result.overrides.append((path, rule))
                result.places[path] = ruleNode.place
            }
        }
        return result
    }

    /// Checks that every per-metric pattern of a file names at least one metric of the reports,
    /// so that a typo cannot pass silently (`apps.*.memoryWarning` for `apps.*.memoryWarnings`).
    ///
    /// - Throws: ``WorkloadError`` at the pattern, with the nearest metric path when one is close.
    public func checkPatterns(against metrics: Set<String>) throws {
        for (pattern, _) in overrides {
            let matched = metrics.contains(pattern)
                || (pattern.contains("*") && metrics.contains { MetricPattern.matches(pattern, $0) })
            guard !matched else { continue }
            let wildcards = pattern.split(separator: ".", omittingEmptySubsequences: false).map { $0 == "*" }
            let candidates = Set(metrics.map { path in
                path.split(separator: ".", omittingEmptySubsequences: false).enumerated()
                    .map { i, part in i < wildcards.count && wildcards[i] ? "*" : String(part) }
                    .joined(separator: ".")
            })
            let message = withSuggestion("'\(pattern)' matches no metric of the reports", for: pattern,
                                         among: candidates.sorted())
            throw (places[pattern] ?? InputPlace(file: "thresholds", line: 0, column: 0, keyPath: "metrics")).error(message)
        }
    }
}
