import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import MemprofHTML
import NIOCore
import ServiceLifecycle
import Synchronization

/// `memprof serve`: a read-only HTTP server over a reports folder, built on Hummingbird.
///
/// `/` (and `/index.html`) is the run index of the folder as it is at the request; each run's
/// report.json is read once and again only when it changes (`RunIndexCache`);
/// other paths are files inside the folder as `ReportsSite` decides, streamed by Hummingbird's
/// `FileIO`. Only GET and HEAD are answered (405 otherwise). At most `limits.connections` are
/// served at once (by default what the open-file limit leaves), so accepting never fails for
/// want of a descriptor; more wait to be accepted. Every connection starts with a
/// `RequestGuard`: a request beyond ``RequestLimits`` is refused at once (414, 431, 413, 505,
/// 408, 501), before NIO's HTTP parser or the site sees it.
public final class ReportServer: Sendable {
    public let site: ReportsSite
    public let host: String
    public let limits: RequestLimits
    private let requestedPort: Int
    private let state = Mutex(RunState())
    private let index: RunIndexCache

    private struct RunState {
        var port: UInt16?
        var group: ServiceGroup?
        var stopRequested = false
    }

    /// A server for `directory` that will listen on `host:port` (port 0 picks a free port).
    public init(directory: URL, host: String = "127.0.0.1", port: UInt16 = 8080, limits: RequestLimits = RequestLimits()) throws {
        site = try ReportsSite(root: directory)
        index = RunIndexCache(root: site.root, title: "memprof runs in \(site.root.lastPathComponent)")
        self.host = host
        self.limits = limits
        requestedPort = Int(port)
    }

    /// Listens and serves until `stop()` is called, or, with `stopOnSignals`, until SIGINT or
    /// SIGTERM; then stops gracefully (answers in progress are finished) and returns.
    /// `onListening` is called with the port once the server listens.
    public func run(stopOnSignals: Bool = false, onListening: @escaping @Sendable (UInt16) -> Void = { _ in }) async throws {
        let quiet = Logger(label: "memprof-serve", factory: { _ in SwiftLogNoOpLogHandler() })
        let limits = limits
        let app = Application(
            responder: ReportsResponder(site: site, index: index),
            server: HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, limits: limits) },
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: requestedPort), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.connections ?? {
                    let descriptors = RequestLimits.fileDescriptors()
                    return RequestLimits.connectionsAllowed(fileLimit: descriptors.limit, open: descriptors.open)
                }())),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port.flatMap { UInt16(exactly: $0) }
                self.state.withLock { $0.port = port }
                if let port { onListening(port) }
            },
            logger: quiet
        )
        let group = ServiceGroup(configuration: .init(
            services: [app], gracefulShutdownSignals: stopOnSignals ? [.sigint, .sigterm] : [], logger: quiet))
        let stopAlready = state.withLock { state in
            state.group = group
            return state.stopRequested
        }
        if stopAlready { return }
        try await group.run()
    }

    /// Waits until the server listens, or throws after `timeout` seconds.
    public func waitUntilListening(timeout: TimeInterval = 5) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while await port == nil {
            guard Date() < deadline else { throw SiteError(description: "the server did not start listening within \(Int(timeout)) s") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// The port the server listens on, once it does.
    public var port: UInt16? {
        get async { state.withLock { $0.port } }
    }

    /// Stops listening; `run()` returns once the answers in progress are finished.
    public func stop() async {
        let group = state.withLock { state in
            state.stopRequested = true
            return state.group
        }
        await group?.triggerGracefulShutdown()
    }
}

/// Hummingbird's HTTP/1 channel with a ``RequestGuard`` in front of its HTTP parser and a
/// ``RefusalWriter`` after it. NIO's own limits are set above the guard's, as a second line.
struct GuardedHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel
    let limits: RequestLimits

    init(responder: @escaping HTTPChannelHandler.Responder, limits: RequestLimits) {
        let parserLimit = 2 * max(limits.requestLine, limits.headerBytes)
        http1 = HTTP1Channel(responder: responder, configuration: .init(
            additionalChannelHandlers: [RefusalWriter()],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: parserLimit, maxHeaderListSize: parserLimit,
                                            maxHeaderFieldCount: 10 * limits.headerFields)))
        self.limits = limits
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestGuard(limits: limits), position: .first)
        }.flatMap { http1.setup(channel: channel, logger: logger) }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// Answers requests for a `ReportsSite`.
struct ReportsResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let site: ReportsSite
    let index: RunIndexCache
    let files = FileIO()

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "read-only: GET and HEAD only\n", headers: [.allow: "GET, HEAD"])
        }
        let headOnly = request.method == .head
        switch site.answer(rawPath: request.head.path ?? "/") {
        case .index:
            let page = index.page()
            return Response(status: .ok,
                            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                      .contentLength: String(page.utf8.count)],
                            body: headOnly ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(string: page)))
        case .file(let url, let contentType):
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            guard let size else { return Self.text(.notFound, "404 not found\n") }
            let headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store", .contentLength: String(size)]
            if headOnly || size == 0 { return Response(status: .ok, headers: headers, body: ResponseBody()) }
            return Response(status: .ok, headers: headers, body: try await files.loadFile(path: url.path, context: context))
        case .notFound:
            return Self.text(.notFound, "404 not found\n")
        case .forbidden:
            return Self.text(.forbidden, "403 forbidden: outside the served folder\n")
        }
    }

    static func text(_ status: HTTPResponse.Status, _ body: String, headers: HTTPFields = [:]) -> Response {
        var all = headers
        all[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: all, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
