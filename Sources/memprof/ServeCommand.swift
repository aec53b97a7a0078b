import ArgumentParser
import MemprofCommandLine

/// `memprof serve`: runs the `memprof-serve` binary that lies beside this one, with the same
/// arguments, in this process (exec), so signals, output and the exit status are the server's
/// own. The server is a binary of its own so that `memprof` is built without Hummingbird and
/// SwiftNIO, which would add minutes to a first build (`./scripts/memprof run`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a reports folder over HTTP, read-only, with an index of runs.",
        discussion: "memprof serve [DIR] [--host H] [--port P]: listens on 127.0.0.1:8080 unless told otherwise; "
            + "/ lists every run with links to its HTML, JSON and trace. Runs until stopped with Ctrl-C. "
            + "Runs the memprof-serve binary beside memprof (`memprof serve --help` shows its options); "
            + "exit status 127 when it was not built, 126 when it cannot be run.",
        helpNames: [])

    @Argument(parsing: .captureForPassthrough, help: "The folder to serve and memprof-serve's options.")
    var arguments: [String] = []

    func run() throws {
        try SiblingBinary.server.exec(command: "serve", arguments: arguments)
    }
}
