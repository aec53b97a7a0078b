import ArgumentParser
import Foundation
import MemprofOutput

/// The one top of memprof's executables: parses the command line of `Root`, runs the command, and
/// maps what it throws to a message and an exit status (spec §11), the same way in `memprof` and
/// in the siblings it runs.
public enum CommandMain {
    public static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        // Past a file-size limit (ulimit -f), a write fails with EFBIG and a clear message
        // instead of the process being killed with a half-written file.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try Root.parseAsRoot()
            try command.run()
            Foundation.exit(ExitStatus.success)
        } catch {
            fail(error, as: Root.self)
        }
    }

    /// Ends the process for what a command of `Root` threw: memprof's own errors with their
    /// message and status, command-line mistakes with status 2, the rest as the parser would.
    public static func fail<Root: ParsableCommand>(_ error: any Error, as root: Root.Type) -> Never {
        if let error = error as? any MemprofError {
            FileHandle.standardError.write(Data("memprof: \(error.description)\n".utf8))
            Foundation.exit(error.exitStatus)
        }
        if Root.exitCode(for: error) == .validationFailure {
            // Command-line mistakes are bad input too: status 2, as the spec says.
            FileHandle.standardError.write(Data((Root.fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ExitStatus.badInput)
        }
        Root.exit(withError: error)
    }
}
