import MemprofField

/// The field a calibration reads: MetricKit payloads, or the summary `memprof field` wrote of
/// them (field.json). Either way it is groups of device-days (app, device type, OS version) that
/// a calibration matches to its cells and pools.
public struct CalibrationField: Sendable {
    public struct Group: Sendable, Equatable {
        /// `metaData.bundleIdentifier`; nil when the payloads do not say.
        public var app: String?
        public var deviceType: String
        public var osVersion: String
        public var days: Int
    }

    enum Source: Sendable {
        /// The payloads, and the group of each.
        case payloads([MetricKitPayload], group: [Int])
        /// field.json's cells, one a group.
        case summary([FieldSummary.Cell])
    }

    public private(set) var groups: [Group]
    /// Payloads read (for a summary, the payloads it counts).
    public private(set) var payloadCount: Int
    let source: Source

    public init(payloads: [MetricKitPayload]) {
        var index: [String: Int] = [:], groups: [Group] = [], group: [Int] = []
        for p in payloads {
            let key = [p.bundleIdentifier ?? "", p.deviceType, p.osVersion].joined(separator: "\u{0}")
            let g = index[key] ?? {
                groups.append(Group(app: p.bundleIdentifier, deviceType: p.deviceType, osVersion: p.osVersion, days: 0))
                index[key] = groups.count - 1
                return groups.count - 1
            }()
            groups[g].days += 1
            group.append(g)
        }
        self.groups = groups
        payloadCount = payloads.count
        source = .payloads(payloads, group: group)
    }

    public init(summary: FieldSummary) {
        groups = summary.cells.map { Group(app: $0.app == "-" ? nil : $0.app, deviceType: $0.deviceType, osVersion: $0.osVersion, days: $0.days) }
        payloadCount = summary.payloads
        source = .summary(summary.cells)
    }

    /// The days of `sets` of groups as one cell: from payloads, every day of each set in the
    /// payloads' order, set after set, summarised again (intervals from the days); from a
    /// summary, its cells pooled (``FieldSummary/pooled(_:)``). Not empty.
    func pooled(_ sets: [[Int]]) -> FieldSummary.Cell {
        switch source {
        case .payloads(let payloads, let group):
            var days: [MetricKitPayload] = []
            for set in sets {
                let wanted = Set(set)
                days += payloads.indices.filter { wanted.contains(group[$0]) }.map { payloads[$0] }
            }
            return FieldSummary.cell(days)
        case .summary(let cells):
            return FieldSummary.pooled(sets.flatMap { $0 }.map { cells[$0] })
        }
    }
}
