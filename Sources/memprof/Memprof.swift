import ArgumentParser
import MemprofCommandLine
import MemprofReport

/// `memprof`: the command line (spec §11). Each subcommand is a file of its own, a thin adapter
/// over the libraries; errors are mapped to exit statuses once, in ``CommandMain``. The commands
/// that read what runs wrote are entries that run `memprof-tools` (``ToolEntry``), and `serve`
/// runs `memprof-serve`.
struct Memprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memprof",
        abstract: "Simulates apps on a phone and reports their lifecycle and memory behaviour.",
        version: MemprofVersion.current,
        subcommands: [RunCommand.self, SweepEntry.self, MergeEntry.self, ValidateCommand.self, CompareEntry.self,
                      CheckEntry.self, ExportEntry.self, ImportEntry.self, ListCommand.self, ViewCommand.self,
                      ServeCommand.self]
    )
}

@main
enum Main {
    static func main() {
        // `memprof compare …`, `memprof help compare` and the other tools: straight to
        // memprof-tools, unparsed (when it is missing, the command's entry says so).
        SiblingBinary.tools.execEarly(commands: ToolCommand.all.map(\.name))
        CommandMain.run(Memprof.self)
    }
}
