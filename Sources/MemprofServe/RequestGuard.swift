import Foundation
import MemprofPlatform
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// How much one request may be, and how long it may take to arrive.
public struct RequestLimits: Sendable {
    /// The request line (`GET /path HTTP/1.1`), without its line end: longer is 414.
    public var requestLine = 8 * 1024
    /// All header lines together, with their line ends: more is 431.
    public var headerBytes = 32 * 1024
    /// Header lines: more is 431.
    public var headerFields = 100
    /// A request body (read-only: bodies are skipped): a larger `Content-Length` is 413.
    public var body = 1024 * 1024
    /// From a request's first byte to the end of its head (and body): slower is 408.
    public var requestTimeout: Duration = .seconds(10)
    /// A kept-alive connection with no request under way is closed after this long.
    public var idleTimeout: Duration = .seconds(15)
    /// Connections served at once; more wait in the listen queue until one ends. Nil: what the
    /// open-file limit leaves (``connectionsAllowed(fileLimit:open:)``), so the server never
    /// meets that limit when it accepts (where SwiftNIO would retry at once, spinning a core,
    /// and answer no one).
    public var connections: Int?

    public init() {}

    /// Connections the server accepts at once: with `open` descriptors already in use (its event
    /// loops, standard streams), half of what the limit leaves after 16 more (a connection's
    /// socket and the file it sends), at least 1 and at most 4,096.
    public static func connectionsAllowed(fileLimit: Int, open: Int) -> Int {
        max(1, min(4096, (fileLimit - open - 16) / 2))
    }

    /// The process's open-file limit (soft) and the descriptors it has open now.
    static func fileDescriptors() -> (limit: Int, open: Int) {
        (FileDescriptors.limit() ?? 1 << 20, FileDescriptors.openCount() ?? 64)
    }
}

/// A request refused by ``RequestGuard``: the status it gets, and why, in words.
struct RequestRefusal: Sendable, Equatable {
    var status: HTTPResponse.Status
    var reason: String
}

/// The first handler of a connection: reads the bytes of each request head as they arrive,
/// before NIO's HTTP parser, and refuses a request that breaks ``RequestLimits`` at once, with
/// the status the limit calls for. NIO's parser has limits too, but answers every breach with a
/// plain 400 after Hummingbird; this guard is what turns them into 414, 431, 505 and 408.
///
/// The request line is held back until it is complete (at most `requestLine` bytes), so the
/// parser never sees an overlong or unsupported one; header bytes pass on as they come and are
/// counted. A `Content-Length` body is passed on and skipped over, so the next request's head is
/// found; a `Transfer-Encoding` body is refused (501), since nothing here reads a body.
///
/// Refusing: the guard stops passing bytes on, tells ``RefusalWriter`` (after the HTTP codec) the
/// status by an inbound user event, and raises an `HTTPParserError`. Hummingbird answers that
/// error, after any response still being written on the connection, with 400 and
/// `Connection: close`; ``RefusalWriter`` turns that 400 into the refusal and closes.
final class RequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        /// Collecting the request line (held back, not yet passed on).
        case requestLine
        /// In the header lines: bytes so far, lines so far, what the lines said of a body.
        case headers(bytes: Int, fields: Int, contentLength: Int?)
        /// Passing on a body, this many bytes still to come.
        case body(remaining: Int)
        /// Refused: everything else the client sends is dropped.
        case refused
    }

    private let limits: RequestLimits
    private var state = State.requestLine
    private var line: [UInt8] = []
    private var timer: Scheduled<Void>?

    init(limits: RequestLimits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        var forwardFrom: Int? = isForwarding ? buffer.readerIndex : nil
        for index in buffer.readerIndex..<buffer.writerIndex {
            if case .refused = state { return }
            let byte = buffer.getInteger(at: index, as: UInt8.self)!
            switch state {
            case .requestLine:
                if timer == nil { startTimer(context: context) }
                if byte == UInt8(ascii: "\n") {
                    if let refusal = acceptRequestLine() { return refuse(refusal, context: context) }
                } else {
                    // One byte over the limit for the line's `\r`, checked again at its end.
                    guard line.count <= limits.requestLine else { return refuse(lineTooLong, context: context) }
                    line.append(byte)
                }
                if case .headers = state {
                    // The line is whole and allowed: pass it on, and what follows as it comes.
                    var whole = context.channel.allocator.buffer(capacity: line.count + 2)
                    whole.writeBytes(line)
                    whole.writeInteger(UInt8(ascii: "\n"))
                    line.removeAll(keepingCapacity: true)
                    context.fireChannelRead(wrapInboundOut(whole))
                    forwardFrom = index + 1
                }
            case .headers(let bytes, let fields, let contentLength):
                if let refusal = headerByte(byte, bytes: bytes, fields: fields, contentLength: contentLength) {
                    return refuse(refusal, context: context)
                }
            case .body(let remaining):
                state = remaining > 1 ? .body(remaining: remaining - 1) : .requestLine
            case .refused:
                return
            }
            if case .requestLine = state, let start = forwardFrom {
                // A request ended at this byte: pass it on; the next request line is held back.
                forward(buffer, from: start, upTo: index + 1, context: context)
                forwardFrom = nil
                requestEnded()
            }
        }
        if let start = forwardFrom { forward(buffer, from: start, upTo: buffer.writerIndex, context: context) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Once refused, the guard drains what the client still sends by itself: the handlers after
        // it no longer ask for reads, and a client blocked in sending would not read the answer.
        if case .refused = state { context.read() }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private var isForwarding: Bool {
        switch state {
        case .headers, .body: true
        case .requestLine, .refused: false
        }
    }

    private func forward(_ buffer: ByteBuffer, from start: Int, upTo end: Int, context: ChannelHandlerContext) {
        guard end > start, let slice = buffer.getSlice(at: start, length: end - start) else { return }
        context.fireChannelRead(wrapInboundOut(slice))
    }

    /// The request line `line` is complete: checks its HTTP version. Empty lines before a
    /// request are skipped (RFC 9112 §2.2).
    private func acceptRequestLine() -> RequestRefusal? {
        let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        if text.isEmpty {
            line.removeAll(keepingCapacity: true)
            return nil
        }
        guard text.count <= limits.requestLine else { return lineTooLong }
        let parts = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        if parts.count == 3, let version = Self.version(parts[2]), version != [1, 0], version != [1, 1] {
            return RequestRefusal(status: .httpVersionNotSupported,
                                  reason: "HTTP/\(version[0]).\(version[1]) is not supported; HTTP/1.1 and HTTP/1.0 are")
        }
        // Anything else malformed is left to NIO's parser, which answers 400.
        state = .headers(bytes: 0, fields: 0, contentLength: nil)
        return nil
    }

    private var lineTooLong: RequestRefusal {
        RequestRefusal(status: .uriTooLong, reason: "the request line is longer than \(limits.requestLine) bytes")
    }

    /// `HTTP/<digit>.<digit>` as its two numbers, or nil when the text is not a version at all.
    private static func version(_ text: ArraySlice<UInt8>) -> [Int]? {
        let bytes = Array(text)
        guard bytes.count == 8, bytes.starts(with: Array("HTTP/".utf8)), bytes[6] == UInt8(ascii: "."),
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[5]),
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[7])
        else { return nil }
        return [Int(bytes[5] - UInt8(ascii: "0")), Int(bytes[7] - UInt8(ascii: "0"))]
    }

    /// One byte of the header lines; the current line is kept in `line` to read `Content-Length`
    /// and `Transfer-Encoding` from (it is bounded by `headerBytes`).
    private func headerByte(_ byte: UInt8, bytes: Int, fields: Int, contentLength: Int?) -> RequestRefusal? {
        let total = bytes + 1
        guard total <= limits.headerBytes else {
            return RequestRefusal(status: .requestHeaderFieldsTooLarge,
                                  reason: "the header lines are longer than \(limits.headerBytes) bytes")
        }
        guard byte == UInt8(ascii: "\n") else {
            line.append(byte)
            state = .headers(bytes: total, fields: fields, contentLength: contentLength)
            return nil
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            // The end of the head.
            if let length = contentLength, length > 0 {
                state = .body(remaining: length)
            } else {
                state = .requestLine
            }
            return nil
        }
        guard fields + 1 <= limits.headerFields else {
            return RequestRefusal(status: .requestHeaderFieldsTooLarge,
                                  reason: "the request has more than \(limits.headerFields) header lines")
        }
        var length = contentLength
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingASCIISpaces
            if name == "transfer-encoding" {
                return RequestRefusal(status: .notImplemented,
                                      reason: "request bodies with a Transfer-Encoding are not read here")
            }
            if name == "content-length" {
                guard length == nil, !value.isEmpty, value.utf8.allSatisfy({ (48...57).contains($0) }),
                      let parsed = Int(value)
                else {
                    return RequestRefusal(status: .badRequest, reason: "Content-Length is not one whole number")
                }
                guard parsed <= limits.body else {
                    return RequestRefusal(status: .contentTooLarge,
                                          reason: "the request body is larger than \(limits.body) bytes")
                }
                length = parsed
            }
        }
        state = .headers(bytes: total, fields: fields + 1, contentLength: length)
        return nil
    }

    private func startTimer(context: ChannelHandlerContext) {
        let timeout = limits.requestTimeout
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            timer = nil
            let seconds = timeout.components.seconds
            refuse(RequestRefusal(status: .requestTimeout, reason: "the request did not arrive within \(seconds) s"),
                   context: context)
        }
    }

    private func requestEnded() {
        timer?.cancel()
        timer = nil
    }

    private func refuse(_ refusal: RequestRefusal, context: ChannelHandlerContext) {
        if case .refused = state { return }
        state = .refused
        requestEnded()
        line = []
        context.fireUserInboundEventTriggered(refusal)
        context.fireErrorCaught(HTTPParserError.headerOverflow)
    }
}

/// After the HTTP codec: answers a request ``RequestGuard`` refused. Hummingbird answers the
/// guard's error with `400`, `Connection: close` and no body, after whatever response is still
/// being written on the connection; this handler turns that answer into the refusal's status
/// with a one-line reason, and closes the connection once it is written.
final class RefusalWriter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a refused connection stays open for the client to read the answer.
    static let linger: TimeAmount = .seconds(2)

    private var refusal: RequestRefusal?
    private var answering = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let refused = event as? RequestRefusal {
            refusal = refused
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where refusal != nil && head.status == .badRequest:
            let refused = refusal!
            let text = "\(refused.status.code) \(refused.status.reasonPhrase.lowercased()): \(refused.reason)\n"
            head.status = refused.status
            head.headerFields[.contentType] = "text/plain; charset=utf-8"
            head.headerFields[.contentLength] = String(text.utf8.count)
            head.headerFields[.connection] = "close"
            answering = true
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: text))), promise: nil)
        case .body where answering:
            // Hummingbird's 400 has no body; the refusal's text was written with its head.
            promise?.succeed(())
        case .end where answering:
            answering = false
            refusal = nil
            context.writeAndFlush(data, promise: promise)
            // Hummingbird closes the output next; what the client still sends is read and dropped
            // by the guard for a moment (a lingering close: closing at once with unread input would
            // reset the connection, and the client could lose the answer), then it is closed.
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) {
                context.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingASCIISpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
