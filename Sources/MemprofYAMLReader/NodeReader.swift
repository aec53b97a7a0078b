import MemprofCore
import MemprofInput
import Yams

/// A YAML node with its key path, that reads typed values and throws located errors
/// (`WorkloadError`, MemprofInput: `file:line:col: key.path: message`). Workloads, sweep files, thresholds
/// and budget files are all read through it, so every bad value in any of them names its place.
///
/// The node is an entry of a `YAMLTree`, the one composer of YAML text: a workload with
/// overrides is the same tree, edited (`YAMLTree.Editor`), and what an override put there has
/// no mark (line and column 0), which is how errors about it are recognised.
public struct NodeReader {
    /// One step of a key path, kept apart until the path is asked for (errors): building a path
    /// string for every value of a 100,000-entry script was a tenth of reading it.
    enum PathStep {
        case none
        case key(String)
        case index(Int)
    }

    package let tree: YAMLTree
    package let index: Int32
    public let file: String
    /// The key path is `base`, then up to three steps (`script`, `[3]`, `at`).
    private let base: String
    private let steps: (PathStep, PathStep, PathStep)

    private init(_ tree: YAMLTree, _ index: Int32, file: String, base: String, _ steps: (PathStep, PathStep, PathStep)) {
        self.tree = tree
        self.index = index
        self.file = file
        self.base = base
        self.steps = steps
    }

    /// The root of `tree` (a composed or an edited one).
    package init(tree: YAMLTree, file: String) {
        self.init(tree, tree.root, file: file, base: "", (.none, .none, .none))
    }

    /// Composes YAML (or JSON) text into its root node (a `YAMLTree`), with located errors for
    /// text that is not YAML, not UTF-8, holds control characters, or is empty.
    public static func root(of text: String, file: String) throws -> NodeReader {
        try YAMLText.composeTree(text, file: file)
    }

    private var entry: YAMLTree.Entry { tree.entry(index) }

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

    public var line: Int { Int(entry.line) }

    public var column: Int { Int(entry.column) }

    public func error(_ message: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: path, message: message)
    }

    /// The node at entry `index`, at `step` further down the key path.
    private func descend(_ index: Int32, _ step: PathStep) -> NodeReader {
        switch steps {
        case (.none, _, _): NodeReader(tree, index, file: file, base: base, (step, .none, .none))
        case (_, .none, _): NodeReader(tree, index, file: file, base: base, (steps.0, step, .none))
        case (_, _, .none): NodeReader(tree, index, file: file, base: base, (steps.0, steps.1, step))
        default: NodeReader(tree, index, file: file, base: path, (step, .none, .none))
        }
    }

    /// A key of this mapping, for errors about the key itself (they carry the mapping's path).
    private func key(_ index: Int32) -> NodeReader {
        NodeReader(tree, index, file: file, base: base, steps)
    }

    /// True for a scalar (a word, a number, a quantity).
    package var isScalar: Bool { entry.kind == .scalar }

    /// A scalar's text; nil for a mapping or a list.
    package var scalarText: String? { entry.kind == .scalar ? tree.string(index) : nil }

    /// A scalar's text and style.
    var scalarTextAndStyle: (String, Node.Scalar.Style)? {
        entry.kind == .scalar ? (tree.string(index), Node.Scalar.Style(rawValue: UInt32(entry.style)) ?? .any) : nil
    }

    /// A scalar as Yams' number constructors (`Int.construct`, `Double.construct`) take it: they
    /// read its text and style, not its tag.
    var yamsScalar: Node.Scalar? {
        scalarTextAndStyle.map { Node.Scalar($0.0, Tag(.implicit), $0.1) }
    }

    /// A mapping's keys and values (entry numbers), or nil when the node is not a mapping.
    private var pairs: [(key: Int32, value: Int32)]? {
        let e = entry
        guard e.kind == .mapping else { return nil }
        return stride(from: 0, to: Int(e.count), by: 2).map { (tree.child(index, $0), tree.child(index, $0 + 1)) }
    }

    /// A key's text, or nil when the key is a mapping or a list.
    private func text(_ key: Int32) -> String? {
        tree.entry(key).kind == .scalar ? tree.string(key) : nil
    }

    /// The node's entries, after checking every key is one of `allowed`.
    public func mapping(allowed: [String]) throws -> Mapping {
        guard isMapping else {
            throw error("expected a mapping of \(allowed.prefix(4).joined(separator: ", "))…, found \(kind)")
        }
        var entries: [(String, NodeReader)] = []
        // The allowed key is the entry's key (the same text, no new string).
        let e = entry
        entries.reserveCapacity(Int(e.count) / 2)
        for n in stride(from: 0, to: Int(e.count), by: 2) {
            let k = tree.child(index, n)
            if tree.entry(k).kind == .scalar {
                // Compared as strings (canonical equivalence) when the key is not ASCII.
                var key = allowed.first(where: { tree.scalar(k, is: $0) })
                if key == nil, !tree.isASCII(k), allowed.contains(tree.string(k)) { key = tree.string(k) }
                if let key {
                    entries.append((key, descend(tree.child(index, n + 1), .key(key))))
                    continue
                }
            }
            try refuseKey(k, allowed: allowed)
        }
        return Mapping(owner: self, entries: entries)
    }

    /// The error for a key of this mapping that is not one of `allowed`.
    private func refuseKey(_ keyIndex: Int32, allowed: [String]) throws -> Never {
        guard let key = text(keyIndex) else { throw self.key(keyIndex).error("keys must be plain words") }
        var message = "unknown key '\(key)'"
        if let near = suggestion(for: key, among: allowed) {
            message += " (did you mean '\(near)'?)"
        } else {
            message += "; expected one of: \(allowed.joined(separator: ", "))"
        }
        throw self.key(keyIndex).error(message)
    }

    var isMapping: Bool { entry.kind == .mapping }
    /// Whether the node is a mapping (`{...}`), for readers whose key takes a value or a mapping.
    public var isMappingNode: Bool { isMapping }

    /// The node's entries with any keys (for maps keyed by names, such as `apps`).
    public func namedEntries() throws -> [(String, NodeReader)] {
        guard let pairs else { throw error("expected a mapping, found \(kind)") }
        return try pairs.map { keyIndex, value in
            guard let key = text(keyIndex) else { throw self.key(keyIndex).error("keys must be plain words") }
            return (key, descend(value, .key(key)))
        }
    }

    /// A mapping's keys and values in file order, each key read at its own place with the
    /// mapping's path (as errors about a key are), each value below its key's text (or the
    /// key's ``kind`` when the key is not a scalar); nil when the node is not a mapping. For
    /// mappings whose keys are data (a sweep's matrix of key paths).
    package var keysAndValues: [(key: NodeReader, value: NodeReader)]? {
        pairs?.map { keyIndex, value in
            (key(keyIndex), descend(value, .key(text(keyIndex) ?? key(keyIndex).kind)))
        }
    }

    /// The node at `keys` below this one, if every key is there (no checking: for pointing at a
    /// value already read).
    package func descendant(_ keys: [String]) -> NodeReader? {
        var reader = self
        for key in keys {
            guard let value = reader.pairs?.first(where: { reader.text($0.key) == key })?.value else { return nil }
            reader = reader.descend(value, .key(key))
        }
        return reader
    }

    /// A list's length (the error of ``sequence()`` for anything else).
    package func sequenceCount() throws -> Int {
        guard entry.kind == .sequence else { throw error("expected a list, found \(kind)") }
        return Int(entry.count)
    }

    /// Item `n` of a list, as ``sequence()`` gives it.
    package func item(_ n: Int) -> NodeReader {
        descend(tree.child(index, n), .index(n))
    }

    public func sequence() throws -> [NodeReader] {
        let e = entry
        guard e.kind == .sequence else { throw error("expected a list, found \(kind)") }
        return (0..<Int(e.count)).map { descend(tree.child(index, $0), .index($0)) }
    }

    public var kind: String {
        switch entry.kind {
        case .scalar: "'\(tree.string(index))'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// The node as YAML flow text: `45MB`, `[fetch, audio]`, `{release: 10MB}` (scalars as
    /// written, without quotes): how a sweep's matrix value becomes an override's value. nil when
    /// it is longer than `limit` bytes (an alias writes its node out wherever it appears: ten
    /// nested ones write a billion).
    package func flowText(limit: Int = flowTextLimit) -> String? {
        var out: [UInt8] = []
        return flowText(index, into: &out, limit: limit) ? String(decoding: out, as: UTF8.self) : nil
    }

    package static let flowTextLimit = 65_536

    private func flowText(_ node: Int32, into out: inout [UInt8], limit: Int) -> Bool {
        let e = tree.entry(node)
        switch e.kind {
        case .scalar:
            out += tree.string(node).utf8
        case .sequence, .mapping:
            let mapping = e.kind == .mapping
            out.append(mapping ? UInt8(ascii: "{") : UInt8(ascii: "["))
            for n in 0..<Int(e.count) {
                if n > 0 { out += (mapping && n % 2 == 1 ? ": " : ", ").utf8 }
                guard out.count <= limit, flowText(tree.child(node, n), into: &out, limit: limit) else { return false }
            }
            out.append(mapping ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return out.count <= limit
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

    /// The node's text read by `parse` (`Quantity.percent`, a metric's unit...), its failure
    /// located at the node.
    public func value<T>(_ parse: (String) -> Result<T, QuantityError>) throws -> T {
        switch parse(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    public func duration() throws -> Microseconds {
        try value(Quantity.duration)
    }

    public func positiveDuration() throws -> Microseconds {
        let value = try duration()
        guard value > 0 else { throw error("expected a duration above 0") }
        return value
    }

    public func size() throws -> Bytes {
        try value(Quantity.size)
    }

    public func rate() throws -> Rate {
        try value(Quantity.rate)
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

extension Node.Scalar {
    /// `Int.construct`, without its trap: Yams reads YAML 1.1 sexagesimal integers (`190:20:30`)
    /// with arithmetic that traps on overflow (`99999999999:99999999999` crashed memprof; found by
    /// fuzzing), so a scalar with a colon is not read as a whole number at all.
    package var wholeNumber: Int? { string.contains(":") ? nil : Int.construct(from: self) }
}
