import ArgumentParser
import MemprofCommandLine
import Foundation
import MemprofFleet
import MemprofOutput

/// `memprof merge DIR... --out DIR`: a thin adapter over ``FleetMerge``.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the shards of a sweep (memprof sweep --shard K/N) into one result.",
        discussion: "Refuses parts of different sweeps, a shard given twice, a missing shard (unless --partial) "
            + "and folders that are not memprof.fleet/1 results.")

    @Argument(help: "Folders written by memprof sweep --shard or memprof merge --partial.")
    var parts: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Folder to write the merged result into.", valueName: "folder"),
            transform: OutputPath.named)
    var out: String

    @Flag(help: "Write a partial result when shards are missing (to merge again later).")
    var partial = false

    @Option(name: .customLong("app"), help: ArgumentHelp("Also print this app's figures per cell (repeatable).", valueName: "app"))
    var apps: [String] = []

    func run() throws {
        let result = try FleetMerge.merge(parts, into: URL(fileURLWithPath: out), partial: partial)
        let known = FleetSummary.apps(of: result)
        for app in apps where !known.contains(app) {
            throw BadInput("--app \(app): no app '\(app)' in the merged result; it has: \(known.joined(separator: ", "))")
        }
        try StandardStream.out(FleetSummary.render(result, folder: out, apps: apps) + "\n")
    }
}
