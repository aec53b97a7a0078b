import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofFleet

/// `memprof merge DIR... --out DIR`: a thin adapter over ``FleetMerge``.
struct MergeCommand: ParsableCommand {
    static let configuration = ToolCommand.merge.configuration

    @Argument(help: "Folders written by memprof sweep --shard or memprof merge --partial.")
    var parts: [String]

    @Option(help: "Folder to write the merged result into.")
    var out: String

    @Flag(help: "Write a partial result when shards are missing (to merge again later).")
    var partial = false

    func run() throws {
        let result = try FleetMerge.merge(parts, into: URL(fileURLWithPath: out), partial: partial)
        print(FleetSummary.render(result, folder: out))
    }
}
