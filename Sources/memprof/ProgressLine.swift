import Foundation
import MemprofCore
import MemprofReport

/// A one-line progress display on stderr, only when stderr is a terminal.
final class ProgressLine: @unchecked Sendable {
    let durationUs: Microseconds
    let isEnabled = isatty(STDERR_FILENO) == 1
    private var shown = false

    init(durationUs: Microseconds) {
        self.durationUs = durationUs
    }

    func update(_ now: Microseconds) {
        let percent = durationUs > 0 ? Int(now * 100 / durationUs) : 100
        FileHandle.standardError.write(Data("\rsimulating \(Format.duration(now)) of \(Format.duration(durationUs)) (\(percent)%)".utf8))
        shown = true
    }

    func clear() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
