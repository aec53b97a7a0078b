import MemprofCore
import NIOCore
import NIOEmbedded
import Testing
@testable import MemprofServe

/// What the handler after a ``RequestGuard`` received: the bytes passed on, the refusal.
final class GuardOutput: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    var bytes: [UInt8] = []
    var refusal: RequestRefusal?
    var errors = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let refused = event as? RequestRefusal { refusal = refused }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { errors += 1 }
}

/// `input` through a guard in an embedded channel, in pieces cut at `cuts`.
func guarded(_ input: [UInt8], cuts: [Int], limits: RequestLimits = RequestLimits(),
             wait: TimeAmount? = nil) throws -> GuardOutput {
    let channel = EmbeddedChannel()
    let output = GuardOutput()
    try channel.pipeline.syncOperations.addHandlers([RequestGuard(limits: limits), output])
    var start = 0
    for cut in (cuts.filter { $0 > 0 && $0 < input.count }.sorted() + [input.count]) where cut > start {
        var buffer = channel.allocator.buffer(capacity: cut - start)
        buffer.writeBytes(input[start..<cut])
        try channel.writeInbound(buffer)
        start = cut
    }
    if let wait { channel.embeddedEventLoop.advanceTime(by: wait) }
    _ = try? channel.finish()
    return output
}

extension SeededGenerator {
    /// A whole number in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}

@Suite struct RequestGuardTests {
    /// Requests within the limits, several on one connection, some with bodies.
    static func validRequests(_ random: inout SeededGenerator) -> [UInt8] {
        var text = ""
        for _ in 0...random.below(3) {
            let method = ["GET", "HEAD", "POST", "PUT"][random.below(4)]
            text += "\(method) /\(String(repeating: "p", count: random.below(2000))) HTTP/1.\(random.below(2))\r\n"
            for field in 0..<random.below(20) {
                text += "X-\(field): \(String(repeating: "v", count: random.below(500)))\r\n"
            }
            if method == "POST" || method == "PUT" {
                let body = String(repeating: "b", count: random.below(3000))
                text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            } else {
                text += "\r\n"
            }
        }
        return Array(text.utf8)
    }

    static func cuts(_ random: inout SeededGenerator, count: Int) -> [Int] {
        (0..<random.below(12)).map { _ in random.below(count + 1) }
    }

    @Test func requestsWithinTheLimitsPassUnchangedHoweverTheyArrive() throws {
        var random = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let input = Self.validRequests(&random)
            let output = try guarded(input, cuts: Self.cuts(&random, count: input.count))
            #expect(output.refusal == nil)
            #expect(output.errors == 0)
            #expect(output.bytes == input)
        }
    }

    /// Mutated requests: whatever the bytes and however they are cut, the guard does not crash,
    /// passes on no more than it got, and decides the same way (what it passed on before a
    /// refusal depends on the pieces: a piece with a breach is not passed on).
    @Test func mutatedRequestsAreDecidedTheSameWayHoweverTheyArrive() throws {
        var random = SeededGenerator(seed: 505)
        let pieces: [[UInt8]] = [Array("\r\n".utf8), Array("\n".utf8), Array(" ".utf8), Array("HTTP/9.9".utf8),
                                 Array("Content-Length: 12\r\n".utf8), Array("Transfer-Encoding: chunked\r\n".utf8),
                                 [UInt8](repeating: UInt8(ascii: "a"), count: 9000), [0, 255, 13]]
        for _ in 0..<400 {
            var input = Self.validRequests(&random)
            for _ in 0...random.below(4) {
                let at = random.below(input.count + 1)
                switch random.below(3) {
                case 0: input.insert(contentsOf: pieces[random.below(pieces.count)], at: at)
                case 1: if at < input.count { input[at] = UInt8(truncatingIfNeeded: random.next()) }
                default: if at < input.count { input.removeSubrange(at..<min(input.count, at + random.below(40))) }
                }
            }
            let whole = try guarded(input, cuts: [])
            let pieced = try guarded(input, cuts: Self.cuts(&random, count: input.count))
            #expect(whole.bytes.count <= input.count)
            #expect(pieced.bytes.count <= input.count)
            #expect(pieced.refusal == whole.refusal)
            if whole.refusal == nil { #expect(pieced.bytes == whole.bytes) }
            #expect((whole.refusal == nil) == (whole.errors == 0))
        }
    }

    @Test func eachLimitGetsItsStatus() throws {
        func status(_ text: String, wait: TimeAmount? = nil) throws -> Int? {
            var limits = RequestLimits()
            limits.requestTimeout = .seconds(3)
            let bytes = Array(text.utf8)
            return try guarded(bytes, cuts: [bytes.count / 2], limits: limits, wait: wait).refusal.map { Int($0.status.code) }
        }
        let a = { (n: Int) in String(repeating: "a", count: n) }
        // "GET /" and " HTTP/1.1" are 14 of the request line's 8192 bytes.
        #expect(try status("GET /\(a(8178)) HTTP/1.1\r\n\r\n") == nil)
        #expect(try status("GET /\(a(8179)) HTTP/1.1\r\n\r\n") == 414)
        #expect(try status("GET /\(a(100_000))") == 414)
        #expect(try status("GET / HTTP/1.1\r\nX: \(a(32_000))\r\n\r\n") == nil)
        #expect(try status("GET / HTTP/1.1\r\nX: \(a(33_000))\r\n\r\n") == 431)
        #expect(try status("GET / HTTP/1.1\r\n" + (0..<100).map { "X\($0): 1\r\n" }.joined() + "\r\n") == nil)
        #expect(try status("GET / HTTP/1.1\r\n" + (0..<101).map { "X\($0): 1\r\n" }.joined() + "\r\n") == 431)
        #expect(try status("GET / HTTP/9.9\r\n\r\n") == 505)
        #expect(try status("GET / HTTP/1.0\r\n\r\n") == nil)
        #expect(try status("POST / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n") == 413)
        #expect(try status("POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n") == 400)
        #expect(try status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 501)
        #expect(try status("GET / HTTP/1.1\r\nX: stalled", wait: .seconds(2)) == nil)
        #expect(try status("GET / HTTP/1.1\r\nX: stalled", wait: .seconds(4)) == 408)
        #expect(try status("GET / HTTP/1.1\r\n\r\n", wait: .seconds(4)) == nil)
    }
}
