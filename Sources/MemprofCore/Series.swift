/// A change-point series: each value holds from its time until the next one.
///
/// Two changes at the same instant keep the last; a change back to the previous value at the
/// same instant removes the point, so the series lists only real changes.
public struct Series: Sendable {
    /// One change: `value` from `time` on.
    public struct Point: Sendable {
        public var time: Microseconds
        public var value: Int64
    }

    /// Times and values side by side: one append per change on the engine's hot path.
    public private(set) var points: [Point] = []

    public init() {}

    public mutating func record(_ time: Microseconds, _ value: Int64) {
        let n = points.count
        if n > 0, points[n - 1].time == time {
            if n > 1, points[n - 2].value == value {
                points.removeLast()
            } else {
                points[n - 1].value = value
            }
        } else if n == 0 || points[n - 1].value != value {
            points.append(Point(time: time, value: value))
        }
    }

    /// Hands the points no later ``record(_:_:)`` can change (all but the last two: it only ever
    /// replaces or removes the last point, comparing with the one before) to `body`, oldest
    /// first, and forgets them, once more than `above` are held; `above: 0` hands every point
    /// (the end of a run). A series streamed this way holds a bounded number of points.
    public mutating func drain(above: Int = 0, _ body: (Microseconds, Int64) throws -> Void) rethrows {
        guard points.count > above else { return }
        let n = above == 0 ? points.count : points.count - 2
        guard n > 0 else { return }
        for k in 0..<n { try body(points[k].time, points[k].value) }
        points.removeFirst(n)
    }

    public var pairs: [[Int64]] {
        points.map { [$0.time, $0.value] }
    }
}
