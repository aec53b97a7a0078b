/// The exit statuses of memprof's commands (spec §11). Mapped from errors once, at the top of
/// the executable.
public enum ExitStatus {
    /// Everything went as asked, and nothing got worse.
    public static let success: Int32 = 0
    /// A comparison or a budget found something worse.
    public static let regression: Int32 = 1
    /// Bad input: a workload, report, budget, thresholds or sweep file, or the command line.
    public static let badInput: Int32 = 2
    /// Output could not be written: a full disk, a read-only or forbidden folder. Nothing of the
    /// failed run remains (``OutputError``).
    public static let outputFailure: Int32 = 3
    /// A part of memprof that a command runs is there but cannot be run (`memprof-serve`),
    /// as a shell says of a command it cannot execute.
    public static let partNotExecutable: Int32 = 126
    /// A part of memprof that a command runs was not built (`memprof-serve` beside `memprof`),
    /// as a shell says of a command it cannot find.
    public static let partNotBuilt: Int32 = 127
}

/// An error that knows how memprof ends when it reaches the user: its message and its exit
/// status. Libraries throw these; the executable prints `memprof: <description>` and exits with
/// `exitStatus`, in one place.
///
///     struct MissingReport: MemprofError {
///         var path: String
///         var exitStatus: Int32 { ExitStatus.badInput }
///         var description: String { "\(path): no such file" }
///     }
public protocol MemprofError: Error, CustomStringConvertible {
    /// The process's exit status when this error ends a command.
    var exitStatus: Int32 { get }
}

/// Bad input described in words, for the few places that have no error type of their own.
public struct BadInput: MemprofError, Equatable, Sendable {
    public var description: String
    public var exitStatus: Int32 { ExitStatus.badInput }

    public init(_ description: String) {
        self.description = description
    }
}
