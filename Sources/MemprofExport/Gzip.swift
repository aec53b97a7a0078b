import CZlib
import Foundation

/// gzip compression through zlib (`deflateInit2` with a gzip header), for pprof files.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "zlib failed to compress (error \(code))" }
    }

    static func compress(_ data: Data) throws -> Data {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer instead of a zlib one.
        var status = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(code: status) }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                status = deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(code: status) }
        return Data(output[0..<produced])
    }
}
