import ArgumentParser
import MemprofCommandLine
import MemprofFleet
import MemprofReport
import MemprofSampler

/// `memprof`: the command line (spec §11). Each subcommand is a file of its own, a thin adapter
/// over the libraries; errors are mapped to exit statuses once, in ``CommandMain``. Every command
/// runs in this binary but `serve`, which runs `memprof-serve` (Hummingbird and SwiftNIO stay out
/// of `memprof`).
struct Memprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof",
        abstract: "Simulates apps on a phone and reports their lifecycle and memory behaviour.",
        version: MemprofVersion.current,
        subcommands: [RunCommand.self, SweepCommand.self, WhatIfCommand.self, MergeCommand.self, ValidateCommand.self, CompareCommand.self,
                      CheckCommand.self, ExportCommand.self, ImportCommand.self, FieldCommand.self, CalibrateCommand.self, ListCommand.self, ViewCommand.self,
                      ServeCommand.self]
    )
}

@main
enum Main {
    static func main() {
        CommandMain.run(Memprof.self) {
            RunningPrograms.endAll()
            FleetDask.endRunners()
        }
    }
}
