import Testing
@testable import MemprofHTML

@Suite struct DownsampleTests {
    /// A noisy series with isolated one-point spikes that a plain stride would drop.
    func spiky(count: Int) -> [StepPoint] {
        var state: UInt64 = 42
        return (0..<count).map { i in
            // swift-format-ignore: GroupNumericLiterals
            state = state &* 6364136223846793005 &+ 1442695040888963407
            var value = Int64(state >> 40) % 1_000
            if i % 997 == 500 { value = 50_000 + Int64(i) }   // peaks
            if i % 1_511 == 700 { value = -5_000 - Int64(i) } // troughs
            return StepPoint(atUs: Int64(i) * 1_000, value: value)
        }
    }

    @Test func shortSeriesAreKeptAsTheyAre() {
        let points = (0..<10).map { StepPoint(atUs: Int64($0), value: Int64($0 * $0)) }
        #expect(Downsample.minMax(points, start: 0, end: 10, buckets: 5) == points)
    }

    @Test func reducedSeriesIsBoundedAndKeepsEveryExtreme() {
        let points = spiky(count: 100_000)
        let end = points.last!.atUs + 1
        let reduced = Downsample.minMax(points, start: 0, end: end, buckets: 400)
        #expect(reduced.count <= 800)
        #expect(reduced.map(\.value).max() == points.map(\.value).max())
        #expect(reduced.map(\.value).min() == points.map(\.value).min())
        // Every spike survives, at its own time.
        let kept = Set(reduced)
        for point in points where point.value >= 50_000 || point.value <= -5_000 {
            #expect(kept.contains(point))
        }
        // Times stay in order.
        #expect(zip(reduced, reduced.dropFirst()).allSatisfy { $0.atUs < $1.atUs })
    }

    @Test func everyBucketKeepsItsMinimumAndMaximum() {
        let points = spiky(count: 20_000)
        let end = points.last!.atUs + 1
        let buckets = 97
        let reduced = Downsample.minMax(points, start: 0, end: end, buckets: buckets)
        let width = Double(end) / Double(buckets)
        func bucket(_ p: StepPoint) -> Int { min(buckets - 1, Int(Double(p.atUs) / width)) }
        let original = Dictionary(grouping: points, by: bucket)
        let kept = Dictionary(grouping: reduced, by: bucket)
        for (index, group) in original {
            #expect(kept[index]?.map(\.value).max() == group.map(\.value).max())
            #expect(kept[index]?.map(\.value).min() == group.map(\.value).min())
        }
    }

    @Test func valuesOfAStepSeriesAtInstants() {
        let points = [StepPoint(atUs: 10, value: 5), StepPoint(atUs: 20, value: 7), StepPoint(atUs: 30, value: 0)]
        #expect(Downsample.values(of: points, at: [0, 10, 15, 20, 29, 30, 99]) == [0, 5, 5, 7, 7, 0, 0])
    }

    @Test func stackInstantsKeepThePeakOfTheTotal() {
        // Two layers whose sum peaks once, briefly, in the middle of a long run.
        var a: [StepPoint] = []
        var b: [StepPoint] = []
        for i in 0..<5_000 {
            a.append(StepPoint(atUs: Int64(i) * 100, value: Int64(i % 7)))
            b.append(StepPoint(atUs: Int64(i) * 100 + 50, value: i == 2_345 ? 1_000 : Int64(i % 3)))
        }
        var total: [StepPoint] = []
        let times = (a + b).map(\.atUs).sorted()
        let av = Downsample.values(of: a, at: times)
        let bv = Downsample.values(of: b, at: times)
        for (index, time) in times.enumerated() { total.append(StepPoint(atUs: time, value: av[index] + bv[index])) }
        let instants = Downsample.stackInstants(layers: [a, b], total: total, start: 0, end: 500_000, buckets: 100)
        #expect(instants.count <= 201)
        let stackedMax = zip(Downsample.values(of: a, at: instants), Downsample.values(of: b, at: instants)).map { $0 + $1 }.max()
        #expect(stackedMax == total.map(\.value).max())
    }

    @Test func smallStacksUseEveryChangePoint() {
        let a = [StepPoint(atUs: 0, value: 1), StepPoint(atUs: 40, value: 3)]
        let b = [StepPoint(atUs: 10, value: 2), StepPoint(atUs: 40, value: 0)]
        let instants = Downsample.stackInstants(layers: [a, b], total: [], start: 0, end: 100, buckets: 10)
        #expect(instants == [0, 10, 40])
    }
}
