/// Recording background activities (spec §2.2): their start and how they ended (`handlerStart`,
/// `handlerEnd`; the activities and outcomes are in EventWords.swift).
extension Simulator {
    /// Records that `activity` started for app `i`, holding `bytes` (handlers), and whether it runs
    /// in the foreground (a push to the foreground app runs in place).
    mutating func recordStart(_ activity: BackgroundActivity, _ i: Int, bytes: Bytes? = nil, inForeground: Bool = false) {
        record(.handlerStart(activity, bytes: bytes, inForeground: inForeground), i)
    }

    /// Records how `activity` of app `i` ended.
    mutating func recordEnd(_ activity: BackgroundActivity, _ i: Int, _ outcome: HandlerOutcome) {
        record(.handlerEnd(activity, outcome: outcome), i)
    }
}
