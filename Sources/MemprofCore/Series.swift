/// A change-point series: each value holds from its time until the next one.
///
/// Two changes at the same instant keep the last; a change back to the previous value at the
/// same instant removes the point, so the series lists only real changes.
struct Series: Sendable {
    private(set) var times: [Microseconds] = []
    private(set) var values: [Int64] = []

    mutating func record(_ time: Microseconds, _ value: Int64) {
        let n = times.count
        if n > 0, times[n - 1] == time {
            if n > 1, values[n - 2] == value {
                times.removeLast()
                values.removeLast()
            } else {
                values[n - 1] = value
            }
        } else if n == 0 || values[n - 1] != value {
            times.append(time)
            values.append(value)
        }
    }

    var pairs: [[Int64]] {
        zip(times, values).map { [$0, $1] }
    }
}
