import Foundation
import MemprofProfile
import Testing

@Suite("Sampling profile model")
struct SamplingProfileTests {
    @Test("handlers sort by app then handler; equal stacks merge; most frequent first")
    func canonicalOrder() throws {
        let profile = ProfileFixtures.profile()
        #expect(profile.handlers.map(\.app) == ["Mail", "Photos"])
        let mail = profile.handlers[0]
        #expect(mail.stacks.map(\.count) == [8, 2, 2])
        #expect(mail.samples == 12)
        #expect(mail.droppedSamples == 2)
        #expect(profile.frames(of: mail.stacks[0]).map(\.name).last == ProfileFixtures.crc.name)
        // Ties are broken by the frames' names, so the order never depends on hashing.
        #expect(profile.frames(of: mail.stacks[1]).map(\.name)[1] == ProfileFixtures.awkward.name)
        #expect(profile.sampleCount == 17)
        #expect(profile.hasSamples)
    }

    @Test("frames are numbered by first appearance and shared across handlers")
    func frameTable() {
        let profile = ProfileFixtures.profile()
        #expect(profile.frames.first == ProfileFixtures.main)
        #expect(Set(profile.frames).count == profile.frames.count)
        #expect(profile.handlers[1].stacks[0].frames[0] == 0)
    }

    @Test("the same handler given twice is merged, kernels joined")
    func mergesHandlers() {
        let profile = SamplingProfile(
            sampler: .off,
            handlers: [
                .init(app: "A", handler: "push", kernel: "sort", runs: 1, wallMicroseconds: 10,
                      stacks: [(frames: [ProfileFixtures.sort], count: 1)]),
                .init(app: "A", handler: "push", kernel: "json", runs: 2, wallMicroseconds: 5,
                      stacks: [(frames: [ProfileFixtures.sort], count: 3)]),
            ])
        #expect(profile.handlers.count == 1)
        #expect(profile.handlers[0].kernel == "json,sort")
        #expect(profile.handlers[0].runs == 3)
        #expect(profile.handlers[0].wallMicroseconds == 15)
        #expect(profile.handlers[0].stacks == [Stack(frames: [0], count: 4)])
    }

    @Test("Codable round trip gives equal values and identical bytes")
    func codableRoundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let profile = ProfileFixtures.profile()
        let data = try encoder.encode(profile)
        let decoded = try JSONDecoder().decode(SamplingProfile.self, from: data)
        #expect(decoded == profile)
        #expect(try encoder.encode(decoded) == data)
        #expect(try encoder.encode(ProfileFixtures.profile()) == data)
    }

    @Test("a newer format version is refused; bad frame indices are refused")
    func refusesUnknown() throws {
        let encoder = JSONEncoder()
        var object = try #require(
            JSONSerialization.jsonObject(with: encoder.encode(ProfileFixtures.profile())) as? [String: Any])
        object["formatVersion"] = SamplingProfile.formatVersion + 1
        #expect(throws: UnsupportedProfileVersion.self) {
            try JSONDecoder().decode(SamplingProfile.self, from: JSONSerialization.data(withJSONObject: object))
        }
        var broken = ProfileFixtures.profile()
        broken.handlers[0].stacks[0].frames.append(999)
        let data = try encoder.encode(broken)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SamplingProfile.self, from: data) }
    }

    @Test("a run without sampling has no samples")
    func off() {
        let profile = SamplingProfile(sampler: .off, handlers: [])
        #expect(!profile.hasSamples)
        #expect(profile.makeFoldedStacks().isEmpty)
        #expect(profile.sampler.clock == "off")
    }
}
