import Foundation
import MemprofPlatform
import MemprofOutput

/// A binary of memprof's that lies beside `memprof` and that a command runs in its place (exec),
/// so signals, output and the exit status are the sibling's own: `memprof-serve`, a binary of its
/// own so that `memprof` is built without Hummingbird and SwiftNIO.
public struct SiblingBinary: Sendable {
    /// The sibling's file name, `memprof-serve`.
    public var name: String

    public static let server = SiblingBinary(name: "memprof-serve")

    public init(name: String) { self.name = name }

    /// Replaces this process with the sibling beside the running executable, given `arguments`
    /// (without a program name). Returns only by throwing: `NotBuilt` (exit 127) when the sibling
    /// is not there, `NotRunnable` (126) when it cannot be run. `command` names the memprof
    /// command in those messages.
    public func exec(command: String, arguments: [String]) throws -> Never {
        let path = try beside(executable: Self.runningExecutable(), command: command)
        let cause = Self.replaceProcess(with: path, arguments: arguments)
        throw NotRunnable(command: command, path: path, cause: cause)
    }

    /// execv(2) of `path` with `arguments`; returns only when it fails, with the cause in words.
    /// The signals memprof handles itself (``Interruption``) are the sibling's to handle: their
    /// default action is restored first.
    static func replaceProcess(with path: String, arguments: [String]) -> String {
        Interruption.restoreDefaults()
        var cArgs: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, &cArgs)
        let cause = String(cString: strerror(errno))
        for arg in cArgs { free(arg) }
        return cause
    }

    /// The path of the running executable, symlinks resolved (a `memprof` linked onto the PATH
    /// finds its siblings in the build folder): MemprofPlatform's `RunningExecutable`.
    public static func runningExecutable() -> String {
        RunningExecutable.path
    }

    /// The sibling in the folder of `executable`, or the error that says how to build it.
    public func beside(executable: String, command: String) throws -> String {
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        let path = folder + "/" + name
        guard access(path, F_OK) == 0 else {
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
