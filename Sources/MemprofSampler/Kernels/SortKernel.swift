/// Sorts records by (group, score, key): `run` → `sortRecords` → the standard library's sort →
/// `recordPrecedes`.
public enum SortKernel {
    struct Record {
        var key: UInt64
        var group: UInt32
        var id: UInt32
        var score: Double
    }

    static let maximumCount = 1 << 16
    static let records: [Record] = {
        var generator = WorkInput.Generator(seed: 0x50F7)
        return (0..<maximumCount).map { index in
            Record(
                key: generator.next(), group: UInt32(generator.next() % 64), id: UInt32(index),
                score: Double(generator.next() % 1_000_000) / 1000)
        }
    }()

    /// Sorts copies of up to 65,536 records until `bytes` bytes of records were sorted; returns
    /// a checksum of the ids in sorted order.
    @inline(never)
    public static func run(bytes: Int64) -> UInt64 {
        var remaining = max(bytes, 0)
        var digest: UInt64 = 0
        let stride = Int64(MemoryLayout<Record>.stride)
        while remaining > 0 {
            let count = Int(max(2, min(remaining / stride, Int64(maximumCount))))
            digest = digest &* 31 &+ sortRecords(records[..<count])
            remaining -= Int64(count) * stride
        }
        return WorkInput.keep(digest)
    }

    @inline(never)
    static func sortRecords(_ input: ArraySlice<Record>) -> UInt64 {
        var copy = Array(input)
        copy.sort(by: recordPrecedes)
        return WorkInput.keep(UInt64(copy[0].id) << 32 | UInt64(copy[copy.count - 1].id))
    }

    @inline(never)
    static func recordPrecedes(_ lhs: Record, _ rhs: Record) -> Bool {
        if lhs.group != rhs.group { return lhs.group < rhs.group }
        if lhs.score != rhs.score { return lhs.score < rhs.score }
        return lhs.key < rhs.key
    }
}
