import ArgumentParser
import Foundation
import MemprofCommandLine
import MemprofOutput
import MemprofWorkload
import Testing

@Suite struct SiblingBinaryTests {
    @Test func buildCommandFollowsTheBuildFolder() {
        let tools = SiblingBinary.tools
        #expect(tools.buildCommand(folder: "/src/memprof/.build/debug") == "swift build --product memprof-tools")
        #expect(tools.buildCommand(folder: "/src/memprof/.build/release") == "swift build -c release --product memprof-tools")
        #expect(tools.buildCommand(folder: "/usr/local/bin")
                == "swift build -c release --product memprof-tools, then copy .build/release/memprof-tools to /usr/local/bin")
    }

    @Test func aMissingSiblingIsNotBuiltWithExitStatus127() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sibling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = folder.appendingPathComponent("memprof").path
        #expect(throws: SiblingBinary.NotBuilt.self) { try SiblingBinary.server.beside(executable: executable, command: "serve") }
        do {
            _ = try SiblingBinary.tools.beside(executable: executable, command: "check")
        } catch let error as SiblingBinary.NotBuilt {
            #expect(error.exitStatus == ExitStatus.partNotBuilt)
            #expect(error.description.hasPrefix("check runs memprof-tools, which is not built: there is no \(folder.path)/memprof-tools"))
            #expect(error.description.hasSuffix("(./scripts/memprof check builds it too)"))
        }
        // Once it is there, it is found.
        FileManager.default.createFile(atPath: folder.appendingPathComponent("memprof-tools").path, contents: Data())
        #expect(try SiblingBinary.tools.beside(executable: executable, command: "check") == folder.appendingPathComponent("memprof-tools").path)
    }
}

@Suite struct ToolCommandTests {
    @Test func everyToolCommandOnceWithHelp() {
        let names = ToolCommand.all.map(\.name)
        #expect(names == ["sweep", "merge", "compare", "check", "export", "import"])
        for tool in ToolCommand.all {
            #expect(!tool.abstract.isEmpty && !tool.discussion.isEmpty, "\(tool.name)")
            #expect(tool.configuration.commandName == tool.name)
        }
    }

    /// An entry as `memprof` declares one.
    struct Entry: ParsableCommand {
        static let configuration = ToolCommand.compare.passthroughConfiguration
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    /// The command itself, with its help flags.
    struct Command: ParsableCommand {
        static let configuration = ToolCommand.compare.configuration
        @Argument var base: String
    }

    @Test func theEntryPassesHelpFlagsOnToTheCommand() throws {
        // The entry in memprof takes no help flags, so `memprof NAME --help` reaches the command.
        for flag in ["--help", "-h"] {
            #expect(try Entry.parse([flag, "a"]).arguments == [flag, "a"])
            #expect(throws: (any Error).self) { try Command.parse([flag, "a"]) }
        }
    }
}

@Suite struct OverrideOptionsTests {
    @Test func overridesApplyDeviceThenPolicyThenEachSetInOrder() throws {
        let options = try OverrideOptions.parse(["--set", "seed=3", "--policy", "xnu", "--device", "iphone-6-plus", "--set", "seed=4"])
        let overrides = try options.overrides()
        #expect(overrides.count == 4)
        #expect(overrides[0] == .preset("device", "iphone-6-plus"))
        #expect(overrides[1] == .preset("policy", "xnu"))
        #expect(overrides[2] == (try WorkloadOverride.parse(assignment: "seed=3")))
        #expect(overrides[3] == (try WorkloadOverride.parse(assignment: "seed=4")))
    }

    @Test func aSetWithoutAnEqualsSignIsRefused() throws {
        let options = try OverrideOptions.parse(["--set", "seed"])
        #expect(throws: (any Error).self) { try options.overrides() }
    }
}
