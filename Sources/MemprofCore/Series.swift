/// A change-point series: each value holds from its time until the next one.
///
/// Two changes at the same instant keep the last; a change back to the previous value at the
/// same instant removes the point, so the series lists only real changes.
struct Series: Sendable {
    /// One change: `value` from `time` on.
    struct Point: Sendable {
        var time: Microseconds
        var value: Int64
    }

    /// Times and values side by side: one append per change on the engine's hot path.
    private(set) var points: [Point] = []

    mutating func record(_ time: Microseconds, _ value: Int64) {
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

    var pairs: [[Int64]] {
        points.map { [$0.time, $0.value] }
    }
}
