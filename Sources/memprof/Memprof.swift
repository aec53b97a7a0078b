import ArgumentParser
import Foundation

/// `memprof`: the command line (spec §11). Each subcommand is a file of its own.
struct Memprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof",
        abstract: "Simulates apps on a phone and reports their lifecycle and memory behaviour.",
        version: "0.1.0",
        subcommands: [RunCommand.self, ValidateCommand.self, CompareCommand.self, CheckCommand.self, ExportCommand.self, ListCommand.self, ViewCommand.self, ServeCommand.self]
    )
}

/// Bad input of any kind: printed as it is, exit status 2 (spec §11).
struct BadInput: Error, CustomStringConvertible {
    var description: String
}

@main
enum Main {
    static func main() {
        do {
            var command = try Memprof.parseAsRoot()
            try command.run()
        } catch let error as BadInput {
            FileHandle.standardError.write(Data("memprof: \(error.description)\n".utf8))
            Foundation.exit(2)
        } catch {
            let code = Memprof.exitCode(for: error)
            if code == .validationFailure {
                // Command-line mistakes are bad input too: status 2, as the spec says.
                FileHandle.standardError.write(Data((Memprof.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            Memprof.exit(withError: error)
        }
    }
}
