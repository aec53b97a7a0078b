import Foundation

/// The paired test of a fleet compare: the Wilcoxon signed-rank test on the per-seed differences.
///
/// Why this test: both sweeps run the same seeds, so each difference `new − base` is one day
/// under both builds, and the question is whether the differences lean one way. The values are
/// counts and bytes with many ties and zeros and skewed tails, so a paired t-test's normality
/// does not hold; the sign test would do but throws away how large each difference is, and so
/// needs many more seeds to see the same shift. The signed-rank test uses the sizes through
/// their ranks and assumes only that differences are symmetric under no change.
///
/// Zero differences are dropped (Wilcoxon's way); ties share their average rank. With up to 50
/// non-zero differences the p-value is exact (the distribution of the rank sum under random
/// signs, ties included, counted by dynamic programming); above, the normal approximation with
/// the tie correction and a continuity correction. Two-sided.
public enum PairedTest {
    public struct Result: Sendable, Equatable {
        /// Pairs, and pairs whose difference is not zero.
        public var pairs: Int
        public var nonZero: Int
        /// Sum of the ranks of the positive differences.
        public var wPlus: Double
        public var pValue: Double
        /// Mean of the differences and its 95% confidence interval (Student's t).
        public var meanChange: Double
        public var ciLow: Double
        public var ciHigh: Double
    }

    public static func wilcoxon(_ differences: [Int64]) -> Result {
        wilcoxon(fractional: differences.map(Double.init))
    }

    /// The test on differences that need not be whole: a what-if's population-weighted
    /// differences (each seed's cells weighted by their shares of the device mix). Whole
    /// differences give the same result as the test of `[Int64]` (counts and bytes are exact in
    /// a `Double` up to 2⁵³).
    public static func wilcoxon(fractional differences: [Double]) -> Result {
        let n = differences.count
        let mean = n == 0 ? 0 : differences.reduce(0.0, +) / Double(n)
        var ss = 0.0
        for d in differences { ss += (d - mean) * (d - mean) }
        let sd = n > 1 ? (ss / Double(n - 1)).squareRoot() : 0
        let half = n > 1 ? tQuantile975(df: n - 1) * sd / Double(n).squareRoot() : 0
        let nonZero = differences.filter { $0 != 0 }
        let m = nonZero.count
        guard m > 0 else {
            return Result(pairs: n, nonZero: 0, wPlus: 0, pValue: 1, meanChange: mean, ciLow: mean - half, ciHigh: mean + half)
        }
        // Average ranks of |d|, doubled so that they are whole numbers.
        let order = nonZero.indices.sorted { nonZero[$0].magnitude < nonZero[$1].magnitude }
        var doubledRank = Array(repeating: 0, count: m)
        var tieCorrection = 0.0
        var i = 0
        while i < m {
            var j = i
            while j + 1 < m && nonZero[order[j + 1]].magnitude == nonZero[order[i]].magnitude { j += 1 }
            let doubled = (i + 1) + (j + 1)           // 2 × the average of ranks i+1...j+1
            for k in i...j { doubledRank[order[k]] = doubled }
            let t = Double(j - i + 1)
            tieCorrection += t * t * t - t
            i = j + 1
        }
        let wPlus2 = zip(nonZero, doubledRank).reduce(0) { $0 + ($1.0 > 0 ? $1.1 : 0) }
        let total2 = doubledRank.reduce(0, +)
        let p: Double
        if m <= 50 {
            // Exact: counts of sign assignments by doubled rank sum.
            var counts = [Double](repeating: 0, count: total2 + 1)
            counts[0] = 1
            var reach = 0
            for r in doubledRank {
                reach += r
                for s in stride(from: reach, through: r, by: -1) { counts[s] += counts[s - r] }
            }
            let all = counts.reduce(0, +)
            let low = min(wPlus2, total2 - wPlus2)
            let tail = counts[0...low].reduce(0, +) / all
            p = min(1, 2 * tail)
        } else {
            let mm = Double(m)
            let expected = mm * (mm + 1) / 4
            let variance = mm * (mm + 1) * (2 * mm + 1) / 24 - tieCorrection / 48
            let w = Double(wPlus2) / 2
            let z = variance > 0 ? max(0, abs(w - expected) - 0.5) / variance.squareRoot() : 0
            p = min(1, erfc(z / 2.0.squareRoot()))
        }
        return Result(pairs: n, nonZero: m, wPlus: Double(wPlus2) / 2, pValue: p, meanChange: mean,
                      ciLow: mean - half, ciHigh: mean + half)
    }

    /// Student's t 97.5% quantile (two-sided 95%), from a table up to 30 degrees of freedom,
    /// then a series in 1/df that meets the normal 1.96.
    static func tQuantile975(df: Int) -> Double {
        let table: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
                               2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
                               2.052, 2.048, 2.045, 2.042]
        if df >= 1 && df <= 30 { return table[df - 1] }
        let z = 1.959964, v = Double(max(df, 1))
        return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v)
    }
}
