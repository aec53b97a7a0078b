import FlyingFox
import FlyingSocks
import Foundation
import MemprofHTML

/// `memprof serve`: a read-only HTTP server over a reports folder, built on FlyingFox.
///
/// `/` (and `/index.html`) is the run index, made afresh from the folder on every request;
/// other paths are files inside the folder as `ReportsSite` decides, sent by FlyingFox's
/// `FileHTTPHandler`. Only GET and HEAD are answered (405 otherwise).
public final class ReportServer: Sendable {
    public let site: ReportsSite
    public let host: String
    private let server: HTTPServer

    /// A server for `directory` that will listen on `host:port` (port 0 picks a free port).
    public init(directory: URL, host: String = "127.0.0.1", port: UInt16 = 8080) throws {
        let site = try ReportsSite(root: directory)
        self.site = site
        self.host = host
        let address: any SocketAddress = host.contains(":")
            ? try sockaddr_in6.inet6(ip6: host, port: port)
            : try sockaddr_in.inet(ip4: host == "localhost" ? "127.0.0.1" : host, port: port)
        let config = HTTPServer.Configuration(address: address, timeout: 15, logger: .disabled)
        server = HTTPServer(config: config, handler: ReportsHandler(site: site))
    }

    /// Listens and serves until `stop()` is called or the task is cancelled.
    public func run() async throws {
        try await server.run()
    }

    public func waitUntilListening(timeout: TimeInterval = 5) async throws {
        try await server.waitUntilListening(timeout: timeout)
    }

    /// The port the server listens on, once it does.
    public var port: UInt16? {
        get async {
            switch await server.listeningAddress {
            case .ip4(_, let port), .ip6(_, let port): port
            default: nil
            }
        }
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        await server.stop(timeout: 1)
    }
}

/// Answers requests for a `ReportsSite`.
struct ReportsHandler: HTTPHandler {
    let site: ReportsSite

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.text(.methodNotAllowed, "read-only: GET and HEAD only\n", headers: [HTTPHeader("Allow"): "GET, HEAD"])
        }
        switch site.answer(rawPath: request.target.path(percentEncoded: true)) {
        case .index:
            let page = RunIndex.render(RunIndex.scan(site.root), title: "memprof runs in \(site.root.lastPathComponent)")
            return HTTPResponse(statusCode: .ok,
                                headers: HTTPHeaders([.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]),
                                body: request.method == .HEAD ? Data() : Data(page.utf8))
        case .file(let url, let contentType):
            return try await FileHTTPHandler(path: url, contentType: contentType, cacheControl: [.noStore])
                .handleRequest(request)
        case .notFound:
            return Self.text(.notFound, "404 not found\n")
        case .forbidden:
            return Self.text(.forbidden, "403 forbidden: outside the served folder\n")
        }
    }

    static func text(_ status: HTTPStatusCode, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all = headers
        all[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: all, body: Data(body.utf8))
    }
}
