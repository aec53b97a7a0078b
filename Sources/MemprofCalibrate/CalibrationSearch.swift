import MemprofCore

/// The search of a calibration, on the unit cube (each parameter's range mapped to 0…1), apart
/// from what an evaluation is: a fixed Latin hypercube to find the basin, then Nelder–Mead from
/// its best point, within a budget of evaluations, stopping as soon as an evaluation is inside
/// the field's intervals. Deterministic: the same objective gives the same path.
public enum CalibrationSearch {
    /// What one evaluation found.
    public struct Value: Sendable, Equatable {
        public var objective: Double
        /// Every fitted cell's simulated rates inside the field's 95% intervals.
        public var inside: Bool

        public init(objective: Double, inside: Bool) {
            self.objective = objective
            self.inside = inside
        }
    }

    public struct Step: Sendable, Equatable {
        /// `design` or `search`.
        public var phase: String
        /// The point, on the unit cube.
        public var point: [Double]
        public var value: Value
    }

    public enum Ending: String, Sendable, Equatable {
        /// An evaluation was inside: the search stopped there.
        case inside
        /// The simplex shrank below ``tolerance`` (or the design had every point): the best
        /// point is as good as this search finds.
        case converged
        /// The budget ran out first.
        case budget
    }

    public struct Result: Sendable, Equatable {
        public var steps: [Step]
        /// Index in ``steps`` of the best point: the inside one, or the lowest objective.
        public var best: Int
        public var ending: Ending
    }

    /// The Latin hypercube's seed: the design is the same for every calibration of its size.
    static let designSeed: UInt64 = 2015
    /// Nelder–Mead stops when its simplex is smaller than this, on the unit cube.
    public static let tolerance = 0.01
    /// The first simplex's edge, on the unit cube.
    static let initialStep = 0.15

    /// Design points for `dimensions` parameters: 4 per parameter, at least 5.
    public static func designSize(dimensions: Int) -> Int { max(5, 4 * dimensions) }

    /// `count` points of a Latin hypercube: each parameter's range cut into `count` strata, each
    /// stratum's centre used once, the strata of each parameter in an order drawn from a fixed seed.
    public static func latinHypercube(count: Int, dimensions: Int) -> [[Double]] {
        var generator = SeededGenerator(seed: designSeed)
        let columns = (0..<dimensions).map { _ in Array(0..<count).shuffled(using: &generator) }
        return (0..<count).map { i in columns.map { (Double($0[i]) + 0.5) / Double(count) } }
    }

    /// Runs the search: at most `budget` evaluations (points met twice are evaluated once).
    public static func run(dimensions: Int, budget: Int, evaluate: ([Double]) throws -> Value) rethrows -> Result {
        var steps: [Step] = []
        var seen: [[Double]: Value] = [:]
        var ending = Ending.budget
        /// nil when the budget is spent.
        func value(_ point: [Double], _ phase: String) throws -> Value? {
            let point = point.map { min(1, max(0, $0)) }
            if let known = seen[point] { return known }
            guard steps.count < budget else { return nil }
            let v = try evaluate(point)
            seen[point] = v
            steps.append(Step(phase: phase, point: point, value: v))
            return v
        }
        func bestIndex() -> Int {
            if let inside = steps.firstIndex(where: \.value.inside) { return inside }
            return steps.indices.min { steps[$0].value.objective < steps[$1].value.objective } ?? 0
        }

        search: do {
            for point in latinHypercube(count: min(designSize(dimensions: dimensions), budget), dimensions: dimensions) {
                guard let v = try value(point, "design") else { break search }
                if v.inside { ending = .inside; break search }
            }
            // Nelder–Mead (reflection 1, expansion 2, contraction ½, shrink ½) from the best point.
            let start = steps[bestIndex()].point
            var simplex: [(point: [Double], f: Double)] = []
            for i in 0...dimensions {
                var p = start
                if i > 0 { p[i - 1] += p[i - 1] + initialStep <= 1 ? initialStep : -initialStep }
                guard let v = try value(p, "search") else { break search }
                if v.inside { ending = .inside; break search }
                simplex.append((p.map { min(1, max(0, $0)) }, v.objective))
            }
            func clamp(_ p: [Double]) -> [Double] { p.map { min(1, max(0, $0)) } }
            func eval(_ p: [Double]) throws -> Double? {
                guard let v = try value(p, "search") else { return nil }
                if v.inside { ending = .inside }
                return v.objective
            }
            for _ in 0..<(budget * 4) {
                simplex.sort { $0.f < $1.f }
                let diameter = simplex.dropFirst().map { v in zip(v.point, simplex[0].point).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
                if diameter < tolerance { ending = .converged; break search }
                let worst = simplex[dimensions]
                let centroid = (0..<dimensions).map { d in simplex.dropLast().reduce(0) { $0 + $1.point[d] } / Double(dimensions) }
                let reflected = clamp(zip(centroid, worst.point).map { $0 + ($0 - $1) })
                guard let fr = try eval(reflected) else { break search }
                if ending == .inside { break search }
                if fr < simplex[0].f {
                    let expanded = clamp(zip(centroid, worst.point).map { $0 + 2 * ($0 - $1) })
                    guard let fe = try eval(expanded) else { break search }
                    if ending == .inside { break search }
                    simplex[dimensions] = fe < fr ? (expanded, fe) : (reflected, fr)
                } else if fr < simplex[dimensions - 1].f {
                    simplex[dimensions] = (reflected, fr)
                } else {
                    let toward = fr < worst.f ? reflected : worst.point
                    let contracted = clamp(zip(centroid, toward).map { $0 + 0.5 * ($1 - $0) })
                    guard let fc = try eval(contracted) else { break search }
                    if ending == .inside { break search }
                    if fc < min(fr, worst.f) {
                        simplex[dimensions] = (contracted, fc)
                    } else {
                        for i in 1...dimensions {
                            let shrunk = clamp(zip(simplex[0].point, simplex[i].point).map { $0 + 0.5 * ($1 - $0) })
                            guard let fs = try eval(shrunk) else { break search }
                            if ending == .inside { break search }
                            simplex[i] = (shrunk, fs)
                        }
                    }
                }
            }
            ending = .converged
        }
        return Result(steps: steps, best: bestIndex(), ending: ending)
    }
}
