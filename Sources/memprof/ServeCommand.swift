import ArgumentParser
import Foundation
import MemprofOutput

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
        let server = try ServerBinary.beside(executable: ServerBinary.runningExecutable())
        let argv = [server] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        execv(server, &cArgs)
        let cause = String(cString: strerror(errno))
        throw ServerBinary.NotRunnable(path: server, cause: cause)
    }
}

/// Where `memprof-serve` is, and what to say when it is not there.
enum ServerBinary {
    static let name = "memprof-serve"

    /// The path of the running `memprof`, symlinks resolved.
    static func runningExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// `memprof-serve` in the folder of `executable`, or the error that says how to build it.
    static func beside(executable: String) throws -> String {
        let folder = (executable as NSString).deletingLastPathComponent
        let path = (folder as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw NotBuilt(path: path, buildCommand: buildCommand(folder: folder))
        }
        return path
    }

    /// The command that builds `memprof-serve` where `memprof` was built: debug or release.
    static func buildCommand(folder: String) -> String {
        switch (folder as NSString).lastPathComponent {
        case "debug": "swift build --product \(name)"
        case "release": "swift build -c release --product \(name)"
        default: "swift build -c release --product \(name), then copy .build/release/\(name) to \(folder)"
        }
    }

    struct NotBuilt: MemprofError {
        var path: String
        var buildCommand: String
        var exitStatus: Int32 { ExitStatus.partNotBuilt }
        var description: String {
            "serve runs \(ServerBinary.name), which is not built: there is no \(path). Build it with `\(buildCommand)` "
                + "in the memprof checkout (./scripts/memprof serve builds it too)"
        }
    }

    struct NotRunnable: MemprofError {
        var path: String
        var cause: String
        var exitStatus: Int32 { ExitStatus.partNotExecutable }
        var description: String { "serve cannot run \(path): \(cause)" }
    }
}
