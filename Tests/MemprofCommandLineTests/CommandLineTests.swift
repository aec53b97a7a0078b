import ArgumentParser
import Foundation
import MemprofCommandLine
import MemprofOutput
import Testing

@Suite struct SiblingBinaryTests {
    @Test func buildCommandFollowsTheBuildFolder() {
        let server = SiblingBinary.server
        #expect(server.buildCommand(folder: "/src/memprof/.build/debug") == "swift build --product memprof-serve")
        #expect(server.buildCommand(folder: "/src/memprof/.build/release") == "swift build -c release --product memprof-serve")
        #expect(server.buildCommand(folder: "/usr/local/bin")
                == "swift build -c release --product memprof-serve, then copy .build/release/memprof-serve to /usr/local/bin")
    }

    @Test func aMissingSiblingIsNotBuiltWithExitStatus127() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sibling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = folder.appendingPathComponent("memprof").path
        do {
            _ = try SiblingBinary.server.beside(executable: executable, command: "serve")
            Issue.record("found a memprof-serve in an empty folder")
        } catch let error as SiblingBinary.NotBuilt {
            #expect(error.exitStatus == ExitStatus.partNotBuilt)
            #expect(error.description.hasPrefix("serve runs memprof-serve, which is not built: there is no \(folder.path)/memprof-serve"))
            #expect(error.description.hasSuffix("(./scripts/memprof serve builds it too)"))
        }
        // Once it is there, it is found.
        FileManager.default.createFile(atPath: folder.appendingPathComponent("memprof-serve").path, contents: Data())
        #expect(try SiblingBinary.server.beside(executable: executable, command: "serve") == folder.appendingPathComponent("memprof-serve").path)
    }
}

@Suite struct OutputOptionsTests {
    struct Command: ParsableCommand {
        @Option(name: [.short, .long], transform: OutputPath.named) var out: String?
        @OptionGroup var files: ResultFileOptions
    }

    @Test func anEmptyOutputPathIsACommandLineMistake() throws {
        for arguments in [["-o", ""], ["--out", ""], ["--html", ""], ["--markdown", ""], ["--junit", ""], ["--json", ""]] {
            do {
                _ = try Command.parse(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(Command.exitCode(for: error) == .validationFailure, "\(arguments)")
                #expect(Command.message(for: error).contains("an empty path names no file or folder"), "\(arguments)")
            }
        }
        let parsed = try Command.parse(["-o", "x", "--html", "page.html"])
        #expect(parsed.out == "x" && parsed.files.html == "page.html" && parsed.files.json == nil)
    }

    /// Each form is made only when asked for, and written whole.
    @Test func resultFilesAreWrittenWhenAskedFor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("page.html").path, json = folder.appendingPathComponent("r.json").path
        let files = try Command.parse(["--html", html, "--json", json]).files
        var pagePath: String?
        try files.write(markdown: "# m", html: { path in pagePath = path; return "<p>" },
                        junit: { Issue.record("junit made without --junit"); return "" }, json: { Data("{}".utf8) })
        #expect(pagePath == html)
        #expect(try String(contentsOfFile: html, encoding: .utf8) == "<p>")
        #expect(try String(contentsOfFile: json, encoding: .utf8) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["page.html", "r.json"])
    }
}

@Suite struct OverrideOptionsTests {
    @Test func theOptionsAreKeptAsGiven() throws {
        let options = try OverrideOptions.parse(["--set", "seed=3", "--policy", "xnu", "--device", "iphone-6-plus", "--set", "seed=4"])
        #expect(options.device == "iphone-6-plus")
        #expect(options.policy == "xnu")
        #expect(options.assignments == ["seed=3", "seed=4"])
    }
}
