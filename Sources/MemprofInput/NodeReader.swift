import MemprofCore
import Yams

/// A YAML node with its key path, that reads typed values and throws located errors
/// (``WorkloadError``: `file:line:col: key.path: message`). Workloads, thresholds and budget
/// files are all read through it, so every bad value in any of them names its place.
///
/// The node is either a Yams node (sweep, thresholds and budget files, workloads with overrides)
/// or an entry of a ``YAMLTree`` (workloads): both read alike, value for value and error for error.
public struct NodeReader {
    package enum Storage {
        case tree(YAMLTree, Int32)
        case yams(Node)
    }

    /// One step of a key path, kept apart until the path is asked for (errors): building a path
    /// string for every value of a 100,000-entry script was a tenth of reading it.
    enum PathStep {
        case none
        case key(String)
        case index(Int)
    }

    package let storage: Storage
    public let file: String
    /// The key path is `base`, then up to three steps (`script`, `[3]`, `at`).
    private let base: String
    private let steps: (PathStep, PathStep, PathStep)

    private init(_ storage: Storage, file: String, base: String, _ steps: (PathStep, PathStep, PathStep)) {
        self.storage = storage
        self.file = file
        self.base = base
        self.steps = steps
    }

    public init(node: Node, path: String, file: String) {
        self.init(.yams(node), file: file, base: path, (.none, .none, .none))
    }

    init(tree: YAMLTree, index: Int32, file: String) {
        self.init(.tree(tree, index), file: file, base: "", (.none, .none, .none))
    }

    /// Composes YAML (or JSON) text into its root node (a ``YAMLTree``), with located errors for
    /// text that is not YAML, not UTF-8, holds control characters, or is empty. Readers that need
    /// Yams' own nodes (to edit them, as overrides do) compose with `YAMLText.compose(_:file:)`.
    public static func root(of text: String, file: String) throws -> NodeReader {
        try YAMLText.composeTree(text, file: file)
    }

    /// The node as Yams reads it (a tree's entry without marks: Yams' `Mark` cannot be made outside it).
    public var node: Node {
        switch storage {
        case .yams(let node): node
        case .tree(let tree, let index): tree.yamsNode(index)
        }
    }

    /// The dotted key path of this node (`apps.mail.launch`, `script[3].at`).
    public var path: String {
        var path = base
        for step in [steps.0, steps.1, steps.2] {
            switch step {
            case .none: break
            case .key(let key): path = path.isEmpty ? key : "\(path).\(key)"
            case .index(let index): path += "[\(index)]"
            }
        }
        return path
    }

    /// Where this node is, for errors found after reading.
    public var place: InputPlace { InputPlace(file: file, line: line, column: column, keyPath: path) }

    public var line: Int {
        switch storage {
        case .yams(let node): node.mark?.line ?? 0
        case .tree(let tree, let index): Int(tree.entry(index).line)
        }
    }

    public var column: Int {
        switch storage {
        case .yams(let node): node.mark?.column ?? 0
        case .tree(let tree, let index): Int(tree.entry(index).column)
        }
    }

    public func error(_ message: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: path, message: message)
    }

    /// A node below this one, at `step` further down the key path.
    private func descend(_ storage: Storage, _ step: PathStep) -> NodeReader {
        switch steps {
        case (.none, _, _): NodeReader(storage, file: file, base: base, (step, .none, .none))
        case (_, .none, _): NodeReader(storage, file: file, base: base, (steps.0, step, .none))
        case (_, _, .none): NodeReader(storage, file: file, base: base, (steps.0, steps.1, step))
        default: NodeReader(storage, file: file, base: path, (step, .none, .none))
        }
    }

    /// A key of this mapping, for errors about the key itself (they carry the mapping's path).
    private func key(_ storage: Storage) -> NodeReader {
        NodeReader(storage, file: file, base: base, steps)
    }

    public func child(_ node: Node, _ key: String) -> NodeReader {
        descend(.yams(node), .key(key))
    }

    /// True for a scalar (a word, a number, a quantity).
    package var isScalar: Bool {
        switch storage {
        case .yams(let node): if case .scalar = node { true } else { false }
        case .tree(let tree, let index): tree.entry(index).kind == .scalar
        }
    }

    /// A scalar's text; nil for a mapping or a list.
    package var scalarText: String? {
        switch storage {
        case .yams(let node): node.scalar?.string
        case .tree(let tree, let index): tree.entry(index).kind == .scalar ? tree.string(index) : nil
        }
    }

    /// A scalar's text and style.
    var scalarTextAndStyle: (String, Node.Scalar.Style)? {
        switch storage {
        case .yams(let node): node.scalar.map { ($0.string, $0.style) }
        case .tree(let tree, let index):
            tree.entry(index).kind == .scalar
                ? (tree.string(index), Node.Scalar.Style(rawValue: UInt32(tree.entry(index).style)) ?? .any) : nil
        }
    }

    /// A scalar as Yams holds it (text, tag, style), for Yams' number constructors.
    var yamsScalar: Node.Scalar? {
        switch storage {
        case .yams(let node): node.scalar
        case .tree(let tree, let index): tree.entry(index).kind == .scalar ? tree.yamsNode(index).scalar : nil
        }
    }

    /// A mapping's keys and values, or nil when the node is not a mapping.
    private var pairs: [(key: Storage, value: Storage)]? {
        switch storage {
        case .yams(let node):
            guard case .mapping(let mapping) = node else { return nil }
            return mapping.map { (.yams($0.key), .yams($0.value)) }
        case .tree(let tree, let index):
            let e = tree.entry(index)
            guard e.kind == .mapping else { return nil }
            return stride(from: 0, to: Int(e.count), by: 2).map {
                (.tree(tree, tree.child(index, $0)), .tree(tree, tree.child(index, $0 + 1)))
            }
        }
    }

    /// A key's text, or nil when the key is a mapping or a list.
    private static func text(_ key: Storage) -> String? {
        switch key {
        case .yams(let node): node.scalar?.string
        case .tree(let tree, let index): tree.entry(index).kind == .scalar ? tree.string(index) : nil
        }
    }

    /// The node's entries, after checking every key is one of `allowed`.
    public func mapping(allowed: [String]) throws -> Mapping {
        guard isMapping else {
            throw error("expected a mapping of \(allowed.prefix(4).joined(separator: ", "))…, found \(kind)")
        }
        var entries: [(String, NodeReader)] = []
        if case .tree(let tree, let index) = storage {
            // The allowed key is the entry's key (the same text, no new string).
            let e = tree.entry(index)
            entries.reserveCapacity(Int(e.count) / 2)
            for n in stride(from: 0, to: Int(e.count), by: 2) {
                let k = tree.child(index, n)
                if tree.entry(k).kind == .scalar {
                    // Compared as strings (canonical equivalence) when the key is not ASCII.
                    var key = allowed.first(where: { tree.scalar(k, is: $0) })
                    if key == nil, !tree.isASCII(k), allowed.contains(tree.string(k)) { key = tree.string(k) }
                    if let key {
                        entries.append((key, descend(.tree(tree, tree.child(index, n + 1)), .key(key))))
                        continue
                    }
                }
                try refuseKey(.tree(tree, k), allowed: allowed)
            }
            return Mapping(owner: self, entries: entries)
        }
        let pairs = self.pairs ?? []
        entries.reserveCapacity(pairs.count)
        for (keyNode, value) in pairs {
            guard let key = Self.text(keyNode), allowed.contains(key) else { try refuseKey(keyNode, allowed: allowed) }
            entries.append((key, descend(value, .key(key))))
        }
        return Mapping(owner: self, entries: entries)
    }

    /// The error for a key of this mapping that is not one of `allowed`.
    private func refuseKey(_ keyNode: Storage, allowed: [String]) throws -> Never {
        guard let key = Self.text(keyNode) else { throw self.key(keyNode).error("keys must be plain words") }
        var message = "unknown key '\(key)'"
        if let near = suggestion(for: key, among: allowed) {
            message += " (did you mean '\(near)'?)"
        } else {
            message += "; expected one of: \(allowed.joined(separator: ", "))"
        }
        throw self.key(keyNode).error(message)
    }

    var isMapping: Bool {
        switch storage {
        case .yams(let node): if case .mapping = node { true } else { false }
        case .tree(let tree, let index): tree.entry(index).kind == .mapping
        }
    }

    /// The node's entries with any keys (for maps keyed by names, such as `apps`).
    public func namedEntries() throws -> [(String, NodeReader)] {
        guard let pairs else { throw error("expected a mapping, found \(kind)") }
        return try pairs.map { keyNode, value in
            guard let key = Self.text(keyNode) else { throw self.key(keyNode).error("keys must be plain words") }
            return (key, descend(value, .key(key)))
        }
    }

    /// The node at `keys` below this one, if every key is there (no checking: for pointing at a
    /// value already read).
    package func descendant(_ keys: [String]) -> NodeReader? {
        var reader = self
        for key in keys {
            guard let value = reader.pairs?.first(where: { Self.text($0.key) == key })?.value else { return nil }
            reader = reader.descend(value, .key(key))
        }
        return reader
    }

    /// A list's length (the error of ``sequence()`` for anything else).
    package func sequenceCount() throws -> Int {
        switch storage {
        case .yams(let node):
            guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kind)") }
            return sequence.count
        case .tree(let tree, let index):
            guard tree.entry(index).kind == .sequence else { throw error("expected a list, found \(kind)") }
            return Int(tree.entry(index).count)
        }
    }

    /// Item `n` of a list, as ``sequence()`` gives it.
    package func item(_ n: Int) -> NodeReader {
        switch storage {
        case .yams(let node):
            guard case .sequence(let sequence) = node else { preconditionFailure("item(_:) of \(kind)") }
            return descend(.yams(sequence[sequence.index(sequence.startIndex, offsetBy: n)]), .index(n))
        case .tree(let tree, let index):
            return descend(.tree(tree, tree.child(index, n)), .index(n))
        }
    }

    public func sequence() throws -> [NodeReader] {
        switch storage {
        case .yams(let node):
            guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kind)") }
            return sequence.enumerated().map { index, item in descend(.yams(item), .index(index)) }
        case .tree(let tree, let index):
            let e = tree.entry(index)
            guard e.kind == .sequence else { throw error("expected a list, found \(kind)") }
            return (0..<Int(e.count)).map { descend(.tree(tree, tree.child(index, $0)), .index($0)) }
        }
    }

    public var kind: String {
        switch storage {
        case .yams(let node):
            switch node {
            case .scalar(let s): "'\(s.string)'"
            case .mapping: "a mapping"
            case .sequence: "a list"
            case .alias: "an alias"
            }
        case .tree(let tree, let index):
            switch tree.entry(index).kind {
            case .scalar: "'\(tree.string(index))'"
            case .mapping: "a mapping"
            case .sequence: "a list"
            }
        }
    }

    public func string() throws -> String {
        guard let text = scalarText else { throw error("expected a word, found \(kind)") }
        return text
    }

    /// A whole number from `range` (by default any that fits in 64 bits).
    public func int(in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int {
        guard let value = yamsScalar.flatMap(\.wholeNumber) else {
            if let s = scalarText, let d = Double(s), d.isFinite, d == d.rounded() {
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
        guard let (text, style) = scalarTextAndStyle, style == .plain || style == .any,
              let value = Self.booleans[text.lowercased()] else {
            throw error("expected true or false, found \(kind)")
        }
        return value
    }

    /// YAML 1.1's booleans in any case, as memprof read them through Yams' default resolver
    /// (which let `tRUE` through too): read here because texts are composed without implicit tags.
    package static let booleans: [String: Bool] = ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false]

    public func fraction() throws -> Double {
        guard let value = yamsScalar.flatMap(Double.construct), value > 0, value <= 1 else {
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
        guard let value = yamsScalar.flatMap(Double.construct), value.isFinite, value > 0 else {
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
    public var wholeNumber: Int? { scalar?.wholeNumber }
}

extension Node.Scalar {
    /// `Int.construct`, without its trap (see `Node.wholeNumber`).
    package var wholeNumber: Int? { string.contains(":") ? nil : Int.construct(from: self) }
}
