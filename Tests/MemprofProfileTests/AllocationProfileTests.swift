import Foundation
import Testing
@testable import MemprofProfile

/// Allocation profiles of programs (spec §8.1): merging runs, and their folded, speedscope and
/// pprof forms.
@Suite struct AllocationProfileTests {
    static let main = Frame(name: "main", module: "sync", file: "main.c", line: 10)
    static let hold = Frame(name: "hold", module: "sync", file: "main.c", line: 20)
    static let leak = Frame(name: "leak", module: "sync", file: "main.c", line: 30)

    static func run(peak: Int64, holdPeak: Int64) -> SamplingProfile.AllocationInput {
        func stack(_ allocated: Int64, _ peak: Int64, _ leaked: Int64) -> AllocationStack {
            AllocationStack(frames: [], allocatedBytes: allocated, allocations: 2, peakBytes: peak,
                            leakedBytes: leaked, leakedBlocks: leaked > 0 ? 1 : 0)
        }
        return .init(
            totals: AllocationProfile(allocatedBytes: 150, allocations: 4, peakBytes: peak, leakedBytes: 50,
                                      leakedBlocks: 1, stacks: []),
            stacks: [([main, hold], stack(100, holdPeak, 0)), ([main, leak], stack(50, peak - holdPeak, 50))])
    }

    static func profile() -> SamplingProfile {
        var first = SamplingProfile.HandlerInput(app: "mail", handler: "fetch", kernel: "sync", stacks: [])
        first.allocations = run(peak: 120, holdPeak: 100)
        var second = SamplingProfile.HandlerInput(app: "mail", handler: "fetch", kernel: "sync", stacks: [])
        second.allocations = run(peak: 80, holdPeak: 30)
        return SamplingProfile(sampler: .off, handlers: [first, second])
    }

    @Test func runsAddUpAndThePeakIsTheHighestRunsWithItsStacks() throws {
        let profile = Self.profile()
        let allocations = try #require(profile.handlers.first?.allocations)
        #expect(allocations.allocatedBytes == 300 && allocations.allocations == 8)
        #expect(allocations.peakBytes == 120 && allocations.leakedBytes == 100 && allocations.leakedBlocks == 2)
        // Most allocated first; at the peak, the first run's stacks only (100 + 20 = 120).
        #expect(allocations.stacks.map { profile.frames(of: $0).last?.name } == ["hold", "leak"])
        #expect(allocations.stacks.map(\.peakBytes) == [100, 20])
        #expect(allocations.stacks.map(\.allocatedBytes) == [200, 100])
        let decoded = try JSONDecoder().decode(SamplingProfile.self, from: JSONEncoder().encode(profile))
        #expect(decoded == profile)
    }

    @Test func eachMetricHasItsFoldedLinesAndSpeedscopeProfile() throws {
        let profile = Self.profile()
        #expect(profile.makeFoldedStacks(of: .allocatedBytes) == "mail;fetch;main;hold 200\nmail;fetch;main;leak 100\n")
        #expect(profile.makeFoldedStacks(of: .peakBytes) == "mail;fetch;main;hold 100\nmail;fetch;main;leak 20\n")
        #expect(profile.makeFoldedStacks(of: .leakedBytes) == "mail;fetch;main;leak 100\n")
        #expect(profile.makeFoldedStacks() == "")
        let json = try JSONSerialization.jsonObject(with: profile.makeSpeedscopeJSON()) as? [String: Any]
        let names = (json?["profiles"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.count == 5 && names.contains("mail · fetch (sync) · bytes in use at the peak"))
    }

    @Test func pprofHasTheAllocationSampleTypes() throws {
        let fields = try ProtoReader.fields(Array(Self.profile().makePProfProto()))
        let strings = fields.compactMap { field -> String? in
            guard field.field == 6, case .bytes(let bytes) = field.value else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        for name in ["alloc_space", "alloc_objects", "inuse_space", "bytes", "main.c"] {
            #expect(strings.contains(name), "\(name)")
        }
        #expect(fields.filter { $0.field == 1 }.count == 7)  // samples, cpu + five allocation types
        #expect(fields.filter { $0.field == 2 }.count == 2)  // one sample per allocation stack
    }

    /// Go's convention: `inuse_space`/`inuse_objects` are what was still held when the program
    /// ended (its leaks), so `go tool pprof -sample_index=inuse_space` shows them; the peak has
    /// its own type, `peak_space`.
    @Test func pprofInUseIsWhatWasHeldAtTheEndAndThePeakHasItsOwnType() throws {
        let fields = try ProtoReader.fields(Array(Self.profile().makePProfProto()))
        let strings = fields.compactMap { field -> String? in
            guard field.field == 6, case .bytes(let bytes) = field.value else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        let types = try fields.filter { $0.field == 1 }.map { field -> String in
            guard case .bytes(let bytes) = field.value else { throw CocoaError(.coderReadCorrupt) }
            let inner = try ProtoReader.fields(bytes)
            guard case .varint(let type) = try #require(inner.first { $0.field == 1 }).value else { throw CocoaError(.coderReadCorrupt) }
            return strings[Int(type)]
        }
        #expect(types == ["samples", "cpu", "alloc_objects", "alloc_space", "inuse_objects", "inuse_space", "peak_space"])
        // Per allocation stack (hold, then leak): its values in the order of the types.
        let values = try fields.filter { $0.field == 2 }.map { field -> [Int64] in
            guard case .bytes(let bytes) = field.value,
                  case .bytes(let packed) = try #require(try ProtoReader.fields(bytes).first { $0.field == 2 }).value
            else { throw CocoaError(.coderReadCorrupt) }
            var out: [Int64] = [], v: UInt64 = 0, shift: UInt64 = 0
            for b in packed {
                v |= UInt64(b & 0x7F) << shift
                shift += 7
                if b < 0x80 { out.append(Int64(bitPattern: v)); v = 0; shift = 0 }
            }
            return out
        }
        #expect(values == [[0, 0, 4, 200, 0, 0, 100], [0, 0, 4, 100, 2, 100, 20]])
    }
}
