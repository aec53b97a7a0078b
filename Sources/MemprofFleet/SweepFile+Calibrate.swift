import MemprofCore
import MemprofField
import MemprofInput
import MemprofYAMLReader
import MemprofWorkload

/// A sweep file's `calibrate:` section: what `memprof calibrate` fits to the field. `memprof
/// sweep` runs the sweep without it.
///
///     calibrate:
///       app: news                        # the team's app: the workload's key for it
///       bundleIdentifier: com.example.news
///       parameters:
///         - {key: apps.game.maxFootprint, low: 1500MB, high: 3000MB}
///         - {key: generate.switchEvery, low: 2m, high: 20m}
///       budget: 40
///       maxSeeds: 1000
///       holdOut: [iphone-15]
extension SweepFile {
    public struct Calibrate: Sendable, Equatable {
        /// How a parameter's values are written: a size (`612MB`), a duration (`5m`) or a bare number.
        public enum Kind: String, Sendable, Equatable, Codable {
            case size, duration, number

            /// `value` as the workload reads it, exactly: whole bytes (`B`), whole microseconds
            /// (`us`), or the number with up to six decimals.
            public func text(_ value: Double) -> String {
                switch self {
                case .size: "\(Int64(value.rounded()))B"
                case .duration: "\(Int64(value.rounded()))us"
                case .number: Parameter.decimal(value)
                }
            }

            /// `value` in words, as memprof prints sizes and durations (`Format`): `1522 MB`,
            /// `4m48s`, `0.35`. Sizes in megabytes (of 1024 × 1024 bytes, as the workload counts
            /// them), whole from 100 MB: a fitted size in gigabytes to one decimal would hide its interval.
            public func words(_ value: Double) -> String {
                switch self {
                case .size: value >= 100 * 1_048_576 ? "\(Int((value / 1_048_576).rounded())) MB" : Format.bytes(Bytes(value.rounded()))
                case .duration: Format.duration(Microseconds(value.rounded()))
                case .number: FieldSummary.number(value)
                }
            }

            /// A value as ``text(_:)`` writes it (`1468006400B`, `288281250us`, `0.35`) in
            /// ``words(_:)`` (`1400 MB`, `4m48s`, `0.35`).
            public static func words(text: String) -> String {
                if text.hasSuffix("us"), let us = Int64(text.dropLast(2)) { return Kind.duration.words(Double(us)) }
                if text.hasSuffix("B"), let bytes = Int64(text.dropLast()) { return Kind.size.words(Double(bytes)) }
                if let number = Double(text) { return Kind.number.words(number) }
                return text
            }
        }

        /// One key the field cannot see, with the range the search may try.
        public struct Parameter: Sendable, Equatable {
            public var key: String
            public var kind: Kind
            /// In bytes, microseconds, or as written.
            public var low: Double
            public var high: Double
            public var lowText: String
            public var highText: String
            /// Where the entry is written, for the errors about it.
            public var origin: WorkloadOverride.Origin

            /// The override that sets this key to `value` (bytes, microseconds or a number),
            /// located where the parameter is declared.
            public func override(_ value: Double) -> WorkloadOverride {
                WorkloadOverride(keyPath: key, value: text(value), origin: origin)
            }

            /// `value` as the workload reads it, exactly: whole bytes (`B`), whole microseconds
            /// (`us`), or the number with up to six decimals.
            public func text(_ value: Double) -> String { kind.text(value) }

            static func decimal(_ v: Double) -> String {
                if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
                var text = String(format: "%.6f", v)
                while text.hasSuffix("0") { text.removeLast() }
                return text
            }
        }

        /// The workload's key of the team's app (`apps.<app>`).
        public var app: String
        /// The field's `metaData.bundleIdentifier` of that app; nil: the only one the field has,
        /// or `app` itself.
        public var bundleIdentifier: String?
        public var parameters: [Parameter]
        /// Evaluations the search may make (the design and the local search; the profiles add
        /// ``profilePoints`` per parameter).
        public var budget: Int
        /// The most seeds an evaluation runs per cell: at least ``minSeeds``.
        public var maxSeeds: Int
        /// Points of each parameter's profile.
        public var profilePoints: Int
        /// Matrix values (the `device` axis's) whose cells the fit leaves out and predicts.
        public var holdOut: [String]
        public var line: Int
        public var column: Int

        public static let maxParameters = 6
        public static let maxBudget = 1000
        public static let defaultBudget = 40
        public static let defaultMaxSeeds = 1000
        /// The fewest seeds an evaluation runs, so the lowest `maxSeeds` accepted.
        public static let minSeeds = 20
        public static let defaultProfilePoints = 8
        static let keys = ["app", "bundleIdentifier", "parameters", "budget", "maxSeeds", "profilePoints", "holdOut"]
    }

    static func parseCalibrate(_ r: NodeReader, file: String, axes: [Axis]) throws -> Calibrate {
        let m = try r.mapping(allowed: Calibrate.keys)
        let appReader = try m.required("app")
        let app = try appReader.string()
        guard !app.isEmpty else { throw appReader.error("expected the workload's key of the team's app, such as news") }
        let bundle = try m["bundleIdentifier"]?.string()
        let parametersReader = try m.required("parameters")
        let items = try parametersReader.sequence()
        guard !items.isEmpty else { throw parametersReader.error("declare at least one parameter: {key: …, low: …, high: …}") }
        guard items.count <= Calibrate.maxParameters else {
            throw parametersReader.error("\(items.count) parameters; at most \(Calibrate.maxParameters) "
                + "(exit rates identify two or three)")
        }
        var parameters: [Calibrate.Parameter] = []
        for item in items {
            let p = try item.mapping(allowed: ["key", "low", "high"])
            let keyReader = try p.required("key")
            let key = try keyReader.string()
            let lowReader = try p.required("low"), highReader = try p.required("high")
            let origin = WorkloadOverride.Origin(file: file, keyLine: keyReader.line, keyColumn: keyReader.column,
                                                 valueLine: lowReader.line, valueColumn: lowReader.column)
            try WorkloadOverride(keyPath: key, value: "", origin: origin).checkKeyPath()
            guard !parameters.contains(where: { $0.key == key }) else { throw keyReader.error("parameter '\(key)' is declared twice") }
            guard !axes.contains(where: { $0.keyPath == key }) else {
                throw keyReader.error("'\(key)' is a key of the matrix; a parameter is one value for every cell")
            }
            guard key != "seed" else { throw keyReader.error("'seed' cannot be fitted: every evaluation runs the same seeds") }
            let (kind, low, lowText) = try quantity(lowReader)
            let (highKind, high, highText) = try quantity(highReader)
            guard highKind == kind else {
                throw highReader.error("high is a \(highKind.rawValue) but low is a \(kind.rawValue); write both alike")
            }
            guard low < high else { throw highReader.error("high (\(highText)) must be above low (\(lowText))") }
            parameters.append(.init(key: key, kind: kind, low: low, high: high, lowText: lowText, highText: highText, origin: origin))
        }
        let budget = try m["budget"]?.int(in: 2...Calibrate.maxBudget) ?? Calibrate.defaultBudget
        var maxSeeds = Calibrate.defaultMaxSeeds
        if let r = m["maxSeeds"] {
            maxSeeds = try r.int(in: Int.min...SweepFile.maxSeeds)
            guard maxSeeds >= Calibrate.minSeeds else {
                throw r.error("\(maxSeeds) is below \(Calibrate.minSeeds), the fewest seeds an evaluation runs; "
                    + "write \(Calibrate.minSeeds) or more")
            }
        }
        let profilePoints = try m["profilePoints"]?.int(in: 0...64) ?? Calibrate.defaultProfilePoints
        var holdOut: [String] = []
        if let h = m["holdOut"] {
            let deviceAxis = axes.first { $0.keyPath == "device" || $0.keyPath == "device.preset" }
            for item in try h.sequence() {
                let value = item.flowText() ?? ""
                guard let deviceAxis, deviceAxis.values.contains(where: { $0.value == value }) else {
                    throw item.error("'\(value)' is not a value of the matrix's device axis"
                        + (deviceAxis.map { " (" + $0.values.map(\.value).joined(separator: ", ") + ")" } ?? "; the sweep has no device matrix"))
                }
                holdOut.append(value)
            }
        }
        return Calibrate(app: app, bundleIdentifier: bundle, parameters: parameters, budget: budget, maxSeeds: maxSeeds,
                         profilePoints: profilePoints, holdOut: holdOut, line: r.line, column: r.column)
    }

    /// A bound as written: a size, a duration, or a bare number.
    static func quantity(_ r: NodeReader) throws -> (SweepFile.Calibrate.Kind, Double, String) {
        let text = try r.string().trimmingSpaces
        if let number = Quantity.number(text) {
            switch number {
            case .success(let v): return (.number, v, text)
            case .failure(let e): throw r.error(e.message)
            }
        }
        if case .success(let bytes) = Quantity.size(text) { return (.size, Double(bytes), text) }
        if case .success(let us) = Quantity.duration(text) { return (.duration, Double(us), text) }
        throw r.error("'\(text)' is not a size (612MB), a duration (5m) or a number")
    }
}
