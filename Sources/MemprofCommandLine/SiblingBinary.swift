import Foundation
import MemprofOutput

/// A binary of memprof's that lies beside `memprof` and that a command runs in its place (exec),
/// so signals, output and the exit status are the sibling's own: `memprof-serve` (Hummingbird and
/// SwiftNIO) and `memprof-tools` (sweeps, compare, check, export, import). They are binaries of
/// their own so that the first build, `./scripts/memprof run`, compiles only what a run needs.
public struct SiblingBinary: Sendable {
    /// The sibling's file name, `memprof-serve`.
    public var name: String

    public static let server = SiblingBinary(name: "memprof-serve")
    public static let tools = SiblingBinary(name: "memprof-tools")

    public init(name: String) { self.name = name }

    /// Replaces this process with the sibling beside the running executable, given `arguments`
    /// (without a program name). Returns only by throwing: `NotBuilt` (exit 127) when the sibling
    /// is not there, `NotRunnable` (126) when it cannot be run. `command` names the memprof
    /// command in those messages.
    public func exec(command: String, arguments: [String]) throws -> Never {
        let path = try beside(executable: Self.runningExecutable(), command: command)
        let argv = [path] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        execv(path, &cArgs)
        throw NotRunnable(command: command, path: path, cause: String(cString: strerror(errno)))
    }

    /// Runs the sibling at once, before anything else (parsing the command line, Foundation), when
    /// the command line's first argument is one of `commands` (`memprof compare …`): such a command
    /// then costs one start of `memprof` only as far as its `main`. The sibling gets the same
    /// arguments as from `exec(command:arguments:)`. Returns when it cannot run it (no sibling,
    /// not runnable): the usual path then says why.
    public func execEarly(commands: [String]) {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, commands.contains(arguments[1]) else { return }
        var target = [CChar](repeating: 0, count: 4097)
        let length = readlink("/proc/self/exe", &target, 4096)
        guard length > 0, let slash = target[..<length].lastIndex(of: 0x2F) else { return }
        let path = String(decoding: target[...slash].map { UInt8(bitPattern: $0) }, as: UTF8.self) + name
        guard access(path, X_OK) == 0 else { return }
        var cArgs: [UnsafeMutablePointer<CChar>?] = ([path] + arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(path, &cArgs)
        for arg in cArgs { free(arg) }
    }

    /// The path of the running executable, symlinks resolved (a `memprof` linked onto the PATH
    /// finds its siblings in the build folder).
    public static func runningExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// The sibling in the folder of `executable`, or the error that says how to build it.
    public func beside(executable: String, command: String) throws -> String {
        let folder = (executable as NSString).deletingLastPathComponent
        let path = (folder as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw NotBuilt(command: command, sibling: name, path: path, buildCommand: buildCommand(folder: folder))
        }
        return path
    }

    /// The command that builds the sibling where `memprof` was built: debug or release.
    public func buildCommand(folder: String) -> String {
        switch (folder as NSString).lastPathComponent {
        case "debug": "swift build --product \(name)"
        case "release": "swift build -c release --product \(name)"
        default: "swift build -c release --product \(name), then copy .build/release/\(name) to \(folder)"
        }
    }

    public struct NotBuilt: MemprofError {
        public var command: String
        public var sibling: String
        public var path: String
        public var buildCommand: String
        public var exitStatus: Int32 { ExitStatus.partNotBuilt }
        public var description: String {
            "\(command) runs \(sibling), which is not built: there is no \(path). Build it with `\(buildCommand)` "
                + "in the memprof checkout (./scripts/memprof \(command) builds it too)"
        }
    }

    public struct NotRunnable: MemprofError {
        public var command: String
        public var path: String
        public var cause: String
        public var exitStatus: Int32 { ExitStatus.partNotExecutable }
        public var description: String { "\(command) cannot run \(path): \(cause)" }
    }
}
