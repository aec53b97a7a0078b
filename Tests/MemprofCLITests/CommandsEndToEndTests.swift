import Foundation
import MemprofTestSupport
import Testing

/// memprof is one binary for every command but `serve`, with the same options where commands
/// do the same thing.
@Suite struct CommandsEndToEndTests {
    /// A memprof alone in a folder runs every command but serve: nothing is run beside it
    /// (before: sweep, merge, compare, check, export and import ran memprof-tools, and exited
    /// 127 without it).
    @Test func everyCommandButServeRunsInMemprofAlone() throws {
        let folder = try Scratch.makeDirectory("memprof-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("memprof")
        try FileManager.default.copyItem(at: Repository.memprofBinary, to: alone)
        try goodWorkload.write(to: folder.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let run = try ProcessRunner.run(alone, ["run", "commute.yaml", "-o", "r", "--no-sampling"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        try "summary: {evictions: {max: 0}}\n".write(to: folder.appendingPathComponent("budget.yaml"), atomically: true, encoding: .utf8)
        for arguments in [["compare", "r", "r"], ["check", "r", "--budget", "budget.yaml"], ["export", "r", "--format", "benchmark"]] {
            let outcome = try ProcessRunner.run(alone, arguments, in: folder)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stdout.isEmpty, "\(arguments)")
        }
        for command in ["sweep", "merge", "compare", "check", "export", "import"] {
            let outcome = try ProcessRunner.run(alone, [command, "--help"], in: folder)
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            #expect(outcome.stdout.contains("USAGE: memprof \(command) "), "\(command): \(outcome.stdout)")
        }
        // serve runs memprof-serve, which is not there.
        let serve = try ProcessRunner.run(alone, ["serve"], in: folder)
        #expect(serve.status == 127, "\(serve.stderr)")
        #expect(serve.stderr.hasPrefix("memprof: serve runs memprof-serve, which is not built"), "\(serve.stderr)")
    }

    @Test func helpOfACommandIsItsOwn() throws {
        let dir = try Scratch.makeDirectory("tools-help")
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["compare", "--help"], ["help", "compare"], ["compare", "-h"]] {
            let outcome = try ProcessRunner.memprof(arguments, in: dir)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.contains("USAGE: memprof compare [<options>] <base> <new>"), "\(arguments): \(outcome.stdout)")
            #expect(outcome.stdout.contains("--count-threshold"), "\(arguments): \(outcome.stdout)")
        }
        let export = try ProcessRunner.memprof(["help", "export"], in: dir)
        #expect(export.stdout.contains("--format"), "\(export.stdout)")
        // The command list shows every command, with its abstract.
        let all = try ProcessRunner.memprof(["--help"], in: dir)
        for command in ["run", "sweep", "merge", "validate", "compare", "check", "export", "import", "list", "view", "serve"] {
            #expect(all.stdout.contains("\n  \(command) "), "\(command): \(all.stdout)")
        }
        #expect(all.stdout.contains("Compare two reports metric by metric"), "\(all.stdout)")
    }

    @Test func aCommandsMistakeIsBadInputNamedAsMemprof() throws {
        let dir = try Scratch.makeDirectory("tools-usage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try ProcessRunner.memprof(["compare", "a", "b", "--bogus"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("Error: Unknown option '--bogus'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Usage: memprof compare [<options>] <base> <new>"), "\(outcome.stderr)")
    }

    /// The same options where commands do the same thing: `-o` and `--out` on every command that
    /// writes, and one set of result-file options for compare and check.
    @Test func everyCommandThatWritesTakesDashO() throws {
        for command in ["run", "sweep", "merge", "export", "import"] {
            let help = try ProcessRunner.memprof([command, "--help"], in: Repository.root)
            #expect(help.stdout.contains("-o, --out <"), "\(command): \(help.stdout)")
        }
        for command in ["compare", "check"] {
            let help = try ProcessRunner.memprof([command, "--help"], in: Repository.root)
            for option in ["--markdown <file>", "--html <file>", "--junit <file>", "--json <file>"] {
                #expect(help.stdout.contains(option), "\(command) \(option): \(help.stdout)")
            }
        }
    }

    /// `memprof list` without a kind lists devices, policies, workloads and sweeps (before: an error).
    @Test func listWithoutAKindListsEveryKind() throws {
        let all = try ProcessRunner.memprof(["list"], in: Repository.root)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.hasPrefix("devices:\n"), "\(all.stdout)")
        for kind in ["devices", "policies", "workloads", "sweeps"] {
            let one = try ProcessRunner.memprof(["list", kind], in: Repository.root)
            #expect(one.status == 0)
            let indented = one.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.isEmpty ? "" : "  \($0)" }.joined(separator: "\n")
            #expect(all.stdout.contains("\(kind):\n" + indented + "\n"), "\(kind)")
        }
        let sweeps = try ProcessRunner.memprof(["list", "sweeps"], in: Repository.root).stdout
        #expect(sweeps.split(separator: "\n").map { $0.split(separator: " ").first } == ["phone-fleet", "phone-day-200", "today-phones"])
        let yaml = try ProcessRunner.memprof(["list", "--yaml", "phone-day"], in: Repository.root)
        #expect(yaml.status == 0 && yaml.stdout.hasPrefix("memprof: 1"), "\(yaml.stdout)")
    }

    /// `--timings` prints each step's time to standard error (before: an environment variable).
    @Test func timingsAreAFlag() throws {
        let dir = try Scratch.makeDirectory("timings")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let quiet = try ProcessRunner.memprof(["run", "commute.yaml", "-o", "a", "--no-sampling"], in: dir)
        #expect(quiet.status == 0 && !quiet.stderr.contains("timing"), "\(quiet.stderr)")
        let timed = try ProcessRunner.memprof(["run", "commute.yaml", "-o", "b", "--no-sampling", "--timings"], in: dir)
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(timed.stderr.split(separator: "\n").contains { $0.hasPrefix("timing report.json ") && $0.hasSuffix(" bytes") },
                "\(timed.stderr)")
        #expect(timed.stderr.contains("timing-cpu "), "\(timed.stderr)")
    }
}
