import Foundation
import MemprofFleet
import MemprofInput
import MemprofOutput

/// What a what-if takes from a calibration (`memprof whatif SWEEP --calibration calibration.json`):
/// the team's app and each fitted parameter with the ends of its 95% interval, to run the
/// what-if again at each end ("how sure is the fit").
extension Calibration {
    /// Reads calibration.json (at most `InputText.maxBytes`, the bound on every input file).
    ///
    /// - Throws: `BadInput` (exit 2): `path:line:col: key: what is wrong`.
    public static func read(_ path: String) throws -> Calibration {
        switch InputFile.read(path, maxBytes: InputText.maxBytes) {
        case .success(let bytes):
            do {
                return try decode(Data(bytes), file: path)
            } catch {
                throw BadInput("\(error) (not a calibration.json of memprof calibrate)")
            }
        case .failure(let refusal):
            throw BadInput("\(path): \(refusal.message)")
        }
    }

    /// The fitted parameters as a what-if re-runs them: the fitted value and the ends of the 95%
    /// interval as the sweep writes values. A parameter no value of which is consistent with the
    /// field (no interval) is left out, and said so in `notes`.
    public var whatIfParameters: (parameters: [WhatIfPlan.Parameter], notes: [String]) {
        var parameters: [WhatIfPlan.Parameter] = []
        var notes: [String] = []
        if outcome != .fit { notes.append("the calibration ended without a fit (\(stop)): the what-if answers for the sweep as written") }
        for p in self.parameters {
            guard let interval = p.interval, let kind = SweepFile.Calibrate.Kind(rawValue: p.kind) else {
                notes.append("\(p.key): no value along its profile is consistent with the field; not re-run at an interval's ends")
                continue
            }
            parameters.append(WhatIfPlan.Parameter(keyPath: p.key, fitted: p.fittedText, low: kind.text(interval.low),
                                                   high: kind.text(interval.high), constrained: p.constrained))
        }
        return (parameters, notes)
    }
}
