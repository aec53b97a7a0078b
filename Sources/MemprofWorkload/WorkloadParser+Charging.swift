import MemprofCore
import MemprofInput
import MemprofYAMLReader

extension WorkloadParser {
    /// `charging: [{from: 23h, to: 31h}, ...]`: when the phone is on its charger, counted from the
    /// run's start, in order, apart, each ending after it starts and within the run.
    func parseCharging(_ node: NodeReader, duration: Microseconds) throws -> [ChargingInterval] {
        var intervals: [ChargingInterval] = []
        for item in try node.sequence() {
            let m = try item.mapping(allowed: ["from", "to"])
            let fromNode = try m.required("from"), toNode = try m.required("to")
            let from = try fromNode.duration(), to = try toNode.duration()
            guard to > from else {
                throw toNode.error("'to' (\(Format.duration(to))) must be after 'from' (\(Format.duration(from)))")
            }
            guard to <= duration else {
                throw toNode.error("'to' (\(Format.duration(to))) is past the workload's duration (\(Format.duration(duration)))")
            }
            if let last = intervals.last, from < last.endUs {
                throw fromNode.error("charging intervals must be in order and apart: this one starts at "
                    + "\(Format.duration(from)), before the one before it ends (\(Format.duration(last.endUs)))")
            }
            intervals.append(ChargingInterval(startUs: from, endUs: to))
        }
        return intervals
    }
}
