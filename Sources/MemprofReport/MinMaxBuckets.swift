/// The smallest and the largest point of each of `buckets` slices of time (`width` wide from
/// `start`) of a series sorted by time, in time order (one point where they are the same): the
/// series' every maximum and minimum, and each slice's, survive. Points before `start` count in
/// the first slice, points past the last slice in the last.
public enum MinMaxBuckets {
    @inlinable
    public static func reduce<P>(_ points: [P], start: Int64, width: Double, buckets: Int,
                                 time: (P) -> Int64, value: (P) -> Int64) -> [P] {
        var out: [P] = []
        out.reserveCapacity(2 * buckets)
        var current = -1
        var low = 0
        var high = 0
        func flush() {
            guard current >= 0 else { return }
            out.append(points[min(low, high)])
            if low != high { out.append(points[max(low, high)]) }
        }
        for (index, point) in points.enumerated() {
            let bucket = Self.bucket(of: time(point), start: start, width: width, buckets: buckets)
            if bucket != current {
                flush()
                current = bucket
                low = index
                high = index
            } else {
                if value(point) < value(points[low]) { low = index }
                if value(point) > value(points[high]) { high = index }
            }
        }
        flush()
        return out
    }

    /// The slice a time falls in: before `start` the first, past the last slice the last.
    @inlinable
    public static func bucket(of t: Int64, start: Int64, width: Double, buckets: Int) -> Int {
        let slice = (Double(t) - Double(start)) / width
        return min(buckets - 1, max(0, slice.isFinite ? Int(min(max(slice, -1), Double(buckets))) : 0))
    }
}
