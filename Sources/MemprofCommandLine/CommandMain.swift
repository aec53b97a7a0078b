import ArgumentParser
import Foundation
import MemprofOutput

/// The one top of memprof's executables: parses the command line of `Root`, runs the command, and
/// maps what it throws to a message and an exit status (spec §11), the same way in `memprof` and
/// in `memprof-serve`.
public enum CommandMain {
    /// Runs the command line of `root`; `onInterruption` runs when a signal interrupts it, before
    /// the unfinished output is removed (`memprof` ends the programs it runs as work).
    public static func run<Root: ParsableCommand>(_ root: Root.Type, onInterruption: @escaping @Sendable () -> Void = {}) -> Never {
        StandardDescriptors.openClosedOnes()
        // Past a file-size limit (ulimit -f), a write fails with EFBIG and a clear message
        // instead of the process being killed with a half-written file.
        signal(SIGXFSZ, SIG_IGN)
        Interruption.removeUnfinishedOutputOnSignals(first: onInterruption)
        do {
            var command = try Root.parseAsRoot()
            try command.run()
            try StandardDescriptors.flushStandardOutput()
            exit(ExitStatus.success)
        } catch {
            fail(error, as: Root.self)
        }
    }

    /// Ends the process with `status`, unless a signal's removal of the unfinished output is
    /// under way: then the interruption ends it, once the removal is done (with the signal's
    /// status), so the removal is never cut short.
    private static func exit(_ status: Int32) -> Never {
        UnfinishedOutput.shared.yieldToInterruption()
        Foundation.exit(status)
    }

    /// Gives SIGINT, SIGTERM and SIGHUP their default action again, for a command that writes
    /// nothing and starts another program (which would inherit them ignored): `view`'s opener.
    public static func restoreSignalDefaults() {
        Interruption.restoreDefaults()
    }

    /// Ends the process for what a command of `Root` threw: memprof's own errors with their
    /// message and status, command-line mistakes with status 2, the rest as the parser would
    /// (help and the version on standard output, checked as every output is: status 3 when it
    /// cannot be written).
    public static func fail<Root: ParsableCommand>(_ error: any Error, as root: Root.Type) -> Never {
        if let error = error as? any MemprofError {
            StandardStream.error("memprof: \(error.description)\n")
            exit(error.exitStatus)
        }
        let code = Root.exitCode(for: error)
        let message = Root.fullMessage(for: error)
        if code == .validationFailure {
            // Command-line mistakes are bad input too: status 2, as the spec says.
            StandardStream.error(message + "\n")
            exit(ExitStatus.badInput)
        }
        do {
            if code == .success, !message.isEmpty { try StandardStream.out(message + "\n") }
            // What a command printed before it ended with a status of its own (compare's table
            // before status 1) must have reached standard output too.
            try StandardDescriptors.flushStandardOutput()
        } catch {
            fail(error, as: root)
        }
        if code != .success, !message.isEmpty { StandardStream.error(message + "\n") }
        exit(code.rawValue)
    }
}
