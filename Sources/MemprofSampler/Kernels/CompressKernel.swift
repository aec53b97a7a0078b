/// LZ77 compression with a hash table of 4-byte prefixes and a 64 KiB window, over generated
/// text: `run` → `compressBlock` → `longestMatch` / `emitLiterals`.
public enum CompressKernel {
    static let blockSize = 256 * 1024
    static let text: [UInt8] = WorkInput.text(count: blockSize, seed: 0x5EED)
    static let hashBits = 14
    static let minimumMatch = 4
    static let window = 65_535

    /// Compresses `bytes` bytes of text (a 256 KiB block over and over); returns the total
    /// compressed size.
    @inline(never)
    public static func run(bytes: Int64) -> Int {
        var remaining = max(bytes, 0)
        var total = 0
        var output: [UInt8] = []
        output.reserveCapacity(blockSize + blockSize / 8)
        var table = [Int32](repeating: -1, count: 1 << hashBits)
        while remaining > 0 {
            let count = Int(min(remaining, Int64(blockSize)))
            output.removeAll(keepingCapacity: true)
            total += text.withUnsafeBufferPointer { input in
                table.withUnsafeMutableBufferPointer { table in
                    compressBlock(UnsafeBufferPointer(rebasing: input[..<count]), table: table, into: &output)
                }
            }
            remaining -= Int64(count)
        }
        return WorkInput.keep(total)
    }

    /// Compresses one block into `output` as tokens: a literal run (tag 0, length, bytes) or a
    /// match (tag 1, distance, length). Returns the output size.
    @inline(never)
    static func compressBlock(
        _ input: UnsafeBufferPointer<UInt8>, table: UnsafeMutableBufferPointer<Int32>,
        into output: inout [UInt8]
    ) -> Int {
        for index in table.indices { table[index] = -1 }
        var position = 0
        var literalStart = 0
        while position + minimumMatch <= input.count {
            let hash = hashPrefix(input, at: position)
            let candidate = Int(table[hash])
            table[hash] = Int32(position)
            let length = candidate >= 0 && position - candidate <= window
                ? longestMatch(input, candidate, position) : 0
            if length >= minimumMatch {
                emitLiterals(input, from: literalStart, to: position, into: &output)
                output.append(1)
                appendVarint(UInt32(position - candidate), to: &output)
                appendVarint(UInt32(length), to: &output)
                position += length
                literalStart = position
            } else {
                position += 1
            }
        }
        emitLiterals(input, from: literalStart, to: input.count, into: &output)
        return WorkInput.keep(output.count)
    }

    @inline(__always)
    static func hashPrefix(_ input: UnsafeBufferPointer<UInt8>, at position: Int) -> Int {
        let word = UInt32(input[position]) | UInt32(input[position + 1]) << 8
            | UInt32(input[position + 2]) << 16 | UInt32(input[position + 3]) << 24
        return Int((word &* 2_654_435_761) >> UInt32(32 - hashBits))
    }

    @inline(never)
    static func longestMatch(_ input: UnsafeBufferPointer<UInt8>, _ candidate: Int, _ position: Int) -> Int {
        var length = 0
        let limit = min(input.count - position, 258)
        while length < limit, input[candidate + length] == input[position + length] { length += 1 }
        return length
    }

    @inline(never)
    static func emitLiterals(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8]
    ) {
        guard start < end else { return }
        output.append(0)
        appendVarint(UInt32(end - start), to: &output)
        output.append(contentsOf: input[start..<end])
    }

    @inline(__always)
    static func appendVarint(_ value: UInt32, to output: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }
}
