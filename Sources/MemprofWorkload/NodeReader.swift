import MemprofCore
import Yams

/// A YAML node with its key path, that reads typed values and throws located errors
/// (``WorkloadError``: `file:line:col: key.path: message`). Workloads, thresholds and budget
/// files are all read through it, so every bad value in any of them names its place.
public struct NodeReader {
    public let node: Node
    public let path: String
    public let file: String

    public init(node: Node, path: String, file: String) {
        self.node = node
        self.path = path
        self.file = file
    }

    /// Composes YAML (or JSON) text into its root node, with located errors for text that is not
    /// YAML, not UTF-8, holds control characters, or is empty.
    public static func root(of text: String, file: String) throws -> NodeReader {
        try YAMLText.compose(text, file: file)
    }

    /// Where this node is, for errors found after reading.
    public var place: InputPlace { InputPlace(file: file, line: line, column: column, keyPath: path) }

    public var line: Int { node.mark?.line ?? 0 }
    public var column: Int { node.mark?.column ?? 0 }

    public func error(_ message: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: path, message: message)
    }

    public func child(_ node: Node, _ key: String) -> NodeReader {
        NodeReader(node: node, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The node's entries, after checking every key is one of `allowed`.
    public func mapping(allowed: [String]) throws -> Mapping {
        guard case .mapping(let mapping) = node else {
            throw error("expected a mapping of \(allowed.prefix(4).joined(separator: ", "))…, found \(kind)")
        }
        var entries: [(String, NodeReader)] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                throw NodeReader(node: keyNode, path: path, file: file).error("keys must be plain words")
            }
            guard allowed.contains(key) else {
                var message = "unknown key '\(key)'"
                if let near = suggestion(for: key, among: allowed) {
                    message += " (did you mean '\(near)'?)"
                } else {
                    message += "; expected one of: \(allowed.joined(separator: ", "))"
                }
                throw NodeReader(node: keyNode, path: path, file: file).error(message)
            }
            entries.append((key, child(value, key)))
        }
        return Mapping(owner: self, entries: entries)
    }

    /// The node's entries with any keys (for maps keyed by names, such as `apps`).
    public func namedEntries() throws -> [(String, NodeReader)] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping, found \(kind)") }
        return try mapping.map { keyNode, value in
            guard let key = keyNode.scalar?.string else {
                throw NodeReader(node: keyNode, path: path, file: file).error("keys must be plain words")
            }
            return (key, child(value, key))
        }
    }

    /// The node at `keys` below this one, if every key is there (no checking: for pointing at a
    /// value already read).
    func descendant(_ keys: [String]) -> NodeReader? {
        var reader = self
        for key in keys {
            guard case .mapping(let mapping) = reader.node,
                  let value = mapping.first(where: { $0.key.scalar?.string == key })?.value else { return nil }
            reader = reader.child(value, key)
        }
        return reader
    }

    public func sequence() throws -> [NodeReader] {
        guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kind)") }
        return sequence.enumerated().map { index, item in
            NodeReader(node: item, path: "\(path)[\(index)]", file: file)
        }
    }

    public var kind: String {
        switch node {
        case .scalar(let s): "'\(s.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    public func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a word, found \(kind)") }
        return scalar.string
    }

    /// A whole number from `range` (by default any that fits in 64 bits).
    public func int(in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int {
        guard let value = node.wholeNumber else {
            if case .scalar(let s) = node, let d = Double(s.string), d.isFinite, d == d.rounded() {
                throw error("\(kind) is too large; the largest whole number accepted is \(range.upperBound)")
            }
            throw error("expected a whole number, found \(kind)")
        }
        guard range.contains(value) else {
            if value < range.lowerBound {
                throw error(range.lowerBound == 0 ? "expected 0 or more, found \(value)"
                            : "expected at least \(range.lowerBound), found \(value)")
            }
            throw error("\(value) is too large; the largest value accepted is \(range.upperBound)")
        }
        return value
    }

    public func nonNegativeInt(max: Int = Int.max) throws -> Int {
        try int(in: 0...max)
    }

    public func bool() throws -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
              let value = Self.booleans[scalar.string.lowercased()] else {
            throw error("expected true or false, found \(kind)")
        }
        return value
    }

    /// YAML 1.1's booleans in any case, as memprof read them through Yams' default resolver
    /// (which let `tRUE` through too): read here because texts are composed without implicit tags.
    static let booleans: [String: Bool] = ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false]

    public func fraction() throws -> Double {
        guard let value = node.float, value > 0, value <= 1 else {
            throw error("expected a fraction between 0 and 1, found \(kind)")
        }
        return value
    }

    /// `90%` → 0.9: a share of one CPU, from 0% to 800% (eight busy cores).
    public func percentage() throws -> Double {
        let text = try string().trimmingSpaces
        switch Quantity.percent(text) {
        case .failure(let problem): throw error(problem.message)
        case .success(let share):
            guard share <= 8 else { throw error("\(text) is out of range (0% to 800%)") }
            return share
        }
    }

    public func positiveNumber(max: Double) throws -> Double {
        guard let value = node.float, value.isFinite, value > 0 else {
            throw error("expected a number above 0, found \(kind)")
        }
        guard value <= max else { throw error("\(kind) is too large; the largest value accepted is \(max.formatted)") }
        return value
    }

    public func duration() throws -> Microseconds {
        switch Quantity.duration(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    public func positiveDuration() throws -> Microseconds {
        let value = try duration()
        guard value > 0 else { throw error("expected a duration above 0") }
        return value
    }

    public func size() throws -> Bytes {
        switch Quantity.size(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    public func rate() throws -> Rate {
        switch Quantity.rate(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    /// One of `choices`, with a suggestion when it is close to one.
    public func choice(_ choices: [String], what: String) throws -> String {
        let value = try string()
        guard choices.contains(value) else {
            var message = "unknown \(what) '\(value)'"
            if let near = suggestion(for: value, among: choices) { message += " (did you mean '\(near)'?)" }
            message += "; known: \(choices.joined(separator: ", "))"
            throw error(message)
        }
        return value
    }
}

/// The checked entries of a mapping, looked up by key.
public struct Mapping {
    public let owner: NodeReader
    public let entries: [(String, NodeReader)]

    public subscript(key: String) -> NodeReader? {
        entries.first { $0.0 == key }?.1
    }

    public func required(_ key: String) throws -> NodeReader {
        guard let value = self[key] else { throw owner.error("missing key '\(key)'") }
        return value
    }

    public var keys: [String] { entries.map(\.0) }
}

extension Double {
    /// `1000`, `0.5`: whole numbers without a decimal point.
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}

extension Node {
    /// `int`, without its trap: Yams reads YAML 1.1 sexagesimal integers (`190:20:30`) with
    /// arithmetic that traps on overflow (`99999999999:99999999999` crashed memprof; found by
    /// fuzzing), so a scalar with a colon is not read as a whole number at all.
    public var wholeNumber: Int? {
        if case .scalar(let scalar) = self, scalar.string.contains(":") { return nil }
        return int
    }
}
