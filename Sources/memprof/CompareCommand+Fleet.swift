import ArgumentParser
import Foundation
import MemprofCompare
import MemprofFleet
import MemprofOutput

/// `memprof compare BASE NEW` when both are fleet results: paired by seed (spec §12).
extension CompareCommand {
    func runFleet(thresholds: Thresholds) throws {
        guard alpha > 0, alpha < 1 else { throw BadInput("--alpha must be between 0 and 1, not \(alpha)") }
        guard FleetCompare.isFleet(base) && FleetCompare.isFleet(new) else {
            throw BadInput("compare needs two reports or two fleet results; \(FleetCompare.isFleet(base) ? new : base) is not a fleet result")
        }
        let comparison = try FleetCompare.compare(base: base, new: new, thresholds: thresholds, alpha: alpha)
        let markdownText = FleetCompareOutput.markdown(comparison, all: all)
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        try Terminal.appendToStepSummary(markdownText)
        if let html { try AtomicFiles.write(Data(FleetCompareOutput.html(comparison, all: all).utf8), to: html) }
        if let junit { try AtomicFiles.write(Data(FleetCompareOutput.junit(comparison).utf8), to: junit) }
        if let json { try AtomicFiles.write(try FleetCompareOutput.json(comparison), to: json) }
        print(FleetCompareOutput.terminal(comparison, all: all), terminator: "")
        if comparison.hasRegression { throw ExitCode(1) }
    }
}
