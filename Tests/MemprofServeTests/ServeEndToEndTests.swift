import Foundation
import MemprofPlatform
import MemprofTestSupport
import Synchronization
import Testing
@testable import MemprofServe


/// `memprof serve` as users run it: the built `memprof`, which runs `memprof-serve` beside it.
final class ServedFolder {
    let fixture: Fixture
    let process = Process()
    let port: UInt16
    private let output = Pipe()
    /// What the server printed so far, shared with the thread that reads it.
    private final class Printed: Sendable {
        let text = Mutex("")
    }
    private let printed = Printed()

    /// Starts `memprof serve` on a free port with the given request timeout, and waits until it
    /// says where it listens.
    init(requestTimeout: Int = 10, fileLimit: Int? = nil) throws {
        fixture = try Fixture()
        let arguments = ["serve", fixture.root.path, "--port", "0", "--request-timeout", String(requestTimeout)]
        if let fileLimit {
            // The shell lowers the open-file limit and becomes memprof, which becomes memprof-serve.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", Repository.memprofBinary.path] + arguments
        } else {
            process.executableURL = Repository.memprofBinary
            process.arguments = arguments
        }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let reader = output.fileHandleForReading
        let printed = printed
        let found = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(reader.fileDescriptor, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                printed.text.withLock { $0 += String(decoding: buffer[0..<n], as: UTF8.self) }
                found.signal()
            }
            found.signal()
        }
        let deadline = Date().addingTimeInterval(120)
        var port: UInt16?
        while port == nil, Date() < deadline, process.isRunning {
            _ = found.wait(timeout: .now() + 1)
            port = printed.text.withLock { Self.port(in: $0) }
        }
        guard let port else {
            process.terminate()
            throw POSIXError(.ECONNREFUSED)
        }
        self.port = port
    }

    /// The port of `serving DIR at http://127.0.0.1:PORT/ (Ctrl-C stops)`.
    static func port(in text: String) -> UInt16? {
        guard let range = text.range(of: "at http://127.0.0.1:"),
              let end = text[range.upperBound...].firstIndex(of: "/")
        else { return nil }
        return UInt16(text[range.upperBound..<end])
    }

    /// Sends `signal` and waits for the server to end: its exit status and everything it printed.
    func stop(with signal: Int32 = SIGTERM) -> (status: Int32, printed: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.1)
        return (process.terminationStatus, printed.text.withLock { $0 })
    }

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        fixture.remove()
    }
}

/// Bounds for answers under load (2 busy cores, other suites running): far above what is
/// measured on an idle machine (milliseconds), far below the seconds of
/// CPU such requests cost before the guard.
let promptly = 5.0

@Suite(.serialized) struct ServeEndToEndTests {
    static let requestLine100KB = Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    static let header1MB = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 1_000_000))\r\n\r\n".utf8)
    static let headers10MB: [UInt8] = {
        var text = "GET / HTTP/1.1\r\nHost: x\r\n"
        let value = String(repeating: "v", count: 90)
        for i in 0..<100_000 { text += "X-H\(i): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }()

    /// A hostile request and a normal one at the same time: the hostile one gets `status` within
    /// `promptly`, the normal one the index.
    func refusedWhileOthersServed(_ bytes: [UInt8], status: Int, mentioning words: String, port: UInt16) async throws {
        async let hostile = exchange(port: port, bytes)
        async let normal = rawRequest(port: port, target: "/")
        async let another = rawRequest(port: port, target: "/phone-day/report.html")
        let (refused, index, page) = try await (hostile, normal, another)
        #expect(refused.status == status, "\(refused.headers)")
        #expect(refused.seconds < promptly, "answered after \(refused.seconds) s")
        #expect(refused.body.contains(words), "\(refused.body)")
        #expect(refused.headers.lowercased().contains("connection: close"))
        #expect(index.status == 200 && index.body.contains("memprof runs"))
        #expect(page.status == 200 && page.body.contains("the report"))
    }

    @Test func largeRequestsAreRefusedAtOnceWhileOthersAreServed() async throws {
        let served = try ServedFolder()
        try await refusedWhileOthersServed(Self.requestLine100KB, status: 414, mentioning: "request line is longer than 8192 bytes",
                                           port: served.port)
        try await refusedWhileOthersServed(Self.header1MB, status: 431, mentioning: "header lines are longer than 32768 bytes",
                                           port: served.port)
        try await refusedWhileOthersServed(Self.headers10MB, status: 431, mentioning: "more than 100 header lines",
                                           port: served.port)
        let longLines = "GET / HTTP/1.1\r\n" + (0..<40).map { "X-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined()
        try await refusedWhileOthersServed(Array((longLines + "\r\n").utf8), status: 431,
                                           mentioning: "header lines are longer than 32768 bytes", port: served.port)
        // Still serving after all that.
        #expect(try await rawRequest(port: served.port, target: "/").status == 200)
        #expect(served.stop().status == 0)
    }

    @Test func unknownHTTPVersionsGet505() async throws {
        let served = try ServedFolder()
        for version in ["HTTP/9.9", "HTTP/2.0", "HTTP/0.9", "HTTP/1.2"] {
            let answer = try await exchange(port: served.port, Array("GET / \(version)\r\nHost: x\r\n\r\n".utf8))
            #expect(answer.status == 505, "\(version): \(answer.headers)")
            #expect(answer.body.contains("\(version) is not supported"), "\(answer.body)")
        }
        let old = try await exchange(port: served.port, Array("GET / HTTP/1.0\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(old.status == 200, "\(old.headers)")
        #expect(old.body.contains("memprof runs"))
        #expect(try await exchange(port: served.port, Array("GARBAGE\r\n\r\n".utf8)).status == 400)
    }

    @Test func aRequestThatStallsIsTimedOutWhileOthersAreServed() async throws {
        let served = try ServedFolder(requestTimeout: 2)
        let port = served.port
        // Half a head, then nothing: the connection waits for its answer.
        async let stalled = exchange(port: port, Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaa".utf8))
        try await Task.sleep(nanoseconds: 300_000_000)
        let normal = try await rawRequest(port: port, target: "/")
        #expect(normal.status == 200)
        let answer = try await stalled
        #expect(answer.status == 408, "\(answer.headers)")
        #expect(answer.body.contains("did not arrive within 2 s"), "\(answer.body)")
        #expect(answer.seconds >= 1.5, "timed out after \(answer.seconds) s, before its time")
        #expect(answer.seconds < 2 + promptly, "timed out after \(answer.seconds) s")
        #expect(served.stop().status == 0)
    }

    @Test func servesTheFolderAndStopsCleanly() async throws {
        for signal in [SIGTERM, SIGINT] {
            let served = try ServedFolder()
            let index = try await rawRequest(port: served.port, target: "/")
            #expect(index.status == 200 && index.body.contains("memprof runs"))
            let head = try await exchange(port: served.port, Array("HEAD /phone-day/report.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(head.status == 200)
            #expect(head.headers.lowercased().contains("content-length: 32"), "\(head.headers)")
            #expect(head.body.isEmpty)
            let trace = try await rawRequest(port: served.port, target: "/phone-day/trace.json")
            #expect(trace.status == 200 && trace.body == "{\"traceEvents\":[]}")
            #expect(try await rawRequest(port: served.port, target: "/%2e%2e/secret.txt").status == 403)
            #expect(try await rawRequest(port: served.port, target: "/escape.txt").status == 403)
            #expect(try await rawRequest(port: served.port, target: "/nothing-here").status == 404)
            let post = try await exchange(port: served.port, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8))
            #expect(post.status == 405)
            #expect(post.headers.lowercased().contains("allow: get, head"))
            // Two requests on one kept-alive connection, the first with a body the guard skips.
            let twice = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /phone-day/trace.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let both = try await exchange(port: served.port, Array(twice.utf8))
            #expect(both.status == 405)
            #expect(both.body.contains("HTTP/1.1 200") && both.body.contains("traceEvents"), "\(both.body)")
            let stopped = served.stop(with: signal)
            #expect(stopped.status == 0, "\(stopped.printed)")
            #expect(stopped.printed.hasSuffix("stopped\n"), "\(stopped.printed)")
        }
    }

    /// CPU seconds (user and system) process `pid` has used.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// More clients than the open-file limit allows connections: the server waits for one to end
    /// instead of retrying accept at once (a core at 100%), and answers again when they go.
    @Test func atTheOpenFileLimitTheServerIdlesAndAnswersAgain() async throws {
        let served = try ServedFolder(fileLimit: 64)
        var held: [Int32] = []
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = served.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected == 0 { held.append(fd) } else { close(fd) }
        }
        #expect(held.count == 100)
        try await Task.sleep(nanoseconds: 500_000_000)
        let pid = served.process.processIdentifier
        let before = Self.cpuSeconds(pid)
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let spent = Self.cpuSeconds(pid) - before
        #expect(spent < 0.6, "the server used \(spent) s of CPU in 3 s while holding its connections")
        for fd in held { close(fd) }
        let answer = try await rawRequest(port: served.port, target: "/")
        #expect(answer.status == 200)
        #expect(served.stop().status == 0)
    }

    @Test func aMissingServerBinaryIsNamedWithItsBuildCommand() throws {
        // A memprof with no memprof-serve beside it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("memprof")
        try FileManager.default.copyItem(at: Repository.memprofBinary, to: alone)
        let outcome = try ProcessRunner.run(alone, ["serve", "--port", "0"], in: folder)
        #expect(outcome.status == 127)
        #expect(outcome.stderr.hasPrefix("memprof: serve runs memprof-serve, which is not built: there is no \(folder.path)/memprof-serve"),
                "\(outcome.stderr)")
        #expect(outcome.stderr.contains("swift build -c release --product memprof-serve"), "\(outcome.stderr)")
    }
}
