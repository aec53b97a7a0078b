import Foundation
import MemprofCore
import MemprofOutput
import MemprofReport

/// Progress of a long simulation on stderr, paced by wall time, not by simulated work.
///
/// On a terminal, one line rewritten in place about ten times a second. Otherwise (a CI log, a
/// file), a line of its own every ``logInterval`` seconds, so a long run shows it is alive
/// without flooding the log; short runs print nothing.
final class ProgressLine: @unchecked Sendable {
    /// Seconds between lines when stderr is not a terminal: `$MEMPROF_PROGRESS_SECONDS`, default 5.
    static let logInterval: Double = ProcessInfo.processInfo.environment["MEMPROF_PROGRESS_SECONDS"]
        .flatMap(Double.init).map { max(0, $0) } ?? 5
    /// Seconds between rewrites of the line on a terminal.
    static let terminalInterval: Double = 0.1

    let durationUs: Microseconds
    let isTerminal: Bool
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastShown: UInt64
    private var shown = false

    init(durationUs: Microseconds, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.durationUs = durationUs
        self.isTerminal = isTerminal
        lastShown = started
    }

    /// Called by the simulation with the simulated time reached; shows it when it is time to.
    func update(_ now: Microseconds) {
        let wall = DispatchTime.now().uptimeNanoseconds
        let interval = isTerminal ? Self.terminalInterval : Self.logInterval
        guard Double(wall - lastShown) / 1e9 >= interval else { return }
        lastShown = wall
        let percent = durationUs > 0 ? Int(now * 100 / durationUs) : 100
        let text = "simulating \(Format.duration(now)) of \(Format.duration(durationUs)) (\(percent)%)"
        if isTerminal {
            StandardStream.error("\r\(text)")
        } else {
            let elapsed = Int(Double(wall - started) / 1e9)
            StandardStream.error("memprof: \(text), \(elapsed)s\n")
        }
        shown = true
    }

    /// Removes the line from a terminal once the simulation is done.
    func clear() {
        if shown && isTerminal { StandardStream.error("\r\u{1B}[K") }
    }
}
