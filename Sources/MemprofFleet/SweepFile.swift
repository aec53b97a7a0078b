import Foundation
import MemprofWorkload
import Yams

/// A sweep file (spec §12): a workload, seeds, and a matrix of key paths whose every
/// combination is a cell.
///
///     memprof: 1
///     sweep: mail-on-small-phones
///     workload: phone-day
///     seeds: 1..1000
///     matrix:
///       device: [iphone-6-plus, ipad-air-2]
///       apps.mail.launch.footprint: [45MB, 60MB]
public struct SweepFile: Sendable, Equatable {
    /// One key path of the matrix and the values it takes, in file order.
    public struct Axis: Sendable, Equatable {
        public var keyPath: String
        /// One override per value, each located where its value is written.
        public var values: [WorkloadOverride]
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
    /// How many worst runs each metric lists.
    public var worst: Int
    /// The file, for error messages, and where its `workload` value is.
    public var file: String
    public var workloadLine = 0
    public var workloadColumn = 0

    /// The most seeds, cells and runs one sweep may have: every resource has a bound.
    public static let maxSeeds = 1_000_000
    public static let maxCells = 4_096
    public static let maxRuns = 20_000_000
    static let keys = ["memprof", "sweep", "workload", "seeds", "matrix", "worst"]

    /// Reads a sweep file, or a built-in sweep by name (``BuiltinSweeps``).
    ///
    /// - Throws: ``WorkloadError`` naming file, line, column and key, for bad input.
    public static func load(_ path: String) throws -> SweepFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !FileManager.default.fileExists(atPath: path) {
                guard let builtin = BuiltinSweeps.named(path) else { throw BuiltinSweeps.unknown(path) }
                return try parse(builtin, file: "builtin:\(path)")
            }
            throw WorkloadError(file: path, line: 0, column: 0, keyPath: "", message: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw WorkloadError(file: path, line: 0, column: 0, keyPath: "", message: "the file is not UTF-8 text")
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

    public static func parse(_ text: String, file: String) throws -> SweepFile {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw WorkloadError(file: file, line: 0, column: 0, keyPath: "", message: "invalid YAML: \(error)")
        }
        guard let root else { throw WorkloadError(file: file, line: 0, column: 0, keyPath: "", message: "the file is empty") }
        let r = Reader(file: file)
        let top = try r.mapping(root, path: "", allowed: keys)
        let version = try r.required(top, "memprof", in: root, path: "")
        guard version.wholeNumber == 1 else { throw r.error(version, "memprof", "this memprof reads sweep format version 1") }
        let nameNode = try r.required(top, "sweep", in: root, path: "")
        let name = try r.string(nameNode, "sweep")
        guard !name.isEmpty, name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw r.error(nameNode, "sweep", "'\(name)' is not a valid name; use lowercase letters, digits and '-'")
        }
        let workloadNode = try r.required(top, "workload", in: root, path: "")
        let workload = try r.string(workloadNode, "workload")
        let seedsNode = try r.required(top, "seeds", in: root, path: "")
        let (seeds, seedsText) = try parseSeeds(seedsNode, r)
        var worst = 5
        if let node = top["worst"] {
            guard let n = node.wholeNumber, (0...100).contains(n) else { throw r.error(node, "worst", "expected a whole number from 0 to 100") }
            worst = n
        }
        var axes: [Axis] = []
        var cells = 1
        if let matrix = top["matrix"] {
            guard case .mapping(let m) = matrix else { throw r.error(matrix, "matrix", "expected a mapping of key paths to lists of values") }
            for (keyNode, valuesNode) in m {
                let key = try r.string(keyNode, "matrix")
                guard !axes.contains(where: { $0.keyPath == key }) else { throw r.error(keyNode, "matrix", "key path '\(key)' appears twice") }
                let path = "matrix.\(key)"
                guard case .sequence(let items) = valuesNode, !items.isEmpty else {
                    throw r.error(valuesNode, path, "expected a non-empty list of values, such as [45MB, 60MB]")
                }
                var values: [WorkloadOverride] = []
                for item in items {
                    let origin = WorkloadOverride.Origin(file: file, keyLine: keyNode.mark?.line ?? 0,
                                                         keyColumn: keyNode.mark?.column ?? 0,
                                                         valueLine: item.mark?.line ?? 0, valueColumn: item.mark?.column ?? 0)
                    let override = WorkloadOverride(keyPath: key, value: flowText(item), origin: origin)
                    guard !values.contains(where: { $0.value == override.value }) else {
                        throw r.error(item, path, "the value '\(override.value)' appears twice")
                    }
                    values.append(override)
                }
                try values[0].checkKeyPath()
                cells *= values.count
                guard cells <= maxCells else { throw r.error(valuesNode, path, "the matrix has more than \(maxCells) cells") }
                axes.append(Axis(keyPath: key, values: values))
            }
        }
        guard cells * seeds.count <= maxRuns else {
            throw r.error(seedsNode, "seeds", "\(cells) cells × \(seeds.count) seeds is more than \(maxRuns) runs")
        }
        return SweepFile(name: name, workload: workload, seeds: seeds, seedsText: seedsText, axes: axes,
                         worst: worst, file: file, workloadLine: workloadNode.mark?.line ?? 0,
                         workloadColumn: workloadNode.mark?.column ?? 0)
    }

    static func parseSeeds(_ node: Node, _ r: Reader) throws -> ([UInt64], String) {
        switch node {
        case .scalar(let s):
            let text = s.string
            if let single = UInt64(text) { return ([single], text) }
            let parts = text.components(separatedBy: "..")
            guard parts.count == 2, let a = UInt64(parts[0].trimmingCharacters(in: .whitespaces)),
                  let b = UInt64(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw r.error(node, "seeds", "expected a range such as 1..1000, or a list of seeds, found '\(text)'")
            }
            guard b <= UInt64(Int64.max) else { throw r.error(node, "seeds", "seeds go up to \(Int64.max)") }
            guard a <= b else { throw r.error(node, "seeds", "the range \(text) is empty: its first seed is above its last") }
            guard b - a < UInt64(maxSeeds) else { throw r.error(node, "seeds", "more than \(maxSeeds) seeds") }
            return (Array(a...b), "\(a)..\(b)")
        case .sequence(let items):
            guard !items.isEmpty else { throw r.error(node, "seeds", "the list of seeds is empty") }
            guard items.count <= maxSeeds else { throw r.error(node, "seeds", "more than \(maxSeeds) seeds") }
            var seen = Set<UInt64>()
            var seeds: [UInt64] = []
            for (i, item) in items.enumerated() {
                guard let seed = item.scalar.flatMap({ UInt64($0.string) }), seed <= UInt64(Int64.max) else {
                    throw r.error(item, "seeds[\(i)]", "expected a seed (a whole number from 0)")
                }
                guard seen.insert(seed).inserted else { throw r.error(item, "seeds[\(i)]", "seed \(seed) appears twice") }
                seeds.append(seed)
            }
            return (seeds, "[" + seeds.map(String.init).joined(separator: ", ") + "]")
        default:
            throw r.error(node, "seeds", "expected a range such as 1..1000, or a list of seeds")
        }
    }

    /// A value as YAML flow text: `45MB`, `[fetch, audio]`, `{release: 10MB}`.
    static func flowText(_ node: Node) -> String {
        switch node {
        case .scalar(let s): s.string
        case .sequence(let items): "[" + items.map(flowText).joined(separator: ", ") + "]"
        case .mapping(let m): "{" + m.map { "\(flowText($0.key)): \(flowText($0.value))" }.joined(separator: ", ") + "}"
        case .alias: ""
        }
    }

    /// Located errors for the few keys a sweep file has.
    struct Reader {
        let file: String

        func error(_ node: Node, _ path: String, _ message: String) -> WorkloadError {
            WorkloadError(file: file, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0, keyPath: path, message: message)
        }

        func mapping(_ node: Node, path: String, allowed: [String]) throws -> [String: Node] {
            guard case .mapping(let m) = node else { throw error(node, path, "expected a mapping of \(allowed.joined(separator: ", "))") }
            var out: [String: Node] = [:]
            for (k, v) in m {
                let key = k.string ?? ""
                guard allowed.contains(key) else {
                    var message = "unknown key '\(key)'"
                    if let near = Spelling.nearest(to: key, among: allowed) { message += " (did you mean '\(near)'?)" }
                    else { message += "; expected one of: \(allowed.joined(separator: ", "))" }
                    throw error(k, path, message)
                }
                out[key] = v
            }
            return out
        }

        func required(_ m: [String: Node], _ key: String, in node: Node, path: String) throws -> Node {
            guard let v = m[key] else { throw error(node, path, "missing key '\(key)'") }
            return v
        }

        func string(_ node: Node, _ path: String) throws -> String {
            guard case .scalar(let s) = node else { throw error(node, path, "expected a word") }
            return s.string
        }
    }
}
