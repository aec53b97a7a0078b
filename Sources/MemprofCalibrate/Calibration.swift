import Foundation
import MemprofFleet
import MemprofInput
import MemprofReportReader

/// What `memprof calibrate` found: calibration.json (`memprof.calibration/1`). Every rate is per
/// device-day; every parameter value is in the unit of its kind (bytes, microseconds, or the
/// bare number); intervals are 95%. The Calibration format reference describes each member.
public struct Calibration: Codable, Sendable, Equatable {
    public static let schemaName = "memprof.calibration/1"

    /// How the search ended.
    public enum Outcome: String, Codable, Sendable, Equatable {
        /// Every fitted cell's simulated rates lie inside the field's 95% intervals.
        case fit
        /// The search converged (or tried every point it had) and the best point leaves some
        /// simulated rate outside the field's interval: the declared ranges do not produce the field.
        case noFit
        /// The evaluation budget ran out before either.
        case budgetSpent
    }

    public var schema: String = schemaName
    public var memprofVersion: String
    public var outcome: Outcome
    /// The outcome in a sentence, as the terminal says it.
    public var stop: String
    public var app: App
    public var field: FieldSource
    public var sweep: SweepSource
    public var seeds: Seeds
    public var objective: Objective
    public var budget: Budget
    public var parameters: [Parameter]
    /// Keys the field measures directly (not fitted), pooled over every matched day: what a cell
    /// without field days takes. Each cell's own values are its ``Cell/measured``.
    public var measured: [Measured]
    public var cells: [Cell]
    /// Every evaluation in the order it was made: the design, the local search, the profiles,
    /// and the final run of every cell at the fitted values.
    public var evaluations: [Evaluation]

    public struct App: Codable, Sendable, Equatable {
        /// The workload's key (`apps.<key>`).
        public var key: String
        /// `metaData.bundleIdentifier` of the field's payloads read.
        public var bundleIdentifier: String
    }

    public struct FieldSource: Codable, Sendable, Equatable {
        /// The paths given (payload files or folders, or a field.json).
        public var paths: [String]
        public var payloads: Int
        /// Device-days of the app in the field, and of them those in cells the sweep runs.
        public var days: Int
        public var matchedDays: Int
        /// Device types the field has that no cell of the sweep runs (with their days).
        public var unmatched: [Unmatched]
    }

    public struct Unmatched: Codable, Sendable, Equatable {
        public var deviceType: String
        public var osVersion: String
        public var days: Int
    }

    public struct SweepSource: Codable, Sendable, Equatable {
        /// The base sweep file.
        public var file: String
        /// The calibrated sweep's name and its file in the output folder.
        public var name: String
        public var calibratedFile: String
        public var workload: String
    }

    /// The seeds every evaluation runs (common random numbers).
    public struct Seeds: Codable, Sendable, Equatable {
        /// As a sweep file writes them: `1..300`.
        public var text: String
        public var first: UInt64
        public var count: Int
        /// The widest ratio of a simulated interval to the field's at the pilot evaluation (the
        /// seeds are chosen to bring it to ``target``), nil when no statistic has spread.
        public var ratio: Double?
        public var target: Double
        /// True when `maxSeeds` stopped the count short of the target.
        public var capped: Bool
    }

    /// The method of simulated moments' distance: Σ over fitted cells and statistics of
    /// (simulated − field)² ÷ (var field + var simulated), at the fitted values.
    public struct Objective: Codable, Sendable, Equatable {
        public var value: Double
        /// Statistics in play: those the field or the fitted simulation sees above zero.
        public var statistics: Int
        /// The chi-square 95% quantile for ``statistics`` degrees of freedom: parameter values
        /// whose objective stays below it are consistent with the field.
        public var bound: Double
    }

    public struct Budget: Codable, Sendable, Equatable {
        /// The search's budget (design and local search).
        public var evaluations: Int
        /// Evaluations the search made.
        public var used: Int
        /// Evaluations of the profiles and the final run.
        public var profile: Int
        public var final: Int
    }

    public struct Parameter: Codable, Sendable, Equatable {
        public var key: String
        /// `size` (bytes), `duration` (microseconds) or `number`.
        public var kind: String
        public var low: Double
        public var high: Double
        /// The bounds as the sweep writes them (`1500MB`).
        public var lowText: String
        public var highText: String
        public var fitted: Double
        /// The fitted value as the calibrated sweep writes it.
        public var fittedText: String
        /// The values whose objective stays within the bound, along the profile and at every point
        /// evaluated; nil when the fitted point is above the bound (no fit).
        public var interval: Interval?
        /// False when the interval is the whole declared range: the field does not constrain it.
        public var constrained: Bool
        /// The objective along this parameter, the others held at their fitted values.
        public var profile: [ProfilePoint]
    }

    public struct Interval: Codable, Sendable, Equatable {
        public var low: Double
        public var high: Double
    }

    public struct ProfilePoint: Codable, Sendable, Equatable {
        public var value: Double
        public var objective: Double
    }

    public struct Measured: Codable, Sendable, Equatable {
        public var key: String
        /// As the calibrated sweep writes it.
        public var value: String
        /// What in the field it comes from.
        public var source: String
    }

    /// One cell of the sweep: its role, the field against the simulation at the fitted values.
    public struct Cell: Codable, Sendable, Equatable {
        public var index: Int
        /// `device=iphone-11`, as fleet.json labels cells.
        public var label: String
        /// The matrix values of the cell.
        public var overrides: [Override]
        /// The product code payloads name for its device (`iPhone12,1`), and the OS versions of
        /// the field's payloads pooled into the cell.
        public var deviceType: String
        public var osVersions: [String]
        /// `fit` (in the objective), `heldOut` (the field has it, the fit left it out: a
        /// prediction), `noField` (the field has no day of it: a prediction without a truth).
        public var role: Role
        public var days: Int
        /// The cell's share of the field's matched days (the calibrated sweep's `mix`).
        public var share: Double
        /// Every statistic's simulated rate inside the field's interval (nil without a field).
        public var inside: Bool?
        /// The cell's part of the objective (0 for cells outside the fit).
        public var objective: Double
        /// Keys set from the field for this cell (the calibrated sweep's `per:` entry of its
        /// device): from its own days, or pooled over every matched day for a `noField` cell, as
        /// each source says. Absent in a calibration.json of a memprof that pooled them for every cell.
        public var measured: [Measured]?
        public var statistics: [Statistic]
        /// Foreground and background seconds a day: compared, not fitted.
        public var time: [Statistic]
    }

    public enum Role: String, Codable, Sendable, Equatable {
        case fit, heldOut, noField
    }

    public struct Override: Codable, Sendable, Equatable {
        public var keyPath: String
        public var value: String
    }

    /// One exit counter (or time) of one cell: the field's rate and interval, the simulated rate
    /// and interval at the fitted values.
    public struct Statistic: Codable, Sendable, Equatable {
        /// `background` or `foreground` (`time` for times).
        public var side: String
        /// The MetricKit counter (`cumulativeMemoryPressureExitCount`) or time key (`foregroundSeconds`).
        public var counter: String
        public var field: Rate?
        public var simulated: Rate
        /// simulated − field, per day.
        public var residual: Double?
        /// residual² ÷ (var field + var simulated): this statistic's part of the objective.
        public var contribution: Double?
        public var inside: Bool?
    }

    public struct Rate: Codable, Sendable, Equatable {
        public var perDay: Double
        public var low: Double
        public var high: Double
        /// How the interval was taken: `garwood`, `bootstrap`, `normal` or `none` (as field.json).
        public var interval: String
    }

    public struct Evaluation: Codable, Sendable, Equatable {
        public var index: Int
        /// `pilot`, `design`, `search`, `profile` or `final`.
        public var phase: String
        /// One value per parameter, in their order.
        public var values: [Double]
        public var objective: Double
        /// Every fitted cell's rates inside the field's intervals.
        public var inside: Bool
    }

    /// calibration.json: sorted keys, two-space indentation, a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads calibration.json back (what a what-if or a page reads), every error placed in
    /// `file` (`JSONFile.read(_:from:file:check:)`): the line and column, the key, what is wrong.
    public static func decode(_ data: Data, file: String = "calibration.json") throws(WorkloadError) -> Calibration {
        try JSONFile.read(Calibration.self, from: data, file: file) { try $0.check() }
    }

    /// What a reader relies on beyond the shape: the schema, and every parameter's values finite,
    /// its interval in order, its kind one memprof writes.
    func check() throws {
        typealias Key = JSONFile.Key
        func wrong(_ path: [Key], _ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: path, debugDescription: message))
        }
        guard schema == Self.schemaName else { throw wrong([Key("schema")], "'\(schema)' is not \(Self.schemaName)") }
        for (name, value) in [("ratio", seeds.ratio), ("target", seeds.target)] {
            guard let value else { continue }
            guard value.isFinite, value >= 0, value <= 1e6 else {
                throw wrong([Key("seeds"), Key(name)], "\(value) is out of range (0 to 1e6)")
            }
        }
        for (i, p) in parameters.enumerated() {
            let at = [Key("parameters"), Key(i)]
            guard SweepFile.Calibrate.Kind(rawValue: p.kind) != nil else {
                throw wrong(at + [Key("kind")], "'\(p.kind)' is not size, duration or number")
            }
            for (name, value) in [("low", p.low), ("high", p.high), ("fitted", p.fitted)] where !value.isFinite || abs(value) > 1e18 {
                throw wrong(at + [Key(name)], "\(value) is out of range (at most 1e18)")
            }
            guard p.low <= p.high else { throw wrong(at + [Key("high")], "high (\(p.high)) is below low (\(p.low))") }
            if let interval = p.interval {
                for (name, value) in [("low", interval.low), ("high", interval.high)] where !value.isFinite || abs(value) > 1e18 {
                    throw wrong(at + [Key("interval"), Key(name)], "\(value) is out of range (at most 1e18)")
                }
                guard interval.low <= interval.high else {
                    throw wrong(at + [Key("interval")], "the interval \(interval.low) to \(interval.high) is not in order")
                }
            }
        }
    }
}
