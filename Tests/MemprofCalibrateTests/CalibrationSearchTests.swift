import Testing
@testable import MemprofCalibrate

/// The search on objectives whose minimum is known: it must find it, stop as it says, and be
/// the same every time.
@Suite struct CalibrationSearchTests {
    @Test func aLatinHypercubeUsesEachStratumOnceInEveryDimension() {
        let design = CalibrationSearch.latinHypercube(count: 8, dimensions: 3)
        #expect(design.count == 8)
        for d in 0..<3 {
            let strata = design.map { Int(($0[d] * 8).rounded(.down)) }.sorted()
            #expect(strata == Array(0..<8))
        }
        #expect(design == CalibrationSearch.latinHypercube(count: 8, dimensions: 3))
    }

    @Test func nelderMeadConvergesToAQuadraticsMinimum() {
        let target = [0.3, 0.72]
        let result = CalibrationSearch.run(dimensions: 2, budget: 200) { p in
            .init(objective: zip(p, target).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) * 100 }, inside: false)
        }
        #expect(result.ending == .converged)
        let best = result.steps[result.best].point
        #expect(abs(best[0] - 0.3) < 0.02 && abs(best[1] - 0.72) < 0.02)
        #expect(result.steps.count < 200)
        #expect(result.steps.prefix(CalibrationSearch.designSize(dimensions: 2)).allSatisfy { $0.phase == "design" })
    }

    @Test func itStopsAtTheFirstPointInside() {
        var calls = 0
        let result = CalibrationSearch.run(dimensions: 1, budget: 50) { p in
            calls += 1
            return .init(objective: abs(p[0] - 0.9), inside: abs(p[0] - 0.9) < 0.05)
        }
        #expect(result.ending == .inside)
        #expect(result.steps[result.best].value.inside)
        #expect(result.best == result.steps.count - 1)
        #expect(calls == result.steps.count)
    }

    @Test func theBudgetBoundsTheEvaluations() {
        let result = CalibrationSearch.run(dimensions: 3, budget: 7) { p in
            .init(objective: p.reduce(0, +), inside: false)
        }
        #expect(result.ending == .budget)
        #expect(result.steps.count == 7)
    }

    @Test func aMinimumOnTheEdgeOfTheRangeIsFoundThere() {
        let result = CalibrationSearch.run(dimensions: 1, budget: 60) { p in .init(objective: p[0], inside: false) }
        #expect(result.ending == .converged)
        #expect(result.steps[result.best].point[0] < 0.02)
    }
}
