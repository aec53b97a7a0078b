import Foundation
import MemprofCore
import MemprofFleet
import MemprofOutput

/// The calibrated sweep file: the base sweep with what the field measures and the fitted values
/// written into its `set:`, the field's device mix as its `mix:`, the calibration's seeds, and
/// each fitted value's interval as a comment. `memprof sweep` runs it; a what-if sets keys on it.
public enum CalibratedSweep {
    public static let fileName = "sweep.yaml"

    /// The calibrated sweep's name: the base's with `-calibrated`.
    public static func name(_ base: String) -> String {
        base.hasSuffix("-calibrated") ? base : String((base + "-calibrated").prefix(200))
    }

    /// The file's text. `workload` is the workload as the file names it (relative to the folder
    /// the file is written into, or a built-in name).
    public static func text(_ c: Calibration, problem: CalibrationProblem, workload: String) -> String {
        var out = "# Calibrated by memprof calibrate from \(problem.fieldPaths.map(YAMLEscape.comment).joined(separator: ", "))\n"
        out += "# \(YAMLEscape.comment(c.stop))\n"
        out += "# Field: \(c.field.matchedDays) device-days of \(YAMLEscape.comment(c.app.bundleIdentifier)); "
            + "objective \(decimal(c.objective.value)) over \(c.objective.statistics) statistics (95% bound \(decimal(c.objective.bound)))\n"
        out += "memprof: 1\n"
        out += "sweep: \(c.sweep.name)\n"
        out += "workload: \(value(workload))\n"
        out += "seeds: \(c.seeds.text)\n"
        if problem.sweep.worst != 5 { out += "worst: \(problem.sweep.worst)\n" }
        out += "set:\n"
        let measured = Set(problem.measured.map(\.override.keyPath))
        for o in problem.sweep.set {
            var line = "  \(scalar(o.keyPath)): \(value(o.value))"
            if measured.contains(o.keyPath), let m = problem.measured.first(where: { $0.override.keyPath == o.keyPath }) {
                line += "  # from the field: \(YAMLEscape.comment(m.source))"
            }
            out += line + "\n"
        }
        for p in c.parameters {
            out += "  \(scalar(p.key)): \(value(p.fittedText))  # fitted: \(YAMLEscape.comment(describe(p)))\n"
        }
        if let axis = problem.sweep.axes.first {
            out += "matrix:\n  \(scalar(axis.keyPath)): [" + axis.values.map { value($0.value) }.joined(separator: ", ") + "]\n"
            if axis.values.count > 1 {
                let shares = percents(c.cells.map(\.share))
                out += "mix:\n  \(scalar(axis.keyPath)): {" + zip(axis.values, shares).map { "\(value($0.value)): \($1)" }.joined(separator: ", ")
                    + "}  # the field's device-days\n"
            }
        }
        return out
    }

    /// `612 MB (95%: 580 MB – 650 MB)`, or `… unconstrained: …`.
    public static func describe(_ p: Calibration.Parameter) -> String {
        let fitted = human(p.fitted, kind: p.kind)
        guard let i = p.interval else {
            return "\(fitted); no value along its profile is consistent with the field (95%)"
        }
        if !p.constrained {
            return "\(fitted); unconstrained: every value from \(p.lowText) to \(p.highText) is consistent with the field (95%)"
        }
        return "\(fitted) (95%: \(human(i.low, kind: p.kind)) – \(human(i.high, kind: p.kind)))"
    }

    /// A parameter's value in words: `612 MB`, `5m31s`, `0.35`.
    public static func human(_ v: Double, kind: String) -> String {
        switch kind {
        // In megabytes (of 1024 × 1024 bytes, as the workload counts them), whole from 100 MB:
        // a fitted size in gigabytes to one decimal would hide its interval.
        case "size": v >= 100 * 1_048_576 ? "\(Int((v / 1_048_576).rounded())) MB" : Format.bytes(Bytes(v.rounded()))
        case "duration": Format.duration(Microseconds(v.rounded()))
        default: decimal(v)
        }
    }

    static func decimal(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        let digits = abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2
        return String(format: "%.\(digits)f", v)
    }

    /// Shares as percentages to a tenth that add up to exactly 100% (the largest remainders
    /// get the rounding).
    static func percents(_ shares: [Double]) -> [String] {
        let tenths = shares.map { $0 * 1000 }
        var whole = tenths.map { Int($0.rounded(.down)) }
        let order = tenths.indices.sorted { (tenths[$0] - Double(whole[$0]), $1) > (tenths[$1] - Double(whole[$1]), $0) }
        for i in order.prefix(max(0, 1000 - whole.reduce(0, +))) { whole[i] += 1 }
        return whole.map { "\($0 / 10).\($0 % 10)%" }
    }

    /// A key or word as a plain scalar when it reads back as itself, else double-quoted.
    static func scalar(_ s: String) -> String {
        let plain = !s.isEmpty && s.first!.isLetter && s.allSatisfy { $0.isLetter || $0.isNumber || "-_./[]".contains($0) }
        return plain ? s : YAMLEscape.doubleQuoted(s)
    }

    /// An override's value: flow collections as written (they were read as YAML), scalars as ``scalar(_:)``.
    static func value(_ s: String) -> String {
        if s.hasPrefix("{") || s.hasPrefix("[") { return s }
        let plain = !s.isEmpty && s.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
        return plain ? s : YAMLEscape.doubleQuoted(s)
    }
}

extension CalibratedSweep {
    /// The workload as the calibrated sweep in `folder` names it: a file's path relative to the
    /// folder (a sweep reads its workload from its own folder), or a built-in name as it is.
    public static func workloadPath(_ workload: String, from folder: URL) -> String {
        guard FileManager.default.fileExists(atPath: workload) else { return workload }
        let target = URL(fileURLWithPath: workload).standardizedFileURL.pathComponents
        let base = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }
}
