import ArgumentParser
import MemprofCommandLine
import MemprofReport

/// `memprof-tools`: the commands of `memprof` that work on what runs wrote (sweeps, compare,
/// check, export, import). `memprof NAME ...` runs this binary with the same command line, so
/// the first build, `./scripts/memprof run`, compiles neither fleets, comparisons, budgets nor
/// the field's formats. Its command name is `memprof`: usage lines and errors read as before.
struct MemprofTools: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof",
        abstract: "The commands of memprof that read reports and sweeps; `memprof` runs them.",
        version: MemprofVersion.current,
        subcommands: [SweepCommand.self, MergeCommand.self, CompareCommand.self, CheckCommand.self,
                      ExportCommand.self, ImportCommand.self]
    )
}

@main
enum Main {
    static func main() { CommandMain.run(MemprofTools.self) }
}
