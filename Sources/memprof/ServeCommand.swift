import ArgumentParser
import Foundation
import MemprofOutput
import MemprofServe

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a reports folder over HTTP, read-only, with an index of runs.",
        discussion: "Listens on 127.0.0.1:8080 unless told otherwise; / lists every run with links to its "
            + "HTML, JSON and trace. Runs until stopped with Ctrl-C.")

    @Argument(help: "The folder to serve.")
    var directory: String = "Reports"

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: UInt16 = 8080

    func run() throws {
        // Ctrl-C and SIGTERM are blocked in every thread (threads made from here on inherit the
        // mask) and taken by one thread with sigwait, so no thread's default action ends the
        // process midway and the server stops cleanly.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let blocked = signals

        let server: ReportServer
        do {
            server = try ReportServer(directory: URL(fileURLWithPath: directory), host: host, port: port)
        } catch {
            throw BadInput("\(directory): cannot serve: \(error.localizedDescription)")
        }
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            do { try await server.run() } catch { outcome.set(error) }
            done.signal()
        }

        let waiter = Thread {
            var received: Int32 = 0
            var set = blocked
            sigwait(&set, &received)
            outcome.stopping()
            Task { await server.stop(); task.cancel() }
        }
        waiter.start()

        Task {
            do {
                try await server.waitUntilListening()
                let bound = await server.port ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                let line = "serving \(server.site.root.path) at http://\(shownHost):\(bound)/ (Ctrl-C stops)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            } catch {
                outcome.set(error)
            }
        }
        done.wait()
        if outcome.stopped {
            FileHandle.standardOutput.write(Data("stopped\n".utf8))
            return
        }
        if let error = outcome.error {
            throw BadInput("cannot serve on \(host):\(port): \(error.localizedDescription)")
        }
    }
}

/// What ended the server, shared between the signal handler and the server task.
final class ServeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var _error: Error?
    private var _stopped = false

    func set(_ error: Error) { lock.withLock { if _error == nil { _error = error } } }
    func stopping() { lock.withLock { _stopped = true } }
    var error: Error? { lock.withLock { _error } }
    var stopped: Bool { lock.withLock { _stopped } }
}
