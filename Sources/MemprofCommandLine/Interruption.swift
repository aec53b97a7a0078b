import Dispatch
import Foundation
import MemprofOutput
import MemprofPlatform

/// What memprof does when it is interrupted (Ctrl-C, `kill`, a closed terminal): runs what the
/// executable asked for first (`memprof` ends the programs it runs as work and what they
/// started, which its own exit would leave running), removes the
/// output it was writing under temporary names (``UnfinishedOutput``: a run's or a sweep's
/// staging folder, a file not yet renamed into place), says so on standard error, and exits
/// with the shell's status for the signal, 128 + its number (130 for SIGINT, 143 for SIGTERM,
/// 129 for SIGHUP).
///
/// The signals are received by a dispatch source, so the removal runs on a thread of its own,
/// never in a signal handler. A signal that was ignored when memprof started (`nohup`, a
/// background job of a non-interactive shell) stays ignored; one that was blocked (a parent
/// that started memprof from a thread blocking it, as some test runners do) is unblocked.
enum Interruption {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func removeUnfinishedOutputOnSignals(first: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "memprof.interruption")
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals {
            let previous = signal(number, SIG_IGN)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            sigaddset(&unblock, number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                first()
                interrupted(by: number)
            }
            source.resume()
            sources.append(source)
            handled.append(number)
        }
        // Before any other thread starts: the threads made later inherit this mask.
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The signals handled here (not those ignored from the start).
    nonisolated(unsafe) private(set) static var handled: [Int32] = []

    /// Gives the signals handled here their default action again (before another program
    /// replaces this one: an ignored signal would stay ignored in it).
    static func restoreDefaults() {
        for number in handled { signal(number, SIG_DFL) }
    }

    private static func interrupted(by number: Int32) -> Never {
        let removed = UnfinishedOutput.shared.removeAll()
        let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "signal \(number)"
        // On a terminal, a progress line may be showing: the message replaces it.
        let start = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
        StandardStream.error(start + "memprof: interrupted by \(name)"
            + (removed.isEmpty ? "" : "; the unfinished output was removed") + "\n")
        _exit(128 + number)
    }
}
