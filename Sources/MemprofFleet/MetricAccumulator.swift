/// The distribution of one metric over the runs of one cell, kept so that adding runs in any
/// order, on any number of threads, and combining accumulators gives the same statistics
/// (spec §12: thread count and sharding never change a result).
///
/// Count, sum, sum of squares, min, max and runs above zero are exact integers. Percentiles
/// come from a log-linear histogram (as HdrHistogram): values below 512 have a bucket each, so
/// counts are exact; above, each power of two has 256 buckets, so a percentile is the lower
/// bound of its bucket, at most 0.4% under the exact value. Memory depends on the spread of the
/// values, never on the number of runs.
public struct MetricAccumulator: Sendable, Equatable {
    public var count = 0
    public var sum: Int128 = 0
    public var sumOfSquares: Int128 = 0
    public var min = Int64.max
    public var max = Int64.min
    public var aboveZero = 0
    /// Bucket index → runs.
    var buckets: [Int32: Int32] = [:]
    /// The worst runs so far, worst first: (value, seed index, seed).
    var worst: [WorstRun] = []

    public struct WorstRun: Sendable, Equatable {
        public var value: Int64
        public var run: Int
        public var seed: UInt64
    }

    public init() {}

    static let exactBelow: Int64 = 512
    static let subBuckets = 256

    /// Negative values (the room left before a limit that a declared value does not fit) mirror
    /// the positive buckets below zero, so bucket order is value order.
    static func bucket(_ value: Int64) -> Int32 {
        if value < 0 { return -1 - bucket(-value) }
        guard value >= exactBelow else { return Int32(value) }
        let top = 63 - value.leadingZeroBitCount           // 2^top ≤ value
        let shift = top - 8                                 // value >> shift in 256..<512
        return Int32(Int(exactBelow) + (shift - 1) * subBuckets + Int(value >> shift) - subBuckets)
    }

    /// The smallest value that falls into `bucket` (for a negative bucket, the value nearest zero).
    static func lowerBound(_ bucket: Int32) -> Int64 {
        if bucket < 0 { return -lowerBound(-1 - bucket) }
        let b = Int(bucket)
        guard b >= Int(exactBelow) else { return Int64(b) }
        let shift = (b - Int(exactBelow)) / subBuckets + 1
        let mantissa = Int64((b - Int(exactBelow)) % subBuckets + subBuckets)
        return mantissa << shift
    }

    /// Adds one run's value. `worse` orders two values (true when the first is worse); nil keeps
    /// no worst runs (neutral metrics).
    ///
    /// Values lie within ``RunsCSV/valueRange`` (runs.csv refuses others and no run makes one);
    /// a value beyond it counts at the bound, so no sum can overflow.
    public mutating func add(_ value: Int64, run: Int, seed: UInt64, keep: Int, worse: ((Int64, Int64) -> Bool)?) {
        let value = Swift.min(Swift.max(value, RunsCSV.valueRange.lowerBound), RunsCSV.valueRange.upperBound)
        count += 1
        sum += Int128(value)
        sumOfSquares += Int128(value) * Int128(value)
        if value < min { min = value }
        if value > max { max = value }
        if value > 0 { aboveZero += 1 }
        buckets[Self.bucket(value), default: 0] += 1
        if let worse, keep > 0 {
            insertWorst(WorstRun(value: value, run: run, seed: seed), keep: keep, worse: worse)
        }
    }

    mutating func insertWorst(_ run: WorstRun, keep: Int, worse: (Int64, Int64) -> Bool) {
        func before(_ a: WorstRun, _ b: WorstRun) -> Bool {
            if a.value != b.value { return worse(a.value, b.value) }
            return a.run < b.run
        }
        if worst.count == keep, let last = worst.last, !before(run, last) { return }
        let at = worst.firstIndex { before(run, $0) } ?? worst.count
        worst.insert(run, at: at)
        if worst.count > keep { worst.removeLast() }
    }

    /// Adds everything `other` counted: the result is the same whichever is merged into which.
    public mutating func merge(_ other: MetricAccumulator, keep: Int, worse: ((Int64, Int64) -> Bool)?) {
        count += other.count
        sum += other.sum
        sumOfSquares += other.sumOfSquares
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
        aboveZero += other.aboveZero
        for (b, n) in other.buckets { buckets[b, default: 0] += n }
        if let worse { for run in other.worst { insertWorst(run, keep: keep, worse: worse) } }
    }

    public var mean: Double { count == 0 ? 0 : Double(sum) / Double(count) }

    /// The sample standard deviation (n − 1), from exact sums: (n·Σx² − (Σx)²) ÷ (n(n − 1)).
    /// When n·Σx² does not fit in 128 bits (values near ``RunsCSV/valueRange``'s ends in millions
    /// of runs), the numerator ÷ n is taken exactly as Σx² − q·Σx with Σx = q·n + r, less r·Σx ÷ n.
    public var standardDeviation: Double {
        guard count > 1 else { return 0 }
        let n = Int128(count)
        let (scaled, overflow) = n.multipliedReportingOverflow(by: sumOfSquares)
        let variance: Double
        if !overflow, case (let square, let o) = sum.multipliedReportingOverflow(by: sum), !o {
            variance = Double(scaled - square) / (Double(count) * Double(count - 1))
        } else {
            let (q, r) = sum.quotientAndRemainder(dividingBy: n)
            let exact = sumOfSquares - q * sum  // ≥ 0: q and Σx have the same sign
            variance = (Double(exact) - Double(r) * Double(sum) / Double(count)) / Double(count - 1)
        }
        return Swift.max(variance, 0).squareRoot()
    }

    /// The nearest-rank percentile `p` (0...100): the smallest value with at least p% of runs at
    /// or below it (its bucket's lower bound above 512, and never outside min...max).
    public func percentile(_ p: Double) -> Int64 { percentiles([p])[0] }

    /// The percentiles `ps` (each as `percentile` gives it), from one pass over the sorted buckets.
    public func percentiles(_ ps: [Double]) -> [Int64] {
        guard count > 0 else { return ps.map { _ in 0 } }
        let sorted = buckets.sorted { $0.key < $1.key }
        return ps.map { p in
            let rank = Swift.max(1, Int((p / 100 * Double(count)).rounded(.up)))
            var seen = 0
            for (b, n) in sorted {
                seen += Int(n)
                if seen >= rank { return Swift.min(Swift.max(Self.lowerBound(b), min), max) }
            }
            return max
        }
    }

    public var worstRuns: [WorstRun] { worst }
}
