@testable import MemprofInput
@testable import MemprofYAMLReader
import Yams

/// Composes text both ways, with Yams' public API (`Yams.compose(yaml:, .basic)`) and into a
/// ``YAMLTree`` (memprof's one composer), and says where they differ: the tests hold the tree to
/// Yams' nodes, marks and errors on every text they see.
enum YAMLCrossCheck {
    /// nil when both refuse the text with the same located error, or both compose it into the
    /// same nodes (kinds, texts, styles, tags, marks, children); otherwise what differs.
    static func difference(_ text: String) -> String? {
        let yams = Result { () throws -> Node in
            do {
                guard let node = try Yams.compose(yaml: text, .basic) else { throw YAMLText.emptyFile("x.yaml") }
                return node
            } catch let error as YamlError {
                throw YAMLProblem(error).located(file: "x.yaml")
            }
        }
        let tree = Result { try YAMLText.composeTree(text, file: "x.yaml") }
        switch (yams, tree) {
        case (.failure(let a), .failure(let b)):
            let (a, b) = ("\(a)", "\(b)")
            // Yams orders two groups of duplicate keys with the same text (and different tags)
            // as its hash seed falls; the message names both, the mark may be either one.
            if a != b, !(a.contains("duplicate key") && a.split(separator: ":").last == b.split(separator: ":").last) {
                return "errors differ: Yams \(a) | tree \(b)"
            }
            return nil
        case (.success(let a), .success(let b)):
            var compared = Set<Int32>()
            var visits = 0
            return difference(a, b.tree, b.index, "", &compared, &visits)
        case (.failure(let a), .success):
            return "Yams refuses (\(a)), the tree composer accepts"
        case (.success, .failure(let b)):
            return "Yams accepts, the tree composer refuses (\(b))"
        }
    }

    private static func difference(_ node: Node, _ tree: YAMLTree, _ index: Int32, _ path: String,
                                   _ compared: inout Set<Int32>, _ visits: inout Int) -> String? {
        // A node an alias shares is the same Yams node wherever it appears: compared once.
        guard compared.insert(index).inserted else { return nil }
        visits += 1
        let e = tree.entry(index)
        let at = "at \(path.isEmpty ? "the root" : path)"
        guard node.mark?.line == Int(e.line), node.mark?.column == Int(e.column) else {
            return "\(at): mark \(node.mark.map { "\($0)" } ?? "none") vs \(e.line):\(e.column)"
        }
        // Yams resolves a tag when it is read (and resolves keys' tags in place while checking for
        // duplicates), so resolved tags are compared: none or `!` is the kind's own under the
        // basic resolver.
        var tag = e.tag < 0 ? "" : tree.tags[Int(e.tag)]
        if tag.isEmpty || tag == Tag.Name.nonSpecific.rawValue {
            tag = switch e.kind {
            case .scalar: Tag.Name.str.rawValue
            case .sequence: Tag.Name.seq.rawValue
            case .mapping: Tag.Name.map.rawValue
            }
        }
        guard "\(node.tag)" == tag else { return "\(at): tag '\(node.tag)' vs '\(tag)'" }
        switch (node, e.kind) {
        case (.scalar(let s), .scalar):
            guard s.string == tree.string(index) else { return "\(at): '\(s.string)' vs '\(tree.string(index))'" }
            guard s.style.rawValue == Int(e.style) else { return "\(at): style \(s.style) vs \(e.style)" }
            return nil
        case (.sequence(let items), .sequence):
            guard items.count == Int(e.count) else { return "\(at): \(items.count) items vs \(e.count)" }
            for (n, item) in items.enumerated() {
                if let d = difference(item, tree, tree.child(index, n), "\(path)[\(n)]", &compared, &visits) { return d }
            }
            return nil
        case (.mapping(let pairs), .mapping):
            guard pairs.count * 2 == Int(e.count) else { return "\(at): \(pairs.count) pairs vs \(e.count / 2)" }
            for (n, pair) in pairs.enumerated() {
                let key = pair.key.string ?? "{key \(n)}"
                if let d = difference(pair.key, tree, tree.child(index, 2 * n), "\(path)<\(key)>", &compared, &visits)
                    ?? difference(pair.value, tree, tree.child(index, 2 * n + 1), "\(path).\(key)", &compared, &visits) {
                    return d
                }
            }
            return nil
        default:
            return "\(at): \(node) vs a \(e.kind)"
        }
    }
}

extension YAMLProblem {
    /// What memprof says of a Yams `YamlError`: what the tree's composer must say of the same text.
    init(_ error: YamlError) {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            self = .syntax(problem: problem, context: context.map { ($0.text, $0.mark.line) }, at: (mark.line, mark.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            self = .duplicates(duplicates, at: (context.mark.line, context.mark.column))
        case .reader(let problem, let offset, _, _):
            self = .reader(problem: problem, offset: offset)
        default:
            self.init(line: 0, column: 0, message: "invalid YAML: \(error)")
        }
    }
}
