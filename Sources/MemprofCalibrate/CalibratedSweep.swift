import Foundation
import MemprofCore
import MemprofField
import MemprofFleet
import MemprofOutput

/// The calibrated sweep file: the base sweep with the fitted values written into its `set:`
/// (each one's interval as a comment), what the field measures of each device's days into its
/// `per:` entry (each value's source as a comment), the field's device mix as its `mix:`, and
/// the calibration's seeds. `memprof sweep` runs it; a what-if sets keys on it.
public enum CalibratedSweep {
    public static let fileName = "sweep.yaml"

    /// The calibrated sweep's name: the base's with `-calibrated`.
    public static func name(_ base: String) -> String {
        base.hasSuffix("-calibrated") ? base : String((base + "-calibrated").prefix(200))
    }

    /// The file's text, written by `YAMLDocument` (each value a word YAML reads back as itself,
    /// or double-quoted; comments on lines of their own). `workload` is the workload as the file
    /// names it (relative to the folder the file is written into, or a built-in name).
    public static func text(_ c: Calibration, problem: CalibrationProblem, workload: String) -> String {
        var set: [YAMLEntry] = problem.sweep.set.map { .pair($0.keyPath, .word($0.value)) }
        for p in c.parameters {
            set.append(.comment("fitted: \(describe(p))"))
            set.append(.pair(p.key, .word(p.fittedText)))
        }
        var entries: [YAMLEntry] = [.pair("memprof", .int(1)), .pair("sweep", .word(c.sweep.name)), .pair("workload", .word(workload)),
                                    .pair("seeds", .word(c.seeds.text))]
        if problem.sweep.worst != 5 { entries.append(.pair("worst", .int(Int64(problem.sweep.worst)))) }
        entries.append(.pair("set", .mapping(set)))
        if let axis = problem.sweep.axes.first {
            entries.append(.pair("matrix", .mapping([.pair(axis.keyPath, .sequence(axis.values.map { .word($0.value) }, flow: true))])))
            if axis.values.count > 1 {
                let shares = zip(axis.values, percents(c.cells.map(\.share))).map { YAMLEntry.pair($0.value, .word($1)) }
                entries.append(.comment("the field's device-days"))
                entries.append(.pair("mix", .mapping([.pair(axis.keyPath, .mapping(shares, flow: true))])))
            }
        }
        // Each device's keys from the field (and the base sweep's own per: keys), a source comment above each measured one.
        var per: [YAMLEntry] = []
        for p in problem.sweep.per where !p.values.isEmpty {
            let values = p.values.map { entry -> YAMLEntry in
                let measured = problem.cells.first { $0.overrides.contains { $0.keyPath == p.keyPath && $0.value == entry.value } }?.measured ?? []
                return .pair(entry.value, .mapping(entry.overrides.flatMap { o -> [YAMLEntry] in
                    let source = measured.first { $0.override.keyPath == o.keyPath }.map { [YAMLEntry.comment("from the field: \($0.source)")] } ?? []
                    return source + [.pair(o.keyPath, .word(o.value))]
                }))
            }
            per.append(.pair(p.keyPath, .mapping(values)))
        }
        if !per.isEmpty {
            entries.append(.comment("what the field measures, per device: each from its own days"))
            entries.append(.pair("per", .mapping(per)))
        }
        return YAMLDocument(comments: [
            "Calibrated by memprof calibrate from \(problem.fieldPaths.joined(separator: ", "))",
            c.stop,
            "Field: \(c.field.matchedDays) device-days of \(c.app.bundleIdentifier); objective \(FieldSummary.number(c.objective.value)) "
                + "over \(c.objective.statistics) statistics (95% bound \(FieldSummary.number(c.objective.bound)))",
        ], entries: entries).text
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

    /// A parameter's value in words (`SweepFile.Calibrate.Kind.words(_:)`): `612 MB`, `5m31s`, `0.35`.
    public static func human(_ v: Double, kind: String) -> String {
        (SweepFile.Calibrate.Kind(rawValue: kind) ?? .number).words(v)
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
