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

    /// How many of the first points were handed out by ``drain(before:_:)`` (kept: ``record(_:_:)``
    /// compares with the last two).
    private var handed = 0

    /// Hands the points no later ``record(_:_:)`` can change (all but the last two: it only ever
    /// replaces or removes the last point, comparing with the one before) to `body`, oldest
    /// first, and forgets them, once more than `above` are held; `above: 0` hands every point
    /// (the end of a run). A series streamed this way holds a bounded number of points.
    public mutating func drain(above: Int = 0, _ body: (Microseconds, Int64) throws -> Void) rethrows {
        guard above == 0 || points.count - handed > above else { return }
        let n = above == 0 ? points.count : points.count - 2
        guard n >= handed else { return }
        for k in handed..<n { try body(points[k].time, points[k].value) }
        points.removeFirst(n)
        handed = 0
    }

    /// Hands the points dated before `time` not handed yet to `body`, oldest first, when every
    /// later ``record(_:_:)`` is at `time` or after (it changes only a point at its own time):
    /// for a series written as it goes, each point as soon as it is final. The points handed are
    /// forgotten in batches, but never the last two, which `record` compares with.
    public mutating func drain(before time: Microseconds, _ body: (Microseconds, Int64) throws -> Void) rethrows {
        var k = handed
        while k < points.count, points[k].time < time {
            try body(points[k].time, points[k].value)
            k += 1
        }
        handed = k
        let forgettable = min(handed, points.count - 2)
        if forgettable >= 256 {
            points.removeFirst(forgettable)
            handed -= forgettable
        }
    }

    public var pairs: [[Int64]] {
        points.map { [$0.time, $0.value] }
    }
}
