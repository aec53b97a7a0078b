import Testing
@testable import MemprofHTML

@Suite struct ScaleTests {
    @Test func linearScaleMapsAndInverts() {
        let x = LinearScale(domain: 0...3_600_000_000, from: 60, to: 990)
        #expect(x(Int64(0)) == 60)
        #expect(x(Int64(3_600_000_000)) == 990)
        #expect(x(Int64(1_800_000_000)) == 525)
        #expect(abs(x.invert(525) - 1_800_000_000) < 1e-3)
    }

    @Test func invertedRangeForY() {
        let y = LinearScale(domain: 0...100, from: 280, to: 10)
        #expect(y(0.0) == 280)
        #expect(y(100.0) == 10)
        #expect(y(50.0) == 145)
    }

    @Test func degenerateDomainDoesNotDivideByZero() {
        let x = LinearScale(domain: 5...5, from: 0, to: 100)
        #expect(x(5.0) == 0)
        #expect(x(7.0) == 0)
    }

    @Test func niceTicksAreRoundAndCover() {
        #expect(Ticks.nice(maximum: 1000, count: 5) == [0, 200, 400, 600, 800, 1000])
        #expect(Ticks.nice(maximum: 7, count: 5) == [0, 2, 4, 6])
        #expect(Ticks.nice(maximum: 0) == [0])
        let bytes = Ticks.bytes(maximum: 724 * 1_048_576)
        #expect(bytes.first == 0)
        #expect(bytes.allSatisfy { $0 % (1_048_576) == 0 })
        #expect(bytes.count >= 4 && bytes.count <= 9)
        // Gigabytes step in round binary numbers: 0, 2, 4, 6, 8 GB, never 1.95 GB.
        let gb: Int64 = 1_073_741_824
        #expect(Ticks.bytes(maximum: 8 * gb + gb / 2) == [0, 2 * gb, 4 * gb, 6 * gb, 8 * gb])
        #expect(Ticks.bytes(maximum: 2 * gb).allSatisfy { $0 % (gb / 4) == 0 })
    }

    @Test func timeTicksUseRoundSteps() {
        let hour: Int64 = 3_600_000_000
        #expect(Ticks.time(start: 0, end: hour, count: 8) == (0...6).map { Int64($0) * 600_000_000 })
        let day = Ticks.time(start: 0, end: 24 * hour, count: 10)
        #expect(day.count <= 11)
        #expect(day.allSatisfy { $0 % (3 * hour) == 0 })
        // A zoomed range starts at the first round value inside it.
        let zoomed = Ticks.time(start: 1_500_000, end: 9_000_000, count: 8)
        #expect(zoomed.first == 2_000_000)
        #expect(zoomed.allSatisfy { $0 >= 1_500_000 && $0 <= 9_000_000 })
    }

    @Test func coordinatesHaveOneDecimalAtMost() {
        #expect(HTMLText.coordinate(12) == "12")
        #expect(HTMLText.coordinate(12.25) == "12.3")
        #expect(HTMLText.coordinate(-3.24) == "-3.2")
        #expect(HTMLText.coordinate(-0.04) == "0")
        #expect(HTMLText.escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        #expect(HTMLText.embeddable("{\"n\":\"</script>\"}") == "{\"n\":\"\\u003c/script>\"}")
    }
}
