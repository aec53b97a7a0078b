import Foundation
import MemprofPlatform
import Testing
@testable import MemprofServe


/// A served folder with one run, a secret next to it, and symlinks that lead out.
struct Fixture {
    let base: URL
    let root: URL

    init() throws {
        let fm = FileManager.default
        base = fm.temporaryDirectory.appendingPathComponent("memprof-serve-\(UUID().uuidString)")
        root = base.appendingPathComponent("Reports")
        let run = root.appendingPathComponent("phone-day")
        try fm.createDirectory(at: run, withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><p>the report</p>".utf8).write(to: run.appendingPathComponent("report.html"))
        try Data("{\"traceEvents\":[]}".utf8).write(to: run.appendingPathComponent("trace.json"))
        try Data("SECRET-OUTSIDE".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try Data("hidden".utf8).write(to: root.appendingPathComponent(".hidden"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("escape.txt").path,
                                  withDestinationPath: base.appendingPathComponent("secret.txt").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("up").path, withDestinationPath: base.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("inside.html").path,
                                  withDestinationPath: run.appendingPathComponent("report.html").path)
    }

    func remove() { try? FileManager.default.removeItem(at: base) }
}

/// One HTTP/1.1 request over a plain socket, sent byte for byte as given (no client-side path
/// clean-up, unlike URLSession), to 127.0.0.1 only.
func rawRequest(port: UInt16, target: String, method: String = "GET") async throws -> (status: Int, body: String) {
    let request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    let answer = try await exchange(port: port, Array(request.utf8))
    return (answer.status, answer.body)
}

/// What a server answered to bytes sent on one connection: the status (0 when there was no
/// answer), the body, and the seconds from the first byte sent to the end of the answer.
struct Answer {
    var status: Int
    var headers: String
    var body: String
    var seconds: Double
}

/// Sends `bytes` on a new connection to 127.0.0.1:`port` (all of them, unless the server stops
/// reading), then reads until the server closes the connection.
func exchange(port: UInt16, _ bytes: [UInt8]) async throws -> Answer {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return continuation.resume(throwing: POSIXError(.EIO)) }
            defer { close(fd) }
            // Generous: other suites run in parallel, and on a two-core machine their synchronous
            // tests can hold both threads of the cooperative pool, where the in-process server's
            // tasks run, for minutes (a whole run of the tests once kept an answer past 60 s).
            var timeout = timeval(tv_sec: 300, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { return continuation.resume(throwing: POSIXError(.ECONNREFUSED)) }
            let start = DispatchTime.now()
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            var response = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                response.append(contentsOf: buffer[0..<n])
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            let text = String(decoding: response, as: UTF8.self)
            let head = text.range(of: "\r\n\r\n").map { String(text[..<$0.lowerBound]) } ?? text
            let statusLine = head.split(separator: "\r\n", maxSplits: 1).first ?? ""
            let parts = statusLine.split(separator: " ")
            let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
            continuation.resume(returning: Answer(status: status, headers: head, body: body, seconds: seconds))
        }
    }
}

@Suite(.serialized) struct ServeTests {
    @Test func siteDecidesWithoutANetwork() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let site = try ReportsSite(root: fixture.root)
        #expect(site.answer(rawPath: "/") == .index)
        #expect(site.answer(rawPath: "/index.html") == .index)
        guard case .file(let url, let type) = site.answer(rawPath: "/phone-day/report.html") else {
            Issue.record("report.html not served"); return
        }
        #expect(url.lastPathComponent == "report.html")
        #expect(type.hasPrefix("text/html"))
        #expect(site.answer(rawPath: "/phone-day/missing.json") == .notFound)
        #expect(site.answer(rawPath: "/../secret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/%2e%2e/secret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/%2E%2E%2Fsecret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/phone-day/..%5c..%5csecret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/escape.txt") == .forbidden)
        #expect(site.answer(rawPath: "/up/secret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/.hidden") == .notFound)
        if case .file = site.answer(rawPath: "/inside.html") {} else { Issue.record("symlink inside refused") }
        // A symlink that leaves and comes back in lands on a file inside the folder: served.
        if case .file = site.answer(rawPath: "/up/Reports/phone-day/report.html") {} else { Issue.record("round trip refused") }
    }

    /// A `.` segment names the folder it is in, as a browser or curl resolves it; `..` stays refused.
    @Test func dotSegmentsAreTheFolderTheyAreIn() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let site = try ReportsSite(root: fixture.root)
        let plain = site.answer(rawPath: "/phone-day/trace.json")
        guard case .file = plain else { Issue.record("trace.json not served"); return }
        for path in ["/phone-day/./trace.json", "/./phone-day/trace.json", "/phone-day/%2e/trace.json", "/phone-day/././trace.json"] {
            #expect(site.answer(rawPath: path) == plain, "\(path)")
        }
        #expect(site.answer(rawPath: "/./") == .index)
        #expect(site.answer(rawPath: "/phone-day/./../secret.txt") == .forbidden)
        #expect(site.answer(rawPath: "/phone-day/../phone-day/trace.json") == .forbidden)
    }

    @Test func liveServerOnLoopback() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let server = try ReportServer(directory: fixture.root, host: "127.0.0.1", port: 0)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await server.waitUntilListening(timeout: 60)
        let port = try #require(await server.port)
        #expect(port > 0)

        let index = try await rawRequest(port: port, target: "/")
        #expect(index.status == 200)
        #expect(index.body.contains("memprof runs"))
        let page = try await rawRequest(port: port, target: "/phone-day/report.html")
        #expect(page.status == 200)
        #expect(page.body.contains("the report"))
        let trace = try await rawRequest(port: port, target: "/phone-day/trace.json")
        #expect(trace.status == 200)
        let folder = try await rawRequest(port: port, target: "/phone-day/")
        #expect(folder.status == 200)
        #expect(try await rawRequest(port: port, target: "/nothing-here").status == 404)
        #expect(try await rawRequest(port: port, target: "/phone-day/report.html", method: "POST").status == 405)

        let attacks = ["/../secret.txt", "/../../../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/etc/passwd",
                       "/phone-day/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/..%5csecret.txt",
                       "/escape.txt", "/up/secret.txt", "/up/Reports/../secret.txt", "/.hidden",
                       "//etc/passwd", "/%00/secret.txt", "/phone-day/./../../secret.txt"]
        for target in attacks {
            let answer = try await rawRequest(port: port, target: target)
            #expect(answer.status == 404 || answer.status == 403 || answer.status == 400, "\(target): \(answer.status)")
            #expect(!answer.body.contains("SECRET-OUTSIDE"), "\(target) leaked the file outside")
            #expect(!answer.body.contains("root:"), "\(target) leaked /etc/passwd")
        }
        await server.stop()
        _ = await task.result
    }
}
