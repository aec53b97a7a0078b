import Foundation

/// JSON encode and decode of records with Foundation's coders:
/// `run` → `roundTrip` → `encodeRecords` / `decodeRecords`.
public enum JSONKernel {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        var score: Double
        var active: Bool
    }

    static let records: [Record] = {
        var generator = WorkInput.Generator(seed: 0x1503)
        return (0..<400).map { index in
            Record(
                id: index, name: "record-\(generator.next() % 100_000)",
                tags: (0..<3).map { _ in WorkInput.words[Int(generator.next() % UInt64(WorkInput.words.count))] },
                score: Double(generator.next() % 10_000) / 100, active: generator.next() & 1 == 0)
        }
    }()
    /// Size of `records` as JSON, measured once.
    static let encodedSize: Int = (try? JSONEncoder().encode(records).count) ?? 40_000

    /// Encodes and decodes records until `bytes` bytes of JSON went through; returns the count
    /// of records decoded.
    @inline(never)
    public static func run(bytes: Int64) -> Int {
        var remaining = max(bytes, 0)
        var decoded = 0
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        while remaining > 0 {
            let fraction = min(1, Double(remaining) / Double(encodedSize))
            let count = max(1, Int(Double(records.count) * fraction))
            decoded += roundTrip(records[..<count], encoder: encoder, decoder: decoder)
            remaining -= Int64(max(1, encodedSize * count / records.count))
        }
        return WorkInput.keep(decoded)
    }

    @inline(never)
    static func roundTrip(_ records: ArraySlice<Record>, encoder: JSONEncoder, decoder: JSONDecoder) -> Int {
        let data = encodeRecords(Array(records), encoder: encoder)
        let back = decodeRecords(data, decoder: decoder)
        return WorkInput.keep(back.count)
    }

    @inline(never)
    static func encodeRecords(_ records: [Record], encoder: JSONEncoder) -> Data {
        (try? encoder.encode(records)) ?? Data()
    }

    @inline(never)
    static func decodeRecords(_ data: Data, decoder: JSONDecoder) -> [Record] {
        (try? decoder.decode([Record].self, from: data)) ?? []
    }
}
