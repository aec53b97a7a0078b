import Foundation
import MemprofInput
import MemprofYAMLReader
import MemprofOutput
import MemprofWorkload

/// A sweep file (spec §12): a workload, seeds, and a matrix of key paths whose every
/// combination is a cell.
///
///     memprof: 1
///     sweep: mail-on-small-phones
///     workload: phone-day
///     seeds: 1..1000
///     set: {device.osVersion: "iOS 18.5"}
///     matrix:
///       device: [iphone-6-plus, ipad-air-2]
///       apps.mail.launch.footprint: [45MB, 60MB]
///     mix:
///       device: {iphone-6-plus: 70%, ipad-air-2: 30%}
///     per:
///       device:
///         ipad-air-2: {apps.mail.launch.footprint: 50MB}
public struct SweepFile: Sendable, Equatable {
    /// One key path of the matrix and the values it takes, in file order.
    public struct Axis: Sendable, Equatable {
        public var keyPath: String
        /// One override per value, each located where its value is written.
        public var values: [WorkloadOverride]

        public init(keyPath: String, values: [WorkloadOverride]) {
            self.keyPath = keyPath
            self.values = values
        }
    }

    /// Names the output folder: `[a-z0-9-]+`.
    public var name: String
    /// The workload argument as `memprof run` takes it: a path (resolved against the sweep
    /// file's folder) or a built-in name.
    public var workload: String
    public var seeds: [UInt64]
    /// How the seeds were written (`1..1000`, or the list), for fleet.json.
    public var seedsText: String
    public var axes: [Axis]
    /// One matrix key's population shares (`mix:`): each of its values and the share of the
    /// population that has it, adding up to 100%.
    public struct Mix: Sendable, Equatable {
        public var keyPath: String
        /// In the matrix's order of the values.
        public var shares: [(value: String, share: Double)]

        public static func == (a: Mix, b: Mix) -> Bool {
            a.keyPath == b.keyPath && a.shares.map(\.value) == b.shares.map(\.value) && a.shares.map(\.share) == b.shares.map(\.share)
        }
    }

    /// `mix:`: the population shares of some matrix keys' values (a team's device mix), in
    /// matrix order; a cell's share is the product of its values' shares.
    public var mix: [Mix] = []
    /// `set:`: key paths every cell takes before its matrix values (as `memprof sweep --set`
    /// does), each located where its value is written.
    public var set: [WorkloadOverride] = []
    /// `per:`: key paths a cell takes by one of its matrix values (a team's app measured on each
    /// device), in matrix order: after `set:`, before `memprof sweep --set` and the matrix values.
    public var per: [Per] = []

    /// One matrix key's `per:` entries: for some of its values, the keys a cell with that value takes.
    public struct Per: Sendable, Equatable {
        public var keyPath: String
        /// In the matrix's order of the values; a value without an entry is left out.
        public var values: [Entry]

        public struct Entry: Sendable, Equatable {
            public var value: String
            /// Each located where its value is written.
            public var overrides: [WorkloadOverride]

            public init(value: String, overrides: [WorkloadOverride]) {
                self.value = value
                self.overrides = overrides
            }
        }

        public init(keyPath: String, values: [Entry]) {
            self.keyPath = keyPath
            self.values = values
        }
    }

    /// The `per:` keys of the cell whose matrix values are `matrix` (one override per axis), in
    /// matrix order.
    public func perCell(_ matrix: [WorkloadOverride]) -> [WorkloadOverride] {
        per.flatMap { p in
            matrix.first { $0.keyPath == p.keyPath }.flatMap { own in p.values.first { $0.value == own.value }?.overrides } ?? []
        }
    }
    /// How many worst runs each metric lists.
    public var worst: Int
    /// The file, for error messages, and where its `workload` value is.
    public var file: String
    public var workloadLine = 0
    public var workloadColumn = 0
    /// `calibrate:`: the parameters `memprof calibrate` fits to the field (``Calibrate``); `memprof
    /// sweep` runs the sweep without them.
    public var calibrate: Calibrate?

    /// The most seeds, cells and runs one sweep may have: every resource has a bound.
    public static let maxSeeds = 1_000_000
    public static let maxCells = 4_096
    public static let maxRuns = 20_000_000
    static let keys = ["memprof", "sweep", "workload", "seeds", "set", "matrix", "mix", "per", "worst", "calibrate"]

    /// Reads a sweep file, or a built-in sweep by name (``BuiltinSweeps``).
    ///
    /// - Throws: `WorkloadError` naming file, line, column and key, for bad input.
    public static func load(_ path: String) throws -> SweepFile {
        let text: String
        switch InputFile.read(path, maxBytes: InputText.maxBytes) {
        case .success(let bytes):
            // A UTF-8 byte order mark (some editors write one) is not part of the text.
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            text = try InputText.decode(Data(body), file: path)
        case .failure(.missing):
            guard let builtin = BuiltinSweeps.named(path) else { throw BuiltinSweeps.unknown(path) }
            return try parse(builtin, file: "builtin:\(path)")
        case .failure(let refusal):
            throw WorkloadError(file: path, line: 0, column: 0, keyPath: "", message: refusal.message)
        }
        var sweep = try parse(text, file: path)
        // A workload path is read from the sweep file's folder, as a careful user expects.
        let folder = (path as NSString).deletingLastPathComponent
        let beside = (folder as NSString).appendingPathComponent(sweep.workload)
        if !folder.isEmpty, !sweep.workload.hasPrefix("/"), FileManager.default.fileExists(atPath: beside) {
            sweep.workload = beside
        }
        return sweep
    }

    /// Parses a sweep file's text through the workload's reader (`NodeReader`), so its errors
    /// are located and worded like a workload's. The matrix's values become overrides, as flow
    /// text, each located where it is written.
    public static func parse(_ text: String, file: String) throws -> SweepFile {
        let root = try NodeReader.root(of: text, file: file)
        let top = try root.mapping(allowed: keys)
        let version = try top.required("memprof")
        guard (try? version.int()) == 1 else { throw version.error("this memprof reads sweep format version 1") }
        let nameReader = try top.required("sweep")
        let name = try nameReader.string()
        guard !name.isEmpty, name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw nameReader.error("'\(name)' is not a valid name; use lowercase letters, digits and '-'")
        }
        let workloadReader = try top.required("workload")
        let workload = try workloadReader.string()
        let seedsReader = try top.required("seeds")
        let (seeds, seedsText) = try parseSeeds(seedsReader)
        let worst = try top["worst"]?.int(in: 0...100) ?? 5
        let set = try top["set"].map { try overrides($0, file: file) } ?? []
        var axes: [Axis] = []
        var cells = 1
        if let matrix = top["matrix"] {
            guard let pairs = matrix.keysAndValues else { throw matrix.error("expected a mapping of key paths to lists of values") }
            for (keyReader, valuesReader) in pairs {
                let key = try keyReader.string()
                guard !axes.contains(where: { $0.keyPath == key }) else { throw keyReader.error("key path '\(key)' appears twice") }
                // Every cell runs every seed of `seeds`, which sets the workload's seed: an axis of
                // seeds would be overridden in every run, its cells the same.
                guard key != "seed" else {
                    throw keyReader.error("the matrix cannot vary 'seed': every cell runs each seed of 'seeds'; "
                        + "list the seeds there")
                }
                guard let items = try? valuesReader.sequence(), !items.isEmpty else {
                    throw valuesReader.error("expected a non-empty list of values, such as [45MB, 60MB]")
                }
                var values: [WorkloadOverride] = []
                for itemReader in items {
                    let origin = WorkloadOverride.Origin(file: file, keyLine: keyReader.line, keyColumn: keyReader.column,
                                                         valueLine: itemReader.line, valueColumn: itemReader.column)
                    guard let value = itemReader.flowText() else {
                        throw itemReader.error("the value is longer than \(NodeReader.flowTextLimit) bytes as flow text")
                    }
                    let override = WorkloadOverride(keyPath: key, value: value, origin: origin)
                    guard !values.contains(where: { $0.value == override.value }) else {
                        throw WorkloadError(file: file, line: itemReader.line, column: itemReader.column,
                                            keyPath: valuesReader.path, message: "the value '\(override.value)' appears twice")
                    }
                    values.append(override)
                }
                try values[0].checkKeyPath()
                cells *= values.count
                guard cells <= maxCells else { throw valuesReader.error("the matrix has more than \(maxCells) cells") }
                axes.append(Axis(keyPath: key, values: values))
            }
        }
        let mix = try top["mix"].map { try parseMix($0, axes: axes) } ?? []
        let per = try top["per"].map { try parsePer($0, axes: axes, file: file) } ?? []
        guard cells * seeds.count <= maxRuns else {
            throw seedsReader.error("\(cells) cells × \(seeds.count) seeds is more than \(maxRuns) runs")
        }
        let calibrate = try top["calibrate"].map { try parseCalibrate($0, file: file, axes: axes) }
        return SweepFile(name: name, workload: workload, seeds: seeds, seedsText: seedsText, axes: axes, mix: mix, set: set,
                         per: per, worst: worst, file: file, workloadLine: workloadReader.line,
                         workloadColumn: workloadReader.column, calibrate: calibrate)
    }

    /// A mapping of key paths to values (`set:`, and each value's entry of `per:`), each
    /// override located where its key and value are written.
    static func overrides(_ r: NodeReader, file: String) throws -> [WorkloadOverride] {
        guard let pairs = r.keysAndValues else {
            throw r.error("expected a mapping of key paths to values, such as {apps.mail.launch.footprint: 50MB}")
        }
        var out: [WorkloadOverride] = []
        for (keyReader, valueReader) in pairs {
            let origin = WorkloadOverride.Origin(file: file, keyLine: keyReader.line, keyColumn: keyReader.column,
                                                 valueLine: valueReader.line, valueColumn: valueReader.column)
            guard let value = valueReader.flowText() else {
                throw valueReader.error("the value is longer than \(NodeReader.flowTextLimit) bytes as flow text")
            }
            let override = WorkloadOverride(keyPath: try keyReader.string(), value: value, origin: origin)
            try override.checkKeyPath()
            out.append(override)
        }
        return out
    }

    /// `per:` maps matrix keys to some of their values, each with the key paths a cell with that
    /// value takes. A key path may not be a matrix key, lie under one or hold one (the matrix
    /// value would replace it, or it the matrix value), nor be set under two matrix keys (a
    /// cell would take both).
    static func parsePer(_ r: NodeReader, axes: [Axis], file: String) throws -> [Per] {
        guard let pairs = r.keysAndValues else {
            throw r.error("expected a mapping of matrix keys to the keys each value sets, such as "
                + "device: {iphone-11: {apps.news.averageSuspendedMemory: 180MB}}")
        }
        var pers: [Per] = []
        // Each key path set under `per:`, and the matrix key it is set under.
        var setUnder: [String: String] = [:]
        for (keyReader, entriesReader) in pairs {
            let key = try keyReader.string()
            guard let axis = axes.first(where: { $0.keyPath == key }) else {
                throw keyReader.error(notAMatrixKey(key, axes: axes, section: "per gives the keys a cell takes by a matrix key's value"))
            }
            guard let entries = entriesReader.keysAndValues else {
                throw entriesReader.error("expected the keys each value of \(key) sets, such as {\(axis.values[0].value): {KEY: VALUE}}")
            }
            var found: [String: [WorkloadOverride]] = [:]
            for (valueReader, setReader) in entries {
                let value = valueReader.flowText() ?? ""
                guard axis.values.contains(where: { $0.value == value }) else {
                    throw valueReader.error("'\(value)' is not a value of the matrix's \(key) ("
                        + axis.values.map(\.value).joined(separator: ", ") + ")")
                }
                let overrides = try overrides(setReader, file: file)
                for o in overrides {
                    if let matrix = axes.first(where: { Self.overlaps(o.keyPath, $0.keyPath) }) {
                        let what = matrix.keyPath == o.keyPath ? "is a key of the matrix"
                            : o.keyPath.hasPrefix(matrix.keyPath + ".") ? "lies under the matrix key \(matrix.keyPath)"
                            : "holds the matrix key \(matrix.keyPath)"
                        throw WorkloadError(file: file, line: o.origin.keyLine, column: o.origin.keyColumn, keyPath: "per.\(key).\(value)",
                                            message: "'\(o.keyPath)' \(what): a cell's matrix value sets it; vary it in the matrix "
                                                + "or set another key")
                    }
                    if let other = setUnder[o.keyPath], other != key {
                        throw WorkloadError(file: file, line: o.origin.keyLine, column: o.origin.keyColumn, keyPath: "per.\(key).\(value)",
                                            message: "'\(o.keyPath)' is also set under per.\(other): a cell would take both; "
                                                + "set it under one matrix key")
                    }
                    setUnder[o.keyPath] = key
                }
                found[value] = overrides
            }
            pers.append(Per(keyPath: key, values: axis.values.compactMap { v in found[v.value].map { Per.Entry(value: v.value, overrides: $0) } }))
        }
        return axes.compactMap { axis in pers.first { $0.keyPath == axis.keyPath } }
    }

    /// Whether one key path is the other or lies under it.
    public static func overlaps(_ a: String, _ b: String) -> Bool {
        a == b || a.hasPrefix(b + ".") || b.hasPrefix(a + ".") || a.hasPrefix(b + "[") || b.hasPrefix(a + "[")
    }

    /// `mix:` maps matrix keys to a share for each of their values (`40%`), adding up to 100%.
    static func parseMix(_ r: NodeReader, axes: [Axis]) throws -> [Mix] {
        guard let pairs = r.keysAndValues else {
            throw r.error("expected a mapping of matrix keys to the share of each value, such as device: {iphone-11: 60%, iphone-15: 40%}")
        }
        var mixes: [Mix] = []
        for (keyReader, sharesReader) in pairs {
            let key = try keyReader.string()
            guard let axis = axes.first(where: { $0.keyPath == key }) else {
                throw keyReader.error(notAMatrixKey(key, axes: axes, section: mixSection))
            }
            mixes.append(try parseShares(sharesReader, of: axis))
        }
        return axes.compactMap { axis in mixes.first { $0.keyPath == axis.keyPath } }
    }

    static let mixSection = "mix gives the shares of a matrix key's values"

    static func notAMatrixKey(_ key: String, axes: [Axis], section: String) -> String {
        "'\(key)' is not a key of the matrix; \(section)"
            + (axes.isEmpty ? "" : " (the matrix has \(axes.map(\.keyPath).joined(separator: ", ")))")
    }

    /// One matrix key's shares (`{iphone-11: 60%, iphone-15: 40%}`): every value of the axis
    /// with its share, adding up to 100%.
    static func parseShares(_ sharesReader: NodeReader, of axis: Axis) throws -> Mix {
        let key = axis.keyPath
        guard let entries = sharesReader.keysAndValues else {
            throw sharesReader.error("expected a share for each value of \(key), such as {\(axis.values[0].value): 100%}")
        }
        var shares: [String: (Double, NodeReader)] = [:]
        for (valueReader, shareReader) in entries {
            let value = valueReader.flowText() ?? ""
            guard axis.values.contains(where: { $0.value == value }) else {
                throw valueReader.error("'\(value)' is not a value of the matrix's \(key) ("
                    + axis.values.map(\.value).joined(separator: ", ") + ")")
            }
            let share = try shareReader.percentage()
            guard share <= 1 else { throw shareReader.error("a share is at most 100%") }
            shares[value] = (share, shareReader)
        }
        if let missing = axis.values.first(where: { shares[$0.value] == nil }) {
            throw sharesReader.error("no share for \(missing.value); give every value of \(key) its share")
        }
        let ordered = axis.values.map { (value: $0.value, share: shares[$0.value]!.0) }
        let total = ordered.reduce(0) { $0 + $1.share }
        guard abs(total - 1) < 1e-9 else {
            throw sharesReader.error("the shares of \(key) add up to \(FleetSummary.percent((total * 1000).rounded() / 1000)), not 100%")
        }
        return Mix(keyPath: key, shares: ordered)
    }

    /// `--mix KEY={VALUE: SHARE, …}`: another population share for a mixed matrix key, as the
    /// sweep file's `mix:` writes it, with errors located in the option (`--mix device={…}:1:9`).
    public func mix(option argument: String) throws -> Mix {
        let file = "--mix \(argument)"
        guard let equals = argument.firstIndex(of: "=") else {
            throw WorkloadError(file: file, line: 0, column: 0, keyPath: "",
                                message: "expected KEY={VALUE: SHARE, ...}, for example device={iphone-11: 60%, iphone-15: 40%}")
        }
        let key = String(argument[..<equals]).trimmingCharacters(in: .whitespaces)
        guard let axis = axes.first(where: { $0.keyPath == key }) else {
            throw WorkloadError(file: file, line: 1, column: 1, keyPath: "mix", message: Self.notAMatrixKey(key, axes: axes, section: Self.mixSection))
        }
        guard mix.contains(where: { $0.keyPath == key }) else {
            throw WorkloadError(file: file, line: 1, column: 1, keyPath: "mix.\(key)",
                                message: "the sweep states no mix of \(key) to change; give it one in the sweep file's mix:")
        }
        // The shares are read as a document of their own; a place in it is a place in the
        // option, past `KEY=`.
        let offset = argument.distance(from: argument.startIndex, to: equals) + 1
        do {
            return try Self.parseShares(try NodeReader.root(of: String(argument[argument.index(after: equals)...]), file: file), of: axis)
        } catch var error as WorkloadError {
            if error.line == 1 { error.column += offset }
            error.keyPath = error.keyPath.isEmpty ? "mix.\(key)" : "mix.\(key).\(error.keyPath)"
            throw error
        }
    }

    static func parseSeeds(_ r: NodeReader) throws -> ([UInt64], String) {
        if let text = r.scalarText {
            if let single = UInt64(text) { return ([single], text) }
            let parts = text.components(separatedBy: "..")
            guard parts.count == 2, let a = UInt64(parts[0].trimmingCharacters(in: .whitespaces)),
                  let b = UInt64(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw r.error("expected a range such as 1..1000, or a list of seeds, found '\(text)'")
            }
            guard b <= UInt64(Int64.max) else { throw r.error("seeds go up to \(Int64.max)") }
            guard a <= b else { throw r.error("the range \(text) is empty: its first seed is above its last") }
            guard b - a < UInt64(maxSeeds) else { throw r.error("more than \(maxSeeds) seeds") }
            return (Array(a...b), "\(a)..\(b)")
        }
        guard let count = try? r.sequenceCount() else { throw r.error("expected a range such as 1..1000, or a list of seeds") }
        guard count > 0 else { throw r.error("the list of seeds is empty") }
        guard count <= maxSeeds else { throw r.error("more than \(maxSeeds) seeds") }
        var seen = Set<UInt64>()
        var seeds: [UInt64] = []
        for item in try r.sequence() {
            guard let seed = item.scalarText.flatMap({ UInt64($0) }), seed <= UInt64(Int64.max) else {
                throw item.error("expected a seed (a whole number from 0)")
            }
            guard seen.insert(seed).inserted else { throw item.error("seed \(seed) appears twice") }
            seeds.append(seed)
        }
        return (seeds, "[" + seeds.map(String.init).joined(separator: ", ") + "]")
    }

    /// The seeds of a `seedsText` as a sweep writes it into fleet.json (`1..1000`, or
    /// `[3, 7, 12]`), or nil when the text is not one: what merge holds runs.csv's seeds to.
    public static func seeds(fromText text: String) -> [UInt64]? {
        if text.hasPrefix("[") && text.hasSuffix("]") {
            let items = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            guard items.count <= maxSeeds else { return nil }
            let seeds = items.compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
            guard seeds.count == items.count, seeds.allSatisfy({ $0 <= UInt64(Int64.max) }),
                  Set(seeds).count == seeds.count else { return nil }
            return seeds
        }
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = UInt64(parts[0]), let b = UInt64(parts[1]),
              a <= b, b <= UInt64(Int64.max), b - a < UInt64(maxSeeds) else { return nil }
        return Array(a...b)
    }
}
