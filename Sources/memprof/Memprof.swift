import ArgumentParser
import Foundation
import MemprofOutput
import MemprofReport

/// `memprof`: the command line (spec §11). Each subcommand is a file of its own, a thin adapter
/// over the libraries; errors are mapped to exit statuses once, in ``Main``.
struct Memprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof",
        abstract: "Simulates apps on a phone and reports their lifecycle and memory behaviour.",
        version: MemprofVersion.current,
        subcommands: [RunCommand.self, SweepCommand.self, MergeCommand.self, ValidateCommand.self, CompareCommand.self, CheckCommand.self, ExportCommand.self, ImportCommand.self, ListCommand.self, ViewCommand.self, ServeCommand.self]
    )
}

@main
enum Main {
    static func main() {
        // Past a file-size limit (ulimit -f), a write fails with EFBIG and a clear message
        // instead of the process being killed with a half-written file.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try Memprof.parseAsRoot()
            try command.run()
        } catch let error as any MemprofError {
            FileHandle.standardError.write(Data("memprof: \(error.description)\n".utf8))
            Foundation.exit(error.exitStatus)
        } catch {
            if Memprof.exitCode(for: error) == .validationFailure {
                // Command-line mistakes are bad input too: status 2, as the spec says.
                FileHandle.standardError.write(Data((Memprof.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.badInput)
            }
            Memprof.exit(withError: error)
        }
    }
}
