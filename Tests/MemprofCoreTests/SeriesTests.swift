import MemprofCore
import Testing

/// A change-point series written out as it goes: each point once it is final, the
/// same points as when the series is handed out whole at the end.
@Suite struct SeriesTests {
    /// Changes at a clock that moves on or stays (several changes at an instant, changes back to
    /// the value before, repeated values).
    private static func changes(seed: UInt64, count: Int) -> [(Microseconds, Int64)] {
        var generator = SeededGenerator(seed: seed)
        var clock: Microseconds = 0
        return (0..<count).map { _ in
            clock += Microseconds(generator.next() % 3)
            return (clock, Int64(generator.next() % 4))
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func pointsHandedAsTheyBecomeFinalAreTheSeriesPoints(seed: UInt64) {
        var whole = Series(), live = Series()
        var handed: [(time: Microseconds, value: Int64)] = []
        var held = 0
        for (n, (time, value)) in Self.changes(seed: seed, count: 20_000).enumerated() {
            whole.record(time, value)
            live.record(time, value)
            // Every later change is at `time` or after: the points before it are final.
            if n % 7 == 0 { live.drain(before: time) { handed.append(($0, $1)) } }
            held = max(held, live.points.count)
        }
        live.drain { handed.append(($0, $1)) }
        var all: [(time: Microseconds, value: Int64)] = []
        whole.drain { all.append(($0, $1)) }
        #expect(handed.map(\.time) == all.map(\.time))
        #expect(handed.map(\.value) == all.map(\.value))
        #expect(all.count > 1000)
        // The live series held the points since the last drain and a few handed ones, never the run.
        #expect(held < 80)
    }

    @Test func aPointAtTheLatestTimeIsNotHandedYet() {
        var series = Series()
        series.record(0, 0)
        series.record(5, 1)
        var handed: [Microseconds] = []
        series.drain(before: 5) { time, _ in handed.append(time) }
        #expect(handed == [0])
        // A change back at 5 removes the point at 5: it was right not to hand it out.
        series.record(5, 0)
        series.drain(before: 6) { time, _ in handed.append(time) }
        #expect(handed == [0])
        series.record(7, 2)
        series.drain(before: 8) { time, _ in handed.append(time) }
        #expect(handed == [0, 7])
    }
}
