import Foundation
import MemprofCore
import MemprofField
import MemprofFleet
import MemprofReport
import MemprofWorkload

/// Fits a problem's parameters to its field: each evaluation a fleet sweep of the fitted cells
/// on the same seeds (common random numbers), the search ``CalibrationSearch``, then a profile
/// of each parameter and a final sweep of every cell at the fitted values.
public struct Calibrator {
    public var problem: CalibrationProblem
    public var threads: Int
    /// When set, each evaluation's sweep runs on a Dask cluster (`FleetDask`) instead of this
    /// machine's threads; the values, so the calibration, are the same.
    public var dask: FleetDask?
    /// Told of each evaluation as it ends: its phase, index and objective.
    public var progress: (@Sendable (Calibration.Evaluation) -> Void)?

    /// A simulated interval at most this share of the field's: how many seeds an evaluation runs.
    public static let seedTarget = 1.0 / 3
    /// Seeds of the pilot evaluation that sizes the others.
    public static let pilotSeeds = 50
    /// The objective's confidence: the chi-square bound's quantile.
    public static let confidence = 0.95
    /// Evaluations that narrow each end of a parameter's set by bisection, after its profile's
    /// grid: each halves the bracket, so the end is known to a sixteenth of a grid step.
    public static let profileBisections = 4

    public init(problem: CalibrationProblem, threads: Int, dask: FleetDask? = nil,
                progress: (@Sendable (Calibration.Evaluation) -> Void)? = nil) {
        self.problem = problem
        self.threads = threads
        self.dask = dask
        self.progress = progress
    }

    /// One cell's figures at one point: each statistic's mean per day and the variance of that
    /// mean, and the rows (for the final intervals).
    struct CellFigures {
        var means: [Double]
        var variances: [Double]
        var counts: [[Double]]
        var times: [[Double]]
    }

    struct Point {
        var cells: [Int: CellFigures]
        var objective: Double
        var inside: Bool
    }

    /// The parameters' values at a point of the unit cube.
    func values(_ unit: [Double]) -> [Double] {
        zip(problem.spec.parameters, unit).map { p, u in
            let v = p.low + u * (p.high - p.low)
            // As the workload will read it: whole bytes and microseconds.
            return p.kind == .number ? v : v.rounded()
        }
    }

    /// A parameter's value on the unit cube.
    func unitOf(_ value: Double, _ p: SweepFile.Calibrate.Parameter) -> Double {
        p.high > p.low ? (value - p.low) / (p.high - p.low) : 0
    }

    /// Runs `cells` at the parameters' `values` on `seeds`.
    func evaluate(_ values: [Double], cells: [Int], seeds: [UInt64]) throws -> Point {
        var sweep = problem.sweep
        sweep.seeds = seeds
        let overrides = zip(problem.spec.parameters, values).map { $0.override($1) }
        let plan = try SweepPlan(sweep: sweep, overrides: overrides)
        let days = try dask.map { try $0.values(sweep, overrides: overrides, cells: cells, names: problem.metricNames) }
            ?? FleetDays.values(plan, cells: cells, names: problem.metricNames, threads: threads, measured: MeasuredWork())
        var figures: [Int: CellFigures] = [:]
        for (i, index) in cells.enumerated() {
            let cell = problem.cells[index]
            let rows = days[i].map { problem.day($0, cell: cell) }
            let counts = rows.map(\.counts), n = Double(rows.count)
            let means = cell.statistics.indices.map { k in counts.reduce(0) { $0 + $1[k] } / n }
            let variances = cell.statistics.indices.map { k -> Double in
                guard rows.count > 1 else { return 0 }
                let m = means[k]
                return counts.reduce(0) { $0 + ($1[k] - m) * ($1[k] - m) } / (n - 1) / n
            }
            figures[index] = CellFigures(means: means, variances: variances, counts: counts, times: rows.map(\.times))
        }
        var objective = 0.0, inside = true
        for index in cells where problem.cells[index].role == .fit {
            let (part, cellInside) = Self.distance(problem.cells[index], figures[index]!)
            objective += part
            inside = inside && cellInside
        }
        return Point(cells: figures, objective: objective, inside: inside)
    }

    /// A cell's part of the objective, Σ (sim − field)² ÷ (var field + var sim), and whether
    /// every simulated rate lies inside the field's interval.
    static func distance(_ cell: CalibrationProblem.Cell, _ f: CellFigures) -> (Double, Bool) {
        guard let field = cell.field else { return (0, true) }
        var sum = 0.0, inside = true
        for (k, exit) in field.exits.enumerated() {
            let z = contribution(field: exit.rate, simulated: f.means[k], variance: f.variances[k])
            sum += z
            inside = inside && exit.rate.low - 1e-12 <= f.means[k] && f.means[k] <= exit.rate.high + 1e-12
        }
        return (sum, inside)
    }

    /// The field's variance of its mean, from its 95% interval: ((high − low) ÷ (2 × 1.96))².
    static func fieldVariance(_ r: FieldSummary.Rate) -> Double {
        let half = (r.high - r.low) / (2 * 1.959964)
        return half * half
    }

    static func contribution(field: FieldSummary.Rate, simulated: Double, variance: Double) -> Double {
        let d = simulated - field.perDay
        let v = fieldVariance(field) + variance
        guard v > 0 else { return d == 0 ? 0 : d * d * 1e12 }
        return d * d / v
    }

    /// Calibrates: the pilot, the search, the profiles and the final sweep.
    public func run() throws -> Calibration {
        let spec = problem.spec
        let first = problem.sweep.seeds.first ?? 1
        var evaluations: [Calibration.Evaluation] = []
        func record(_ phase: String, _ values: [Double], _ point: Point) {
            let e = Calibration.Evaluation(index: evaluations.count, phase: phase, values: values, objective: point.objective,
                                           inside: point.inside)
            evaluations.append(e)
            progress?(e)
        }
        func seeds(_ count: Int) -> [UInt64] { (0..<UInt64(count)).map { first &+ $0 } }

        // The pilot, at the centre of the ranges, sizes the evaluations: enough seeds that each
        // simulated interval is at most a third of the field's.
        let pilotCount = min(Self.pilotSeeds, spec.maxSeeds)
        let centre = values(Array(repeating: 0.5, count: spec.parameters.count))
        let fit = problem.fitCells
        let pilot = try evaluate(centre, cells: fit, seeds: seeds(pilotCount))
        record("pilot", centre, pilot)
        var needed = pilotCount
        var spread = false
        for index in fit {
            guard let field = problem.cells[index].field, let f = pilot.cells[index] else { continue }
            for (k, exit) in field.exits.enumerated() where f.variances[k] > 0 {
                let fieldHalf = (exit.rate.high - exit.rate.low) / 2
                guard fieldHalf > 0 else { continue }
                spread = true
                let sd = (f.variances[k] * Double(pilotCount)).squareRoot()
                let n = (1.959964 * sd / (Self.seedTarget * fieldHalf))
                needed = max(needed, Int((n * n).rounded(.up)))
            }
        }
        // Without spread at the pilot (no exits there) the spread elsewhere is unknown: every
        // evaluation runs maxSeeds. Otherwise at least the pilot's seeds (so at least minSeeds:
        // the sweep's reader refuses a smaller maxSeeds) and at most maxSeeds.
        let count = spread ? min(spec.maxSeeds, needed) : spec.maxSeeds
        let chosen = seeds(count)

        // The search on those seeds.
        var points: [[Double]: Point] = [:]
        let search = try CalibrationSearch.run(dimensions: spec.parameters.count, budget: spec.budget) { unit in
            let v = values(unit)
            let point = try evaluate(v, cells: fit, seeds: chosen)
            points[unit] = point
            record(evaluations.count <= CalibrationSearch.designSize(dimensions: spec.parameters.count) ? "design" : "search", v, point)
            return .init(objective: point.objective, inside: point.inside)
        }
        // Phases as the search names them.
        for (i, step) in search.steps.enumerated() { evaluations[i + 1].phase = step.phase }
        let bestUnit = search.steps[search.best].point
        let best = points[bestUnit]!
        let fitted = values(bestUnit)

        // The final sweep: every cell at the fitted values.
        let final = try evaluate(fitted, cells: problem.cells.map(\.index), seeds: chosen)
        record("final", fitted, final)

        // Statistics in play, and the chi-square bound for them.
        var inPlay = 0
        for index in fit {
            guard let field = problem.cells[index].field, let f = final.cells[index] else { continue }
            for (k, exit) in field.exits.enumerated() where exit.rate.total > 0 || f.means[k] > 0 { inPlay += 1 }
        }
        let bound = FieldStatistics.chiSquareQuantile(Self.confidence, degrees: max(inPlay, 1))

        // Profiles: each parameter across its range, the others at the fit.
        var parameters: [Calibration.Parameter] = []
        let profileStart = evaluations.count
        for (i, p) in spec.parameters.enumerated() {
            // The search's points on this parameter's line through the fit are points of its profile too.
            var profile: [Calibration.ProfilePoint] = search.steps.compactMap { step in
                guard step.point.indices.allSatisfy({ $0 == i || step.point[$0] == bestUnit[$0] }) else { return nil }
                return .init(value: values(step.point)[i], objective: step.value.objective)
            }
            if spec.profilePoints >= 2 {
                for g in 0..<spec.profilePoints {
                    var unit = bestUnit
                    unit[i] = Double(g) / Double(spec.profilePoints - 1)
                    let v = values(unit)
                    guard !profile.contains(where: { $0.value == v[i] }) else { continue }
                    let point = try evaluate(v, cells: fit, seeds: chosen)
                    record("profile", v, point)
                    profile.append(.init(value: v[i], objective: point.objective))
                }
            }
            profile.sort { $0.value < $1.value }
            // The grid brackets each end of the set between a point within the bound and one
            // beyond it; bisection narrows each bracket (the objective is far from linear between
            // grid points, so interpolating across a whole grid step puts the end too close to
            // the fit), past the first fit the search stopped at.
            if spec.profilePoints >= 2 {
                for side in [-1, 1] {
                    // The fit's place in the profile, found again after the other side's points.
                    guard let at = profile.firstIndex(where: { $0.value == fitted[i] }), profile[at].objective <= bound else { break }
                    var inside = at
                    while profile.indices.contains(inside + side) && profile[inside + side].objective <= bound { inside += side }
                    guard profile.indices.contains(inside + side) else { continue }
                    var a = unitOf(profile[inside].value, p), b = unitOf(profile[inside + side].value, p)
                    for _ in 0..<Self.profileBisections {
                        var unit = bestUnit
                        unit[i] = (a + b) / 2
                        let v = values(unit)
                        guard !profile.contains(where: { $0.value == v[i] }) else { break }
                        let point = try evaluate(v, cells: fit, seeds: chosen)
                        record("profile", v, point)
                        profile.append(.init(value: v[i], objective: point.objective))
                        if point.objective <= bound { a = unit[i] } else { b = unit[i] }
                    }
                    profile.sort { $0.value < $1.value }
                }
            }
            let interval = Self.interval(profile, fitted: fitted[i], bound: bound, low: p.low, high: p.high)
            parameters.append(Calibration.Parameter(
                key: p.key, kind: p.kind.rawValue, low: p.low, high: p.high, lowText: p.lowText, highText: p.highText,
                fitted: fitted[i], fittedText: p.text(fitted[i]), interval: interval,
                constrained: !(interval.map { $0.low <= p.low && $0.high >= p.high } ?? false), profile: profile))
        }
        let profileCount = evaluations.count - profileStart
        // The set also takes every point the search and the profiles met within the bound: the
        // projection of the joint set explored, so a trade-off between parameters (one higher,
        // another lower) widens each one's set, as a slice through the fit alone would not show.
        let within = evaluations.filter { ["design", "search", "profile"].contains($0.phase) && $0.objective <= bound }
        for i in parameters.indices {
            guard var interval = parameters[i].interval else { continue }
            for e in within {
                interval.low = min(interval.low, e.values[i])
                interval.high = max(interval.high, e.values[i])
            }
            parameters[i].interval = interval
            parameters[i].constrained = !(interval.low <= parameters[i].low && interval.high >= parameters[i].high)
        }

        let outcome: Calibration.Outcome
        switch search.ending {
        case .inside: outcome = .fit
        case .converged: outcome = best.inside ? .fit : .noFit
        case .budget: outcome = best.inside ? .fit : .budgetSpent
        }
        let cells = problem.cells.map { cell in Self.cellResult(cell, final.cells[cell.index]!, matchedDays: problem.matchedDays) }
        let stop: String
        switch outcome {
        case .fit:
            stop = "fit: every fitted cell's simulated exit rates lie inside the field's 95% intervals "
                + "(after \(Format.count(search.steps.count, "evaluation")) of \(spec.budget))"
        case .noFit:
            stop = "no fit: the search converged after \(Format.count(search.steps.count, "evaluation")) and its best point leaves "
                + "\(Format.count(cells.filter { $0.role == .fit }.flatMap(\.statistics).filter { $0.inside == false }.count, "rate")) "
                + "outside the field's 95% intervals: the declared ranges do not produce the field"
        case .budgetSpent:
            stop = "budget spent: \(spec.budget) evaluations without every fitted cell's rates inside the field's 95% intervals; "
                + "the best point is reported, not a fit"
        }
        var objective = 0.0
        for cell in cells where cell.role == .fit { objective += cell.objective }
        return Calibration(
            memprofVersion: MemprofVersion.current, outcome: outcome, stop: stop,
            app: .init(key: problem.app, bundleIdentifier: problem.bundleIdentifier),
            field: .init(paths: problem.fieldPaths, payloads: problem.payloadCount, days: problem.appDays,
                         matchedDays: problem.matchedDays, unmatched: problem.unmatched),
            sweep: .init(file: problem.sweep.file, name: CalibratedSweep.name(problem.sweep.name),
                         calibratedFile: CalibratedSweep.fileName, workload: problem.sweep.workload),
            seeds: .init(text: "\(first)..\(first &+ UInt64(count - 1))", first: first, count: count,
                         ratio: Self.ratio(problem, final, count: count), target: Self.seedTarget,
                         capped: spread && needed > spec.maxSeeds),
            objective: .init(value: objective, statistics: inPlay, bound: bound),
            budget: .init(evaluations: spec.budget, used: search.steps.count, profile: profileCount, final: 1),
            parameters: parameters,
            measured: problem.measured.map { .init(key: $0.override.keyPath, value: $0.override.value, source: $0.source) },
            cells: cells, evaluations: evaluations)
    }

    /// The widest simulated interval over the field's, at the final sweep (normal half-widths).
    static func ratio(_ problem: CalibrationProblem, _ point: Point, count: Int) -> Double? {
        var widest: Double?
        for index in problem.fitCells {
            guard let field = problem.cells[index].field, let f = point.cells[index] else { continue }
            for (k, exit) in field.exits.enumerated() where f.variances[k] > 0 && exit.rate.high > exit.rate.low {
                let r = 1.959964 * f.variances[k].squareRoot() / ((exit.rate.high - exit.rate.low) / 2)
                widest = max(widest ?? 0, r)
            }
        }
        return widest
    }

    /// The values of the profile whose objective is within `bound`, around the fitted value,
    /// with each end interpolated to where the objective crosses the bound (the range's end
    /// when it never does).
    static func interval(_ profile: [Calibration.ProfilePoint], fitted: Double, bound: Double, low: Double,
                         high: Double) -> Calibration.Interval? {
        guard let at = profile.firstIndex(where: { $0.value == fitted }), profile[at].objective <= bound else { return nil }
        func cross(_ inside: Calibration.ProfilePoint, _ outside: Calibration.ProfilePoint) -> Double {
            let t = (bound - inside.objective) / (outside.objective - inside.objective)
            return inside.value + t * (outside.value - inside.value)
        }
        var lo = at, hi = at
        while lo > 0 && profile[lo - 1].objective <= bound { lo -= 1 }
        while hi < profile.count - 1 && profile[hi + 1].objective <= bound { hi += 1 }
        let lower = lo == 0 ? (profile[0].value <= low ? low : profile[0].value) : cross(profile[lo], profile[lo - 1])
        let upper = hi == profile.count - 1 ? (profile[hi].value >= high ? high : profile[hi].value) : cross(profile[hi], profile[hi + 1])
        return .init(low: lower, high: upper)
    }

    /// A cell as calibration.json gives it: the field and the final sweep side by side.
    static func cellResult(_ cell: CalibrationProblem.Cell, _ f: CellFigures, matchedDays: Int) -> Calibration.Cell {
        let simulated = FieldSummary.rates(f.counts, counts: true)
        let times = FieldSummary.rates(f.times, counts: false)
        var statistics: [Calibration.Statistic] = []
        for (k, s) in cell.statistics.enumerated() {
            let fieldRate = cell.field?.exits[k].rate
            let sim = simulated.indices.contains(k) ? simulated[k] : .init(total: 0, perDay: 0, low: 0, high: 0, method: .none)
            // Counters neither side sees are left out, but for the memory-pressure one.
            guard (fieldRate?.total ?? 0) > 0 || sim.total > 0
                || (s.side == "background" && s.counter == MetricKitSchema.memoryPressure) else { continue }
            let inside = fieldRate.map { $0.low - 1e-12 <= sim.perDay && sim.perDay <= $0.high + 1e-12 }
            statistics.append(.init(side: s.side, counter: s.counter, field: fieldRate.map(rate), simulated: rate(sim),
                                    residual: fieldRate.map { sim.perDay - $0.perDay },
                                    contribution: fieldRate.map { contribution(field: $0, simulated: f.means[k], variance: f.variances[k]) },
                                    inside: inside))
        }
        var time: [Calibration.Statistic] = []
        for (k, key) in ["foregroundSeconds", "backgroundSeconds"].enumerated() where times.indices.contains(k) {
            let fieldRate = cell.field?.time.first { $0.key == key }?.rate
            time.append(.init(side: "time", counter: key, field: fieldRate.map(rate), simulated: rate(times[k]),
                              residual: fieldRate.map { times[k].perDay - $0.perDay }, contribution: nil,
                              inside: fieldRate.map { $0.low - 1e-9 <= times[k].perDay && times[k].perDay <= $0.high + 1e-9 }))
        }
        let (objective, inside) = distance(cell, f)
        return Calibration.Cell(
            index: cell.index, label: cell.label, overrides: cell.overrides.map { .init(keyPath: $0.keyPath, value: $0.value) },
            deviceType: cell.deviceType, osVersions: cell.osVersions, role: cell.role, days: cell.field?.days ?? 0,
            share: matchedDays > 0 ? Double(cell.field?.days ?? 0) / Double(matchedDays) : 0,
            inside: cell.field == nil ? nil : inside, objective: cell.role == .fit ? objective : 0,
            measured: cell.measured.map { .init(key: $0.override.keyPath, value: $0.override.value, source: $0.source) }, statistics: statistics, time: time)
    }

    static func rate(_ r: FieldSummary.Rate) -> Calibration.Rate {
        .init(perDay: r.perDay, low: r.low, high: r.high, interval: r.method.rawValue)
    }
}
