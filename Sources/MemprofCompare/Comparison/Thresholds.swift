import Foundation
import MemprofCore
import Yams

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

        public init(relative: Double? = nil, minDelta: Double? = nil, ignore: Bool = false) {
            self.relative = relative
            self.minDelta = minDelta
            self.ignore = ignore
        }
    }

    /// For sizes and durations.
    public var relative: Double = 0.05
    /// For counts.
    public var countRelative: Double = 0
    public var minDelta: Double = 1
    /// Per-metric rules: a full metric path, `*` for one segment (`apps.*.evictions`). An exact path
    /// wins over a pattern; among patterns, the first in the file.
    public var overrides: [(pattern: String, rule: Rule)] = []

    public init() {}

    public static func == (a: Thresholds, b: Thresholds) -> Bool {
        a.relative == b.relative && a.countRelative == b.countRelative && a.minDelta == b.minDelta
            && a.overrides.map(\.pattern) == b.overrides.map(\.pattern) && a.overrides.map(\.rule) == b.overrides.map(\.rule)
    }

    /// The effective threshold of one metric.
    public func effective(for path: String, kind: MetricKind) -> (relative: Double, minDelta: Double, ignore: Bool) {
        var rel = kind == .count ? countRelative : relative
        var floor = minDelta
        var ignore = false
        let rule = overrides.first { $0.pattern == path }?.rule
            ?? overrides.first { $0.pattern.contains("*") && MetricPattern.matches($0.pattern, path) }?.rule
        if let rule {
            if let r = rule.relative { rel = r }
            if let m = rule.minDelta { floor = m }
            ignore = rule.ignore
        }
        return (rel, floor, ignore)
    }

    /// Reads a thresholds file:
    ///
    ///     threshold: 5%          # sizes and durations (optional)
    ///     countThreshold: 0%     # counts (optional)
    ///     minDelta: 1            # (optional)
    ///     metrics:
    ///       summary.peakUsedBytes: {threshold: 10%, minDelta: 4MB}
    ///       apps.*.resumeLatencyUs.max: {threshold: 20%, minDelta: 50ms}
    ///       apps.game.timeAtPressureUs.warning: {ignore: true}
    public static func parse(yaml text: String, base: Thresholds = Thresholds()) throws -> Thresholds {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw CompareInputError.badThresholds("not YAML: \(error)")
        }
        var result = base
        guard let node else { return result }
        guard let mapping = node.mapping else { throw CompareInputError.badThresholds("expected a mapping at the top") }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "threshold": result.relative = try Quantities.percent(scalar(value, key), context: key)
            case "countThreshold": result.countRelative = try Quantities.percent(scalar(value, key), context: key)
            case "minDelta": result.minDelta = try Quantities.number(scalar(value, key), kind: nil, context: key)
            case "metrics":
                guard let metrics = value.mapping else {
                    throw CompareInputError.badThresholds("'metrics' must map metric paths to rules")
                }
                for (pathNode, ruleNode) in metrics {
                    let path = pathNode.string ?? ""
                    guard path.hasPrefix("summary.") || path.hasPrefix("apps.") else {
                        throw CompareInputError.badThresholds("metric '\(path)' must start with 'summary.' or 'apps.'")
                    }
                    guard let fields = ruleNode.mapping else {
                        throw CompareInputError.badThresholds("'\(path)' needs a mapping such as {threshold: 10%}")
                    }
                    var rule = Rule()
                    let kind = MetricKind.of(path)
                    for (fieldNode, fieldValue) in fields {
                        let field = fieldNode.string ?? ""
                        let context = "\(path).\(field)"
                        switch field {
                        case "threshold": rule.relative = try Quantities.percent(scalar(fieldValue, context), context: context)
                        case "minDelta": rule.minDelta = try Quantities.number(scalar(fieldValue, context), kind: kind, context: context)
                        case "ignore":
                            guard let b = fieldValue.bool else {
                                throw CompareInputError.badThresholds("\(context): expected true or false")
                            }
                            rule.ignore = b
                        default:
                            throw CompareInputError.badThresholds("\(path): unknown key '\(field)' (use threshold, minDelta, ignore)")
                        }
                    }
                    result.overrides.append((path, rule))
                }
            default:
                throw CompareInputError.badThresholds("unknown key '\(key)' (use threshold, countThreshold, minDelta, metrics)")
            }
        }
        return result
    }

    private static func scalar(_ node: Node, _ context: String) throws -> String {
        guard let s = node.scalar?.string else { throw CompareInputError.badThresholds("\(context): expected a single value") }
        return s
    }
}

/// Numbers with units in thresholds and budget files.
public enum Quantities {
    /// `5%` → 0.05; a bare number is a fraction too only when written with `%`.
    public static func percent(_ text: String, context: String) throws -> Double {
        let s = text.trimmingCharacters(in: .whitespaces)
        guard s.hasSuffix("%"), let v = Double(s.dropLast().trimmingCharacters(in: .whitespaces)), v >= 0, v.isFinite else {
            throw CompareInputError.badThresholds("\(context): '\(text)' is not a percentage such as 5%")
        }
        return v / 100
    }

    /// A value in the unit of a metric: a bare number is taken in the metric's own unit (bytes for
    /// `...Bytes`, microseconds for `...Us`), a size (`150MB`, `1.5GB`, powers of 1024) for bytes,
    /// a duration (`250ms`, `1m30s`) for durations.
    public static func number(_ text: String, kind: MetricKind?, context: String) throws -> Double {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let v = Double(s), v.isFinite { return v }
        if kind != .duration, let bytes = size(s) { return Double(bytes) }
        if kind != .bytes, let us = duration(s) { return Double(us) }
        let expected = switch kind {
        case .bytes: "a size such as 150MB"
        case .duration: "a duration such as 250ms"
        case .count: "a whole number"
        case nil: "a number"
        }
        throw CompareInputError.badThresholds("\(context): '\(text)' is not \(expected)")
    }

    static func size(_ s: String) -> Bytes? {
        let units: [(String, Double)] = [("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1024), ("MB", 1_048_576),
                                         ("GB", 1_073_741_824), ("B", 1)]
        for (unit, scale) in units where s.hasSuffix(unit) {
            let number = s.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
            guard let v = Double(number), v >= 0, v.isFinite else { return nil }
            return Bytes((v * scale).rounded())
        }
        return nil
    }

    static func duration(_ s: String) -> Microseconds? {
        let units: [(String, Double)] = [("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000), ("min", 60_000_000),
                                         ("m", 60_000_000), ("h", 3_600_000_000)]
        var rest = Substring(s)
        var total = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let v = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { !$0.isNumber && $0 != "." }
            guard let scale = units.first(where: { $0.0 == unit })?.1 else { return nil }
            rest = rest.dropFirst(unit.count)
            total += v * scale
        }
        return Microseconds(total.rounded())
    }
}
