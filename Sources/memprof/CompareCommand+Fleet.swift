import ArgumentParser
import Foundation
import MemprofCompare
import MemprofFleet
import MemprofCommandLine
import MemprofOutput

/// `memprof compare BASE NEW` when both are fleet results: paired by seed (spec §12).
extension CompareCommand {
    func runFleet(thresholds: Thresholds, filter: MetricFilter) throws {
        guard alpha > 0, alpha < 1 else { throw BadInput("--alpha must be between 0 and 1, not \(alpha)") }
        guard FleetCompare.isFleet(base) && FleetCompare.isFleet(new) else {
            throw BadInput("compare needs two reports or two fleet results; \(FleetCompare.isFleet(base) ? new : base) is not a fleet result")
        }
        let comparison = try FleetCompare.compare(base: base, new: new, thresholds: thresholds, alpha: alpha,
                                                    filter: filter)
        try files.write(markdown: FleetCompareOutput.markdown(comparison, all: all),
                        html: { _ in FleetCompareOutput.html(comparison, all: all) },
                        junit: { FleetCompareOutput.junit(comparison) }, json: { try FleetCompareOutput.json(comparison) })
        try StandardStream.out(FleetCompareOutput.terminal(comparison, all: all))
        if comparison.hasRegression { throw ExitCode(1) }
    }
}
