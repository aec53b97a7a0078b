import ArgumentParser
import MemprofCommandLine

/// An entry of `memprof`'s command list whose command lives in `memprof-tools`: it takes the rest
/// of the command line as it is and runs `memprof-tools NAME ...` in this process (exec).
protocol ToolEntry: ParsableCommand {
    static var tool: ToolCommand { get }
    var arguments: [String] { get }
}

extension ToolEntry {
    static var configuration: CommandConfiguration { tool.passthroughConfiguration }

    func run() throws {
        try SiblingBinary.tools.exec(command: Self.tool.name, arguments: [Self.tool.name] + arguments)
    }
}

struct SweepEntry: ToolEntry {
    static let tool = ToolCommand.sweep
    @Argument(parsing: .captureForPassthrough, help: "The sweep file and options (memprof sweep --help).")
    var arguments: [String] = []
}

struct MergeEntry: ToolEntry {
    static let tool = ToolCommand.merge
    @Argument(parsing: .captureForPassthrough, help: "The shard folders and options (memprof merge --help).")
    var arguments: [String] = []
}

struct CompareEntry: ToolEntry {
    static let tool = ToolCommand.compare
    @Argument(parsing: .captureForPassthrough, help: "The two reports and options (memprof compare --help).")
    var arguments: [String] = []
}

struct CheckEntry: ToolEntry {
    static let tool = ToolCommand.check
    @Argument(parsing: .captureForPassthrough, help: "The report and options (memprof check --help).")
    var arguments: [String] = []
}

struct ExportEntry: ToolEntry {
    static let tool = ToolCommand.export
    @Argument(parsing: .captureForPassthrough, help: "The report and options (memprof export --help).")
    var arguments: [String] = []
}

struct ImportEntry: ToolEntry {
    static let tool = ToolCommand.import
    @Argument(parsing: .captureForPassthrough, help: "The JetsamEvent report and options (memprof import --help).")
    var arguments: [String] = []
}
