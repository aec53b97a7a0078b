import MemprofCore
import MemprofHTML
import Testing

/// The reductions a streamed run makes as it goes equal those of the whole series.
@Suite struct MemoryDigestTests {
    /// A deterministic series with `count` points over `0..<end`.
    static func series(_ count: Int, end: Int64, seed: UInt64) -> [StepPoint] {
        var generator = SeededGenerator(seed: seed)
        var times = Set<Int64>()
        while times.count < count { times.insert(Int64.random(in: 0..<end, using: &generator)) }
        return times.sorted().map { StepPoint(atUs: $0, value: Int64.random(in: 0..<50, using: &generator)) }
    }

    @Test(arguments: [0, 1, 7, 799, 800, 801, 802, 5_000])
    func theReducerGivesWhatMinMaxGives(count: Int) {
        let end: Int64 = 86_400_000_000
        let points = Self.series(count, end: end, seed: UInt64(count) + 1)
        var reducer = MinMaxReducer<Void>(start: 0, end: end, buckets: 400)
        for point in points { reducer.add(point) }
        #expect(reducer.result().map(\.0) == Downsample.minMax(points, start: 0, end: end, buckets: 400))
    }
}
