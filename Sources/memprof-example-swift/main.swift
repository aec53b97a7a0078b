// An example Swift program for memprof's `work: {command: ...}` (spec §8.1): the same known
// allocations as memprof-example-c, through the Swift runtime (swift_slowAlloc → malloc).
//
//   memprof-example-swift   holdBlocks: 40 MiB in 256 KiB blocks, a quarter freed;
//                           leakSmallPieces: 5 MiB in 1 KiB pieces never freed; the rest freed

let blockSize = 256 * 1024
let blockCount = 40 * 1024 * 1024 / blockSize

/// Allocates 40 MiB in 256 KiB blocks, touches them, and frees every fourth one.
@inline(never)
func holdBlocks() -> [UnsafeMutableRawPointer?] {
    var held = [UnsafeMutableRawPointer?](repeating: nil, count: blockCount)
    for index in 0..<blockCount {
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: blockSize)
        held[index] = block
    }
    for index in stride(from: 0, to: blockCount, by: 4) {
        held[index]?.deallocate()
        held[index] = nil
    }
    return held
}

/// Leaks 5 MiB in 1 KiB pieces.
@inline(never)
func leakSmallPieces() {
    var previous: UnsafeMutableRawPointer?
    for _ in 0..<(5 * 1024) {
        let piece = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 16)
        piece.storeBytes(of: previous, as: UnsafeMutableRawPointer?.self)
        previous = piece
    }
    withExtendedLifetime(previous) {}
}

@inline(never)
func releaseBlocks(_ held: [UnsafeMutableRawPointer?]) {
    for block in held { block?.deallocate() }
}

let held = holdBlocks()
leakSmallPieces()
releaseBlocks(held)
