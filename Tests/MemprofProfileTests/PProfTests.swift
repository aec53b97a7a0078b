import Foundation
import Testing
@testable import MemprofProfile

/// A minimal protobuf reader, enough to check the fields memprof writes.
struct ProtoReader {
    enum Value {
        case varint(UInt64)
        case bytes([UInt8])
    }

    static func fields(_ bytes: [UInt8]) throws -> [(field: Int, value: Value)] {
        var result: [(Int, Value)] = []
        var i = 0
        func varint() throws -> UInt64 {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard i < bytes.count else { throw CocoaError(.coderReadCorrupt) }
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return v }
                shift += 7
            }
        }
        while i < bytes.count {
            let key = try varint()
            switch key & 7 {
            case 0: result.append((Int(key >> 3), .varint(try varint())))
            case 2:
                let n = Int(try varint())
                guard i + n <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
                result.append((Int(key >> 3), .bytes(Array(bytes[i..<(i + n)]))))
                i += n
            default: throw CocoaError(.coderReadCorrupt)
            }
        }
        return result
    }

    static func packed(_ bytes: [UInt8]) throws -> [UInt64] {
        var values: [UInt64] = []
        var i = 0
        while i < bytes.count {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { break }
                shift += 7
            }
            values.append(v)
        }
        return values
    }
}

@Suite struct PProfTests {
    @Test func profileProtoHasTheStringTableSamplesLocationsAndLabels() throws {
        let profile = ProfileFixtures.profile()
        let fields = try ProtoReader.fields(Array(profile.makePProfProto()))
        let strings: [String] = fields.compactMap {
            guard $0.field == 6, case .bytes(let b) = $0.value else { return nil }
            return String(decoding: b, as: UTF8.self)
        }
        #expect(strings.first == "")
        #expect(Set(strings).count == strings.count, "each string once")
        for name in ["samples", "count", "cpu", "nanoseconds", "app", "handler", "kernel", "Mail", "Photos", "fetch",
                     "backgroundTask", "main", "MemprofSampler.ChecksumKernel.crc32Update(_:_:)"] {
            #expect(strings.contains(name), "\(name) missing from the string table")
        }
        let locations = fields.filter { $0.field == 4 }.count
        let functions = fields.filter { $0.field == 5 }.count
        #expect(locations == profile.frames.count)
        #expect(functions == profile.frames.count)

        // Samples: one per distinct stack; leaf first; values [count, count × period]; three labels.
        let samples = fields.filter { $0.field == 2 }
        let stacks = profile.handlers.flatMap(\.stacks)
        #expect(samples.count == stacks.count)
        var total: UInt64 = 0
        for case .bytes(let body) in samples.map(\.value) {
            let parts = try ProtoReader.fields(body)
            guard case .bytes(let ids)? = parts.first(where: { $0.field == 1 })?.value,
                  case .bytes(let values)? = parts.first(where: { $0.field == 2 })?.value else {
                Issue.record("sample without locations or values"); continue
            }
            let locationIDs = try ProtoReader.packed(ids)
            #expect(locationIDs.allSatisfy { $0 >= 1 && $0 <= UInt64(profile.frames.count) })
            // The root frame of every fixture stack is `main`: last in pprof's leaf-first order.
            #expect(profile.frames[Int(locationIDs.last! - 1)].name == "main")
            let counts = try ProtoReader.packed(values)
            #expect(counts.count == 2)
            // 990.5 Hz achieved → a period of round(1e9 / 990.5) = 1,009,591 ns per sample.
            #expect(counts[1] == counts[0] * 1_009_591)
            total += counts[0]
            #expect(parts.filter { $0.field == 3 }.count == 3)
        }
        #expect(total == UInt64(profile.sampleCount))
    }
}
