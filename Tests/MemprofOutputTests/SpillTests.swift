import Foundation
import MemprofOutput
import Testing

/// Streams kept in a scratch file and read back: what goes in comes out, in order,
/// whether read block by block (all at the end, or while the stream is still written) or written
/// straight into a writer.
@Suite struct SpillTests {
    /// A stream of `count` records of a few dozen bytes, and the text they make.
    private static func filled(_ count: Int, spill: SpillFile?, blockSize: Int) throws -> (SpillStream, [UInt8]) {
        var stream = SpillStream(blockSize: blockSize)
        var expected: [UInt8] = []
        for n in 0..<count {
            let text = "{\"n\":\(n),\"text\":\"\(String(repeating: "x", count: n % 37))\"},"
            stream.out.rawText(text)
            expected += Array(text.utf8)
            try stream.flush(to: spill)
        }
        return (stream, expected)
    }

    @Test(arguments: [false, true])
    func aStreamWrittenIntoAWriterIsWhatWentIn(spilled: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spill = spilled ? try SpillFile(in: directory, for: directory) : nil
        let (stream, expected) = try Self.filled(60_000, spill: spill, blockSize: 4096)
        // Handed on in pieces of a megabyte or more, but for the last.
        var out = JSONWriter()
        var written: [UInt8] = []
        var pieces: [Int] = []
        try stream.write(into: &out, spill) { out in
            pieces.append(out.count)
            written += out.bytes
            out.removeAll()
        }
        written += out.bytes
        #expect(written == expected)
        #expect(pieces.count >= 2 && pieces.allSatisfy { $0 >= 1 << 20 })
    }

    @Test(arguments: [false, true])
    func aStreamReadBlockByBlockIsWhatWentIn(spilled: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spill = spilled ? try SpillFile(in: directory, for: directory) : nil
        let (stream, expected) = try Self.filled(5_000, spill: spill, blockSize: 1000)
        var read: [UInt8] = []
        var blocks = 0
        try stream.forEachBlock(spill) { block in
            read += block
            blocks += 1
        }
        #expect(read == expected)
        #expect(blocks > 100)
        // Blocks follow each other in the file: it holds what was moved out, no more.
        #expect(spill.map { $0.size == Int64(stream.byteCount - stream.out.count) } ?? true)
    }

    @Test func aSpilledStreamReadWhileWrittenIsWhatWentIn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spill = try SpillFile(in: directory, for: directory)
        var stream = SpillStream(blockSize: 500)
        var expected: [UInt8] = []
        var read: [UInt8] = []
        var block: [UInt8] = []
        for n in 0..<20_000 {
            let text = "[\(n)],"
            stream.out.rawText(text)
            expected += Array(text.utf8)
            try stream.flush(to: spill)
            if n % 777 == 0 {
                while try stream.nextBlock(spill, into: &block) { read += block }
            }
        }
        while try stream.nextBlock(spill, into: &block) { read += block }
        read += stream.out.bytes
        #expect(read == expected)
    }
}
