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

    /// Hands the points dated before `time` not handed yet to `body`, oldest first: for a series
    /// written as it goes, each point once it is final, which it is when every later
    /// ``record(_:_:)`` is at `time` or after (a change replaces or removes only a point at its
    /// own time). `time: .max` hands every point (the end of a run). The points handed are
    /// forgotten in batches, but never the last two, which `record` compares with: a series
    /// drained this way holds a bounded number of points.
    public mutating func drain(before time: Microseconds = .max, _ body: (Microseconds, Int64) throws -> Void) rethrows {
        var k = handed
        while k < points.count, points[k].time < time {
            try body(points[k].time, points[k].value)
            k += 1
        }
        handed = k
        let forgettable = min(handed, points.count - 2)
        if forgettable >= Self.forgottenTogether {
            points.removeFirst(forgettable)
            handed -= forgettable
        }
    }

    /// Points handed out are forgotten this many at a time (a removal moves the two kept).
    static let forgottenTogether = 64

    public var pairs: [[Int64]] {
        points.map { [$0.time, $0.value] }
    }
}
