import Foundation
import MemprofCore

/// The intervals the field's rates are given with (the Field format reference says
/// why each): Garwood's exact interval for a Poisson count, and a percentile bootstrap over
/// device-days.
public enum FieldStatistics {
    /// Garwood's exact 95% interval for the mean of a Poisson count `k`:
    /// [½ χ²(0.025; 2k), ½ χ²(0.975; 2k + 2)], which is the gamma(k) 2.5% and gamma(k + 1) 97.5%
    /// quantiles (Garwood 1936). For k = 0 it is [0, 3.689].
    public static func garwood(_ k: Int) -> (low: Double, high: Double) {
        let low = k == 0 ? 0 : gammaQuantile(0.025, shape: Double(k))
        return (low, gammaQuantile(0.975, shape: Double(k + 1)))
    }

    /// The chi-square distribution's `p` quantile for `degrees` degrees of freedom: twice the
    /// gamma(degrees ÷ 2) quantile.
    public static func chiSquareQuantile(_ p: Double, degrees: Int) -> Double {
        2 * gammaQuantile(p, shape: Double(degrees) / 2)
    }

    /// The `p` quantile of the gamma distribution of `shape` and scale 1, by bisection on the
    /// regularized incomplete gamma function (to 1e-10 relative).
    public static func gammaQuantile(_ p: Double, shape a: Double) -> Double {
        var low = 0.0, high = a + 20 * a.squareRoot() + 40
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if regularizedGammaP(a, mid) < p { low = mid } else { high = mid }
            if high - low <= 1e-10 * max(1, mid) { break }
        }
        return (low + high) / 2
    }

    /// P(a, x), the regularized lower incomplete gamma function: its series below a + 1, its
    /// continued fraction (Lentz) above (Press et al., Numerical Recipes, §6.2).
    static func regularizedGammaP(_ a: Double, _ x: Double) -> Double {
        guard x > 0 else { return 0 }
        let front = exp(-x + a * log(x) - lgamma(a))
        if x < a + 1 {
            var sum = 1 / a, term = 1 / a, n = a
            for _ in 0..<10_000 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return min(1, sum * front)
        }
        let tiny = 1e-300
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1...10_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return max(0, 1 - front * h)
    }

    /// Resamples of the percentile bootstrap.
    public static let resamples = 2000
    /// The bootstrap's seed: the same days give the same interval.
    static let seed: UInt64 = 2015

    /// The 95% percentile-bootstrap interval of the mean of each column of `days` (one row a
    /// device-day): `resamples` resamples of the rows with replacement, the 2.5% and 97.5%
    /// quantiles of each column's resampled means. All columns share the resamples.
    public static func bootstrapMeans(_ days: [[Double]]) -> [(low: Double, high: Double)] {
        guard let width = days.first?.count, !days.isEmpty else { return [] }
        let n = days.count
        var generator = SeededGenerator(seed: seed)
        var means = Array(repeating: [Double](repeating: 0, count: resamples), count: width)
        var sums = [Double](repeating: 0, count: width)
        for r in 0..<resamples {
            for c in 0..<width { sums[c] = 0 }
            for _ in 0..<n {
                let row = days[Int(generator.next() % UInt64(n))]
                for c in 0..<width { sums[c] += row[c] }
            }
            for c in 0..<width { means[c][r] = sums[c] / Double(n) }
        }
        return means.map { column in
            let sorted = column.sorted()
            return (quantile(sorted, 0.025), quantile(sorted, 0.975))
        }
    }

    /// The `p` quantile of sorted values, interpolated between neighbours.
    public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = p * Double(sorted.count - 1)
        let i = Int(position.rounded(.down))
        let fraction = position - Double(i)
        return i + 1 < sorted.count ? sorted[i] + fraction * (sorted[i + 1] - sorted[i]) : sorted[i]
    }
}
