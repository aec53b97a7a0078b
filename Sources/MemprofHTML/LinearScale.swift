/// Maps a domain of values linearly onto a range of drawing coordinates.
///
/// ```swift
/// let x = LinearScale(domain: 0...3_600_000_000, from: 60, to: 990)
/// x(1_800_000_000) // 525
/// let y = LinearScale(domain: 0...1_000, from: 280, to: 10) // SVG y grows downwards
/// ```
public struct LinearScale: Sendable, Hashable {
    public var domain: ClosedRange<Double>
    /// Where the domain's lower bound is drawn.
    public var start: Double
    /// Where the domain's upper bound is drawn (may be less than `start`).
    public var end: Double

    public init(domain: ClosedRange<Double>, from start: Double, to end: Double) {
        self.domain = domain
        self.start = start
        self.end = end
    }

    /// The coordinate of `value`; a degenerate domain maps everything to the range's start.
    public func callAsFunction(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        guard span > 0 else { return start }
        return start + (value - domain.lowerBound) / span * (end - start)
    }

    public func callAsFunction(_ value: Int64) -> Double { self(Double(value)) }

    /// The value at coordinate `position`.
    public func invert(_ position: Double) -> Double {
        let span = end - start
        guard span != 0 else { return domain.lowerBound }
        return domain.lowerBound + (position - start) / span * (domain.upperBound - domain.lowerBound)
    }
}

/// Tick positions that read well: multiples of 1, 2 or 5 times a power of ten for sizes, and
/// whole seconds, minutes or hours for times.
public enum Ticks {
    /// About `count` round values covering `0...maximum`, starting at 0.
    public static func nice(maximum: Double, count: Int = 5) -> [Double] {
        guard maximum > 0, count > 0 else { return [0] }
        let rough = maximum / Double(count)
        var power = 1.0
        while power * 10 <= rough { power *= 10 }
        while power > rough { power /= 10 }
        let step = [1.0, 2.0, 5.0, 10.0].map { $0 * power }.first { $0 >= rough } ?? power * 10
        var ticks: [Double] = []
        var value = 0.0
        while value <= maximum * (1 + 1e-9) {
            ticks.append(value)
            value += step
        }
        return ticks
    }

    /// Byte ticks at round binary numbers covering `0...maximum`: steps of 1, 2 or 5 × 10ⁿ MB
    /// below a gigabyte, and of ¼, ½, 1, 2, 4, 5, 10, 20, ... GB above, so labels read `2 GB`,
    /// `4 GB`, `6 GB` (never `1.95 GB`).
    public static func bytes(maximum: Int64, count: Int = 5) -> [Int64] {
        let mb = 1_048_576.0, gb = 1_073_741_824.0
        guard Double(maximum) / Double(max(count, 1)) >= gb / 4 else {
            return nice(maximum: Double(maximum) / mb, count: count).map { Int64(($0 * mb).rounded()) }
        }
        let rough = Double(maximum) / gb / Double(max(count, 1))
        var steps: [Double] = [0.25, 0.5, 1, 2, 4, 5]
        var power = 10.0
        while steps.last! < rough { steps += [1, 2, 5].map { $0 * power }; power *= 10 }
        let step = steps.first { $0 >= rough } ?? steps.last!
        var ticks: [Int64] = []
        var value = 0.0
        while value * gb <= Double(maximum) * (1 + 1e-9) {
            ticks.append(Int64((value * gb).rounded()))
            value += step
        }
        return ticks
    }

    /// Steps a time axis may use, in microseconds.
    public static let timeSteps: [Int64] = [
        1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
        1_000_000, 2_000_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000,
        60_000_000, 120_000_000, 300_000_000, 600_000_000, 900_000_000, 1_800_000_000,
        3_600_000_000, 7_200_000_000, 10_800_000_000, 21_600_000_000, 43_200_000_000, 86_400_000_000,
    ]

    /// Times within `start...end` at the smallest listed step giving at most `count` ticks.
    public static func time(start: Int64, end: Int64, count: Int = 8) -> [Int64] {
        guard end > start, count > 0 else { return [start] }
        let span = end - start
        let step = timeSteps.first { span / $0 <= Int64(count) } ?? (span / Int64(count) + 1)
        var tick = (start + step - 1) / step * step
        var ticks: [Int64] = []
        while tick <= end {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }
}
