import MemprofCore
import MemprofReport

/// A change point of a step series: `value` holds from `atUs` until the next point.
public struct StepPoint: Sendable, Hashable {
    public var atUs: Microseconds
    public var value: Int64

    public init(atUs: Microseconds, value: Int64) {
        self.atUs = atUs
        self.value = value
    }

    /// Points from the report's `[atUs, bytes]` pairs (malformed pairs are skipped).
    public static func make(_ pairs: [[Int64]]) -> [StepPoint] {
        pairs.compactMap { $0.count >= 2 ? StepPoint(atUs: $0[0], value: $0[1]) : nil }
    }
}

/// Reduces series to a bounded number of points without losing a peak.
public enum Downsample {
    /// At most `2 × buckets` points of `points` (sorted by time): the series as it is when it is
    /// that short, and otherwise, for each of `buckets` equal slices of `start..<end`, the point
    /// with the smallest and the one with the largest value, in time order. Every maximum and
    /// minimum of the series, and of each slice, survives.
    ///
    /// - Complexity: O(n).
    public static func minMax(_ points: [StepPoint], start: Microseconds, end: Microseconds, buckets: Int) -> [StepPoint] {
        guard buckets > 0, points.count > 2 * buckets, end > start else { return points }
        let width = Double(end - start) / Double(buckets)
        return MinMaxBuckets.reduce(points, start: start, width: width, buckets: buckets, time: \.atUs, value: \.value)
    }

    /// The value of a step series at each of `times` (both sorted); 0 before its first point.
    ///
    /// - Complexity: O(n + m).
    public static func values(of points: [StepPoint], at times: [Microseconds]) -> [Int64] {
        var out: [Int64] = []
        out.reserveCapacity(times.count)
        var index = 0
        var value: Int64 = 0
        for time in times {
            while index < points.count, points[index].atUs <= time {
                value = points[index].value
                index += 1
            }
            out.append(value)
        }
        return out
    }

    /// The instants at which a stacked chart of `layers` is drawn: every change point of any layer
    /// when there are at most `2 × buckets` of them, and otherwise the min/max instants per bucket
    /// of `total` (the layers' sum), so the stack's outline keeps every peak of the total.
    public static func stackInstants(layers: [[StepPoint]], total: [StepPoint], start: Microseconds,
                                     end: Microseconds, buckets: Int) -> [Microseconds] {
        var all = Set<Microseconds>([start])
        var small = true
        for layer in layers {
            for point in layer {
                all.insert(point.atUs)
                if all.count > 2 * buckets { small = false; break }
            }
            if !small { break }
        }
        if small { return all.filter { $0 <= end }.sorted() }
        var times = Set(minMax(total, start: start, end: end, buckets: buckets).map(\.atUs))
        times.insert(start)
        return times.filter { $0 <= end }.sorted()
    }

    /// The part of a step series above `limit` (0 where the series is at or below it), with a
    /// point only where that part changes: what a Mac pages out to swap when `limit` is the
    /// memory for apps.
    ///
    /// - Complexity: O(n).
    public static func excess(_ points: [StepPoint], over limit: Int64) -> [StepPoint] {
        var out: [StepPoint] = []
        for point in points {
            let value = max(0, point.value - limit)
            if out.last?.value != value { out.append(StepPoint(atUs: point.atUs, value: value)) }
        }
        return out
    }
}
