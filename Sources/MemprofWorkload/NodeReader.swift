import MemprofCore
import Yams

/// A YAML node with its key path, that reads typed values and throws located errors.
struct NodeReader {
    let node: Node
    let path: String
    let file: String

    var line: Int { node.mark?.line ?? 0 }
    var column: Int { node.mark?.column ?? 0 }

    func error(_ message: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: path, message: message)
    }

    func child(_ node: Node, _ key: String) -> NodeReader {
        NodeReader(node: node, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The node's entries, after checking every key is one of `allowed`.
    func mapping(allowed: [String]) throws -> Mapping {
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
    func namedEntries() throws -> [(String, NodeReader)] {
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

    func sequence() throws -> [NodeReader] {
        guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kind)") }
        return sequence.enumerated().map { index, item in
            NodeReader(node: item, path: "\(path)[\(index)]", file: file)
        }
    }

    var kind: String {
        switch node {
        case .scalar(let s): "'\(s.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a word, found \(kind)") }
        return scalar.string
    }

    func int() throws -> Int {
        guard let value = node.int else { throw error("expected a whole number, found \(kind)") }
        return value
    }

    func nonNegativeInt() throws -> Int {
        let value = try int()
        guard value >= 0 else { throw error("expected 0 or more, found \(value)") }
        return value
    }

    func bool() throws -> Bool {
        guard let value = node.bool else { throw error("expected true or false, found \(kind)") }
        return value
    }

    func fraction() throws -> Double {
        guard let value = node.float, value > 0, value <= 1 else {
            throw error("expected a fraction between 0 and 1, found \(kind)")
        }
        return value
    }

    func positiveNumber() throws -> Double {
        guard let value = node.float, value > 0 else { throw error("expected a number above 0, found \(kind)") }
        return value
    }

    func duration() throws -> Microseconds {
        switch Quantity.duration(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    func positiveDuration() throws -> Microseconds {
        let value = try duration()
        guard value > 0 else { throw error("expected a duration above 0") }
        return value
    }

    func size() throws -> Bytes {
        switch Quantity.size(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    func rate() throws -> Rate {
        switch Quantity.rate(try string()) {
        case .success(let v): return v
        case .failure(let e): throw error(e.message)
        }
    }

    /// One of `choices`, with a suggestion when it is close to one.
    func choice(_ choices: [String], what: String) throws -> String {
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
struct Mapping {
    let owner: NodeReader
    let entries: [(String, NodeReader)]

    subscript(key: String) -> NodeReader? {
        entries.first { $0.0 == key }?.1
    }

    func required(_ key: String) throws -> NodeReader {
        guard let value = self[key] else { throw owner.error("missing key '\(key)'") }
        return value
    }

    var keys: [String] { entries.map(\.0) }
}
