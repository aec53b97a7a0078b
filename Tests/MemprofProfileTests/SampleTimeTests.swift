import Foundation
import MemprofProfile
import Testing

/// Sample times: each stack says when its samples were taken in simulated time.
@Suite("Sample times")
struct SampleTimeTests {
    static let a = [ProfileFixtures.main, ProfileFixtures.sort]
    static let b = [ProfileFixtures.main, ProfileFixtures.crc]

    static func input(_ times: [[Frame]: [Int64: Int]], counts: [[Frame]: Int]) -> SamplingProfile.HandlerInput {
        var input = SamplingProfile.HandlerInput(app: "A", handler: "fetch", kernel: "sort",
                                                 stacks: counts.map { (frames: $0.key, count: $0.value) })
        input.sampleTimes = times
        return input
    }

    @Test("a fraction of a run's wall time maps onto its simulated interval, in 1/1000 steps")
    func mapping() {
        #expect(SampleTime.bin(fraction: 0) == 0)
        #expect(SampleTime.bin(fraction: 0.4999) == 499)
        #expect(SampleTime.bin(fraction: 1) == 999)
        #expect(SampleTime.bin(fraction: -3) == 0)
        #expect(SampleTime.bin(fraction: .nan) == 0)
        // A 180 s handler from 2 min: step 500 lies at 2m + 90.09 s.
        #expect(SampleTime.time(bin: 500, startUs: 120_000_000, durationUs: 180_000_000) == 120_000_000 + 90_090_000)
        #expect(SampleTime.time(bin: 0, startUs: 0, durationUs: 4_000_000) == 2_000)
        #expect(SampleTime.time(bin: 999, startUs: 0, durationUs: 4_000_000) == 3_998_000)
    }

    @Test("times are kept per stack, sorted, merged with equal stacks and across merged handlers")
    func building() throws {
        let first = Self.input([Self.a: [300: 1, 100: 2], Self.b: [200: 1]], counts: [Self.a: 3, Self.b: 1])
        let second = Self.input([Self.a: [100: 1]], counts: [Self.a: 1])
        let profile = SamplingProfile(sampler: .off, handlers: [first, second])
        let handler = try #require(profile.handlers.first)
        let stackA = try #require(handler.stacks.first { profile.frames(of: $0) == Self.a })
        #expect(stackA.count == 4)
        #expect(stackA.times == [SampleTime(atUs: 100, count: 3), SampleTime(atUs: 300, count: 1)])
        let stackB = try #require(handler.stacks.first { profile.frames(of: $0) == Self.b })
        #expect(stackB.times == [SampleTime(atUs: 200, count: 1)])
        // Stacks that become equal keep all their times.
        let merged = profile.mappingStacks { _ in [ProfileFixtures.main] }
        #expect(merged.handlers[0].stacks.first?.times
            == [SampleTime(atUs: 100, count: 3), SampleTime(atUs: 200, count: 1), SampleTime(atUs: 300, count: 1)])
    }

    @Test("times round-trip through JSON as [atUs, count] pairs; bad ones are refused")
    func coding() throws {
        let profile = SamplingProfile(sampler: .off, handlers: [Self.input([Self.a: [7: 2]], counts: [Self.a: 2])])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // `times` last in its stack, after a comma
        let data = try encoder.encode(profile)
        #expect(String(decoding: data, as: UTF8.self).contains(",\"times\":[[7,2]]"))
        #expect(try JSONDecoder().decode(SamplingProfile.self, from: data) == profile)
        let text = String(decoding: data, as: UTF8.self)
        for bad in ["[[7,3]]", "[[7,1],[5,1]]", "[[7,0]]", "[[-1,2]]", "[[7]]", "[[7,1,1]]"] {
            let corrupt = Data(text.replacingOccurrences(of: "[[7,2]]", with: bad).utf8)
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(SamplingProfile.self, from: corrupt) }
        }
        // A profile of an older memprof, without times, still reads.
        let old = Data(text.replacingOccurrences(of: ",\"times\":[[7,2]]", with: "").utf8)
        #expect(old.count < data.count)
        #expect(try JSONDecoder().decode(SamplingProfile.self, from: old).handlers[0].stacks[0].times == nil)
    }
}
