import Foundation
import MemprofTestSupport
import Testing

/// `memprof sweep|merge|compare|check|export|import` run the `memprof-tools` binary beside
/// `memprof` (so the first build compiles only what a run needs).
@Suite struct ToolsEndToEndTests {
    @Test func aMissingToolsBinaryIsNamedWithItsBuildCommand() throws {
        // A memprof with no memprof-tools beside it.
        let folder = try Scratch.makeDirectory("memprof-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("memprof")
        try FileManager.default.copyItem(at: Repository.memprofBinary, to: alone)
        for command in ["sweep", "merge", "compare", "check", "export", "import"] {
            let outcome = try ProcessRunner.run(alone, [command, "a", "b"], in: folder)
            #expect(outcome.status == 127, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("memprof: \(command) runs memprof-tools, which is not built: there is no \(folder.path)/memprof-tools"),
                    "\(outcome.stderr)")
            #expect(outcome.stderr.contains("swift build -c release --product memprof-tools"), "\(outcome.stderr)")
        }
        // Help without the sibling is the entry's own: the command's summary, and how it runs.
        let help = try ProcessRunner.run(alone, ["help", "compare"], in: folder)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("Compare two reports metric by metric"), "\(help.stdout)")
        // What a run needs is all there.
        let listed = try ProcessRunner.run(alone, ["list", "workloads"], in: folder)
        #expect(listed.status == 0 && listed.stdout.contains("phone-day"), "\(listed.stderr)")
    }

    @Test func helpOfAToolsCommandIsItsOwn() throws {
        let dir = try Scratch.makeDirectory("tools-help")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The options only the command itself knows: memprof hands --help and `help NAME` over.
        for arguments in [["compare", "--help"], ["help", "compare"], ["compare", "-h"]] {
            let outcome = try ProcessRunner.memprof(arguments, in: dir)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.contains("USAGE: memprof compare [<options>] <base> <new>"), "\(arguments): \(outcome.stdout)")
            #expect(outcome.stdout.contains("--count-threshold"), "\(arguments): \(outcome.stdout)")
        }
        let export = try ProcessRunner.memprof(["help", "export"], in: dir)
        #expect(export.stdout.contains("--format"), "\(export.stdout)")
        // The command list still shows every command, with its abstract.
        let all = try ProcessRunner.memprof(["--help"], in: dir)
        for command in ["run", "sweep", "merge", "validate", "compare", "check", "export", "import", "list", "view", "serve"] {
            #expect(all.stdout.contains("\n  \(command) "), "\(command): \(all.stdout)")
        }
        #expect(all.stdout.contains("Compare two reports metric by metric"), "\(all.stdout)")
    }

    @Test func aToolsCommandsMistakeIsBadInputNamedAsMemprof() throws {
        let dir = try Scratch.makeDirectory("tools-usage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try ProcessRunner.memprof(["compare", "a", "b", "--bogus"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("Error: Unknown option '--bogus'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Usage: memprof compare [<options>] <base> <new>"), "\(outcome.stderr)")
    }
}
