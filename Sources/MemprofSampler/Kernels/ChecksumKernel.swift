/// CRC-32 (IEEE 802.3) over a buffer: `run` → `checksumBuffer` → `crc32Update`.
public enum ChecksumKernel {
    static let blockSize = 1 << 20
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
    static let block: [UInt8] = WorkInput.bytes(count: blockSize, seed: 0xC0FFEE)

    /// Checksums `bytes` bytes (a 1 MiB block over and over) and returns the last CRC.
    @inline(never)
    public static func run(bytes: Int64) -> UInt32 {
        var remaining = max(bytes, 0)
        var crc: UInt32 = 0
        while remaining > 0 {
            let count = Int(min(remaining, Int64(blockSize)))
            crc = block.withUnsafeBufferPointer { checksumBuffer(UnsafeBufferPointer(rebasing: $0[..<count]), seed: crc) }
            remaining -= Int64(count)
        }
        return WorkInput.keep(crc)
    }

    /// CRC of a buffer, fed to `crc32Update` in 64 KiB chunks.
    @inline(never)
    static func checksumBuffer(_ buffer: UnsafeBufferPointer<UInt8>, seed: UInt32) -> UInt32 {
        var crc = seed
        var start = 0
        while start < buffer.count {
            let end = min(start + 65_536, buffer.count)
            crc = crc32Update(crc, UnsafeBufferPointer(rebasing: buffer[start..<end]))
            start = end
        }
        return WorkInput.keep(crc)
    }

    @inline(never)
    static func crc32Update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var value = ~crc
            for byte in bytes {
                value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
            }
            return ~value
        }
    }
}
