import ArgumentParser
import Foundation
import MemprofCommandLine
import MemprofOutput
import MemprofServe

/// `memprof-serve`: the server behind `memprof serve`, a binary of its own so that Hummingbird
/// and SwiftNIO are not built into `memprof` (`memprof serve ARGS` runs `memprof-serve ARGS`).
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof serve",
        abstract: "Serve a reports folder over HTTP, read-only, with an index of runs.",
        discussion: "Listens on 127.0.0.1:8080 unless told otherwise; / lists every run with links to its "
            + "HTML, JSON and trace. A request line over 8 KB is refused with 414, header lines over 32 KB "
            + "or 100 lines with 431, an HTTP version other than 1.0 and 1.1 with 505, a request that has "
            + "not arrived within --request-timeout seconds (10) with 408. Runs until stopped with Ctrl-C or SIGTERM.")

    @Argument(help: "The folder to serve.")
    var directory: String = "Reports"

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: "Seconds a request may take to arrive, from its first byte (408 after).")
    var requestTimeout: Int = 10

    func validate() throws {
        guard (1...3600).contains(requestTimeout) else {
            throw ValidationError("--request-timeout: '\(requestTimeout)' is out of range; give 1 to 3600 seconds")
        }
    }

    func run() async throws {
        let server: ReportServer
        do {
            var limits = RequestLimits()
            limits.requestTimeout = .seconds(requestTimeout)
            server = try ReportServer(directory: URL(fileURLWithPath: directory), host: host, port: port, limits: limits)
        } catch {
            throw BadInput("\(directory): cannot serve: \(error.localizedDescription)")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let root = server.site.root.path
        do {
            try await server.run(stopOnSignals: true) { bound in
                let line = "serving \(root) at http://\(shownHost):\(bound)/ (Ctrl-C stops)\n"
                // The server goes on when standard output cannot take its address line.
                do { try StandardStream.out(line) } catch { StandardStream.error("memprof: \(error)\n") }
            }
        } catch {
            throw BadInput("cannot serve on \(host):\(port): \(error)")
        }
        try StandardStream.out("stopped\n")
    }
}

@main
enum ServerMain {
    static func main() async {
        do {
            let command = try ServerCommand.parse()
            try await command.run()
        } catch {
            CommandMain.fail(error, as: ServerCommand.self)
        }
    }
}
