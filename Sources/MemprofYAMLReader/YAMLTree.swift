// libyaml's event parser, the copy Yams compiles in (its C module `CYaml`: libyaml 0.2.5 with
// Yams' nesting limit of 1000), so scanner and parser errors, their marks and the nesting limit
// are exactly Yams' own. Yams keeps that parser's events internal, hence the C module directly.
internal import CYaml
import Yams

/// A YAML document composed from libyaml's events into three flat arrays: one entry per node
/// (kind, style, tag, mark), the scalars' UTF-8 bytes one after another, and each collection's
/// children as entry numbers. It holds what `Yams.compose(yaml:, .basic)` holds, node for node
/// (marks, strings, styles, tags, duplicate keys refused, aliases shared as Yams shares them),
/// without a `String`, a `Tag` object and an array per node: reading a large workload through
/// Yams' node tree cost about 0.8 s for 3 MB, almost all of it building and walking the tree.
/// It is memprof's one composer of YAML; overrides edit a changed copy (``Editor``).
/// `YAMLTreeTests` hold it to Yams' composer on a corpus and on thousands of mutated workloads.
package final class YAMLTree {
    package enum Kind: UInt8 { case scalar, sequence, mapping }

    package struct Entry {
        package var kind: Kind
        /// libyaml's style number (`Node.Scalar.Style`, `Node.Sequence.Style`, `Node.Mapping.Style` raw values).
        package var style: UInt8
        /// Where the node starts, 1-based, as Yams' `Mark`.
        var line: Int32
        var column: Int32
        /// A scalar's first byte in `bytes`; a collection's first child in `children`.
        var start: Int32
        /// A scalar's byte count; a sequence's items; a mapping's keys and values (twice its pairs).
        package var count: Int32
        /// An explicit tag's number in `tags`, or -1 (Yams' `Tag.implicit`).
        var tag: Int32
    }

    let entries: [Entry]
    let bytes: [UInt8]
    let children: [Int32]
    let tags: [String]
    /// The document's root: the first entry of a composed tree; any entry of an edited one.
    let root: Int32

    fileprivate init(entries: [Entry], bytes: [UInt8], children: [Int32], tags: [String], root: Int32 = 0) {
        self.entries = entries
        self.bytes = bytes
        self.children = children
        self.tags = tags
        self.root = root
    }

    static let strTag = Tag.Name.str.rawValue

    package func entry(_ index: Int32) -> Entry { entries[Int(index)] }

    /// A scalar's text.
    package func string(_ index: Int32) -> String {
        let e = entries[Int(index)]
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(e.start)..<Int(e.start + e.count)]), as: UTF8.self)
        }
    }

    /// Whether a scalar's text is `text`, without making a `String`.
    package func scalar(_ index: Int32, is text: String) -> Bool {
        let e = entries[Int(index)]
        let utf8 = text.utf8
        guard utf8.count == Int(e.count) else { return false }
        return bytes.withUnsafeBufferPointer { b in
            utf8.withContiguousStorageIfAvailable { t in
                (0..<t.count).allSatisfy { b[Int(e.start) + $0] == t[$0] }
            } ?? utf8.elementsEqual(b[Int(e.start)..<Int(e.start + e.count)])
        }
    }

    /// Whether a scalar is written plain (not quoted, not a block), as booleans must be.
    package func isPlain(_ index: Int32) -> Bool {
        let style = Node.Scalar.Style(rawValue: UInt32(entries[Int(index)].style))
        return style == .plain || style == .any
    }

    func isASCII(_ index: Int32) -> Bool {
        let e = entries[Int(index)]
        return bytes[Int(e.start)..<Int(e.start + e.count)].allSatisfy { $0 < 0x80 }
    }

    package func child(_ index: Int32, _ n: Int) -> Int32 { children[Int(entries[Int(index)].start) + n] }

    // MARK: Composing

    /// Composes `text` as `Yams.compose(yaml: text, .basic)` does: nil for a stream without a
    /// document, and for text it refuses the problem Yams' `YamlError` describes (same words, same
    /// place: ``YAMLProblem`` is what ``YAMLText`` makes of either).
    static func compose(_ text: String) throws(YAMLProblem) -> YAMLTree? {
        var text = text
        let original = text
        return try text.withUTF8 { (utf8: UnsafeBufferPointer<UInt8>) -> Result<YAMLTree?, YAMLProblem> in
            var composer = Composer(text: original)
            return Result { () throws(YAMLProblem) -> YAMLTree? in try composer.run(utf8) }
        }.get()
    }

    private struct Frame {
        var entry: Int32
        var firstChild: Int
        var anchor: String?
    }

    private struct Composer {
        let text: String
        // The tree's arrays, built here (a struct's own storage: no exclusivity checks per access).
        var entries: [Entry] = []
        var bytes: [UInt8] = []
        var children: [Int32] = []
        var tags: [String] = []
        /// Per tag number: whether a key with it compares as an untagged one (`str`, `!`).
        var tagIsStr: [Bool] = []
        var parser = yaml_parser_t()
        var event = yaml_event_t()
        var holdsEvent = false
        /// Children of the collections still open, innermost last.
        var pending: [Int32] = []
        var frames: [Frame] = []
        var anchors: [String: Int32] = [:]
        var tagNumbers: [String: Int32] = [:]

        init(text: String) { self.text = text }

        var tree: YAMLTree {
            YAMLTree(entries: entries, bytes: bytes, children: children, tags: tags)
        }

        mutating func run(_ utf8: UnsafeBufferPointer<UInt8>) throws(YAMLProblem) -> YAMLTree? {
            guard yaml_parser_initialize(&parser) == 1 else { throw .memory() }
            defer {
                release()
                yaml_parser_delete(&parser)
            }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            // libyaml asserts a non-null input; empty text is a stream without a document, as in Yams.
            guard let input = utf8.baseAddress, !utf8.isEmpty else { return nil }
            yaml_parser_set_input_string(&parser, input, utf8.count)
            // About one node per 6 bytes of a workload, and fewer scalar bytes than text.
            entries.reserveCapacity(utf8.count / 6)
            children.reserveCapacity(utf8.count / 6)
            bytes.reserveCapacity(utf8.count)
            return try compose()
        }

        /// The event sequence of Yams' `Parser.init` and `singleRoot()`.
        mutating func compose() throws(YAMLProblem) -> YAMLTree? {
            _ = try next()  // the stream start
            guard parser.stream_end_produced == 0, try next() != YAML_STREAM_END_EVENT else { return nil }
            _ = try next()  // the root's first event
            try composeNode()
            _ = try next()  // the document end
            if try next() != YAML_STREAM_END_EVENT {
                throw .syntax(problem: "but found another document",
                              context: ("expected a single document in the stream", 1), at: startMark)
            }
            return tree
        }

        mutating func release() {
            if holdsEvent { yaml_event_delete(&event) }
            holdsEvent = false
        }

        mutating func next() throws(YAMLProblem) -> yaml_event_type_t {
            release()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw parserError() }
            holdsEvent = true
            return event.type
        }

        /// Composes the node whose first event is the current one, without recursion (nesting is
        /// bounded by libyaml's limit of 1000, but a stack of frames costs nothing).
        mutating func composeNode() throws(YAMLProblem) {
            while true {
                switch event.type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let index = append(kind: .scalar, style: UInt8(truncatingIfNeeded: scalar.style.rawValue),
                                       tag: scalar.quoted_implicit == 1 ? number(of: YAMLTree.strTag) : tagNumber(scalar.tag))
                    var value = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
                    // Yams makes the string with Foundation's `String(bytes:encoding:)`, which drops
                    // a leading byte order mark.
                    if value.starts(with: [0xEF, 0xBB, 0xBF]) { value = UnsafeBufferPointer(rebasing: value.dropFirst(3)) }
                    entries[Int(index)].start = Int32(bytes.count)
                    entries[Int(index)].count = Int32(value.count)
                    if !value.isEmpty { bytes.append(contentsOf: value) }
                    register(anchor: Self.string(scalar.anchor), index)
                    if done(index) { return }
                case YAML_ALIAS_EVENT:
                    guard let name = Self.string(event.data.alias.anchor), let target = anchors[name] else {
                        throw .syntax(problem: "found undefined alias", context: nil, at: startMark)
                    }
                    if done(target) { return }
                case YAML_SEQUENCE_START_EVENT:
                    let start = event.data.sequence_start
                    open(kind: .sequence, style: UInt8(truncatingIfNeeded: start.style.rawValue),
                         tag: start.implicit != 0 ? -1 : tagNumber(start.tag), anchor: Self.string(start.anchor))
                case YAML_MAPPING_START_EVENT:
                    let start = event.data.mapping_start
                    open(kind: .mapping, style: UInt8(truncatingIfNeeded: start.style.rawValue),
                         tag: start.implicit != 0 ? -1 : tagNumber(start.tag), anchor: Self.string(start.anchor))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let frame = frames.removeLast()
                    let first = Int32(children.count)
                    children.append(contentsOf: pending[frame.firstChild...])
                    pending.removeSubrange(frame.firstChild...)
                    entries[Int(frame.entry)].start = first
                    entries[Int(frame.entry)].count = Int32(children.count) - first
                    if entries[Int(frame.entry)].kind == .mapping { try checkDuplicates(frame.entry) }
                    register(anchor: frame.anchor, frame.entry)
                    if done(frame.entry) { return }
                default:
                    fatalError("libyaml gave event \(event.type) inside a document")
                }
                _ = try next()
            }
        }

        /// Adds a finished node to the collection it is in; true when it is the document's root.
        mutating func done(_ index: Int32) -> Bool {
            guard !frames.isEmpty else { return true }
            pending.append(index)
            return false
        }

        mutating func append(kind: Kind, style: UInt8, tag: Int32) -> Int32 {
            let mark = event.start_mark
            entries.append(Entry(kind: kind, style: style, line: Int32(truncatingIfNeeded: mark.line + 1),
                                      column: Int32(truncatingIfNeeded: mark.column + 1), start: 0, count: 0, tag: tag))
            return Int32(entries.count - 1)
        }

        mutating func open(kind: Kind, style: UInt8, tag: Int32, anchor: String?) {
            let index = append(kind: kind, style: style, tag: tag)
            frames.append(Frame(entry: index, firstChild: pending.count, anchor: anchor))
        }

        /// Anchors name a node once it is complete, the latest definition winning (as in Yams).
        mutating func register(anchor: String?, _ index: Int32) {
            guard let anchor else { return }
            anchors[anchor] = index
        }

        mutating func tagNumber(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> Int32 {
            guard let name = Self.string(pointer) else { return -1 }
            return number(of: name)
        }

        mutating func number(of name: String) -> Int32 {
            if let n = tagNumbers[name] { return n }
            tags.append(name)
            tagIsStr.append(name.isEmpty || name == Tag.Name.nonSpecific.rawValue || name == YAMLTree.strTag)
            tagNumbers[name] = Int32(tags.count - 1)
            return Int32(tags.count - 1)
        }

        /// Yams reads anchors and tags as C strings, repairing bad UTF-8.
        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String.decodeCString(pointer, as: UTF8.self, repairingInvalidCodeUnits: true)?.result
        }

        var startMark: (line: Int, column: Int) { (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1) }

        /// Duplicate keys, refused with Yams' error: the same text and resolved tag (plain and
        /// quoted keys without a tag are both `str` under the basic resolver). Scalars are compared
        /// here; when two keys match, or two keys are collections, Yams' own comparison decides.
        mutating func checkDuplicates(_ mapping: Int32) throws(YAMLProblem) {
            let e = entries[Int(mapping)]
            let pairs = Int(e.count) / 2
            guard pairs > 1 else { return }
            let first = Int(e.start)
            func key(_ n: Int) -> Entry { entries[Int(children[first + 2 * n])] }
            var clash = false
            var collections = 0
            if pairs <= 16 {
                // A mapping of a script entry or an app: compared pair by pair, nothing allocated.
                search: for i in 0..<pairs {
                    let a = key(i)
                    guard a.kind == .scalar else { collections += 1; continue }
                    for j in 0..<i where key(j).kind == .scalar && sameScalar(a, key(j)) {
                        clash = true
                        break search
                    }
                }
            } else {
                var seen = Set<ScalarKey>()
                for i in 0..<pairs {
                    let k = key(i)
                    guard k.kind == .scalar else { collections += 1; continue }
                    let text = Array(bytes[Int(k.start)..<Int(k.start + k.count)])
                    if !seen.insert(ScalarKey(tag: keyTag(k.tag), text: text)).inserted { clash = true }
                }
            }
            guard clash || collections > 1 else { return }
            try duplicateCheck((0..<pairs).map { children[first + 2 * $0] })
        }

        /// The tag a key compares by: Yams resolves none, `!` and `str` alike (basic resolver).
        func keyTag(_ tag: Int32) -> Int32 { tag < 0 || tagIsStr[Int(tag)] ? -1 : tag }

        func sameScalar(_ a: Entry, _ b: Entry) -> Bool {
            guard a.count == b.count, keyTag(a.tag) == keyTag(b.tag) else { return false }
            return bytes.withUnsafeBufferPointer { p in
                (0..<Int(a.count)).allSatisfy { p[Int(a.start) + $0] == p[Int(b.start) + $0] }
            }
        }

        /// Yams' `checkDuplicates(mappingKeys:)`, worked out on the entries: the keys grouped as
        /// Yams' `Node` equality groups them (a scalar by its text and resolved tag, a collection
        /// by its resolved tag and children), the groups named in the order of Yams' `Node` `<`
        /// (scalars by text, collections item by item, a mapping's pairs by their keys; a scalar
        /// and a collection are unordered, so they stay in file order), at the first occurrence
        /// of the first group.
        func duplicateCheck(_ keys: [Int32]) throws(YAMLProblem) {
            var groups: [(first: Int32, count: Int)] = []
            var scalarGroups: [String: [(tag: String, group: Int)]] = [:]
            for k in keys {
                var group: Int?
                if entries[Int(k)].kind == .scalar {
                    let text = text(k), tag = resolvedTag(k)
                    group = scalarGroups[text]?.first { $0.tag == tag }?.group
                    if group == nil { scalarGroups[text, default: []].append((tag, groups.count)) }
                } else {
                    group = groups.indices.first { entries[Int(groups[$0].first)].kind != .scalar && same(groups[$0].first, k) }
                }
                if let group { groups[group].count += 1 } else { groups.append((k, 1)) }
            }
            let duplicates = groups.filter { $0.count > 1 }.map(\.first)
            guard !duplicates.isEmpty else { return }
            let sorted = duplicates.sorted { less($0, $1) }
            let at = entries[Int(sorted[0])]
            throw .duplicates(sorted.map { entries[Int($0)].kind == .scalar ? text($0) : "<uncovertable>" },
                              at: (Int(at.line), Int(at.column)))
        }

        /// The tag Yams resolves a node's to under its basic resolver: none and `!` are the kind's own.
        func resolvedTag(_ index: Int32) -> String {
            let e = entries[Int(index)]
            if e.tag >= 0, !tags[Int(e.tag)].isEmpty, tags[Int(e.tag)] != Tag.Name.nonSpecific.rawValue { return tags[Int(e.tag)] }
            switch e.kind {
            case .scalar: return YAMLTree.strTag
            case .sequence: return Tag.Name.seq.rawValue
            case .mapping: return Tag.Name.map.rawValue
            }
        }

        /// Yams' `Node` `==` (strings compared as `String`s).
        func same(_ a: Int32, _ b: Int32) -> Bool {
            if a == b { return true }
            let (x, y) = (entries[Int(a)], entries[Int(b)])
            guard x.kind == y.kind, x.count == y.count || x.kind == .scalar, resolvedTag(a) == resolvedTag(b) else { return false }
            if x.kind == .scalar { return text(a) == text(b) }
            return (0..<Int(x.count)).allSatisfy { same(children[Int(x.start) + $0], children[Int(y.start) + $0]) }
        }

        /// Yams' `Node` `<`: scalars by text, sequences item by item, mappings pair by pair by
        /// their keys (then the shorter first); false between kinds.
        func less(_ a: Int32, _ b: Int32) -> Bool {
            let (x, y) = (entries[Int(a)], entries[Int(b)])
            guard x.kind == y.kind else { return false }
            if x.kind == .scalar { return text(a) < text(b) }
            let step = x.kind == .mapping ? 2 : 1
            for n in stride(from: 0, to: Int(min(x.count, y.count)), by: step) {
                let (l, r) = (children[Int(x.start) + n], children[Int(y.start) + n])
                if less(l, r) { return true }
                if less(r, l) { return false }
            }
            return x.count < y.count
        }

        /// A scalar's text.
        func text(_ index: Int32) -> String {
            let e = entries[Int(index)]
            return String(decoding: bytes[Int(e.start)..<Int(e.start + e.count)], as: UTF8.self)
        }

        /// What Yams' `YamlError(from: parser, with: yaml)` says.
        func parserError() -> YAMLProblem {
            let problem = parser.problem.map { String(cString: $0) } ?? ""
            switch parser.error {
            case YAML_READER_ERROR:
                // Yams counts the offset in characters.
                let index = text.utf8.index(text.utf8.startIndex, offsetBy: parser.problem_offset,
                                            limitedBy: text.utf8.endIndex)?.samePosition(in: text)
                return .reader(problem: problem, offset: index.map { text.distance(from: text.startIndex, to: $0) })
            case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
                let context = parser.context.map { (String(cString: $0), Int(parser.context_mark.line) + 1) }
                return .syntax(problem: problem, context: context,
                               at: (Int(parser.problem_mark.line) + 1, Int(parser.problem_mark.column) + 1))
            default:
                return .memory()
            }
        }
    }

    private struct ScalarKey: Hashable {
        var tag: Int32
        var text: [UInt8]
    }
}


extension YAMLTree {
    /// A changed copy of a tree: what overrides (`--set`, `--device`, a sweep's matrix) do to a
    /// workload before it is read. No entry is changed in place: a changed collection is a new
    /// entry (with the old one's mark, tag and style) whose children are appended, so a node an
    /// alias shares keeps its value wherever else it appears, as in a tree of values. What is
    /// added (a value's nodes, a new key, a new mapping) has no mark, line and column 0.
    package struct Editor {
        private var entries: [Entry]
        private var bytes: [UInt8]
        private var children: [Int32]
        private var tags: [String]
        package var root: Int32

        package init(_ tree: YAMLTree) {
            (entries, bytes, children, tags) = (tree.entries, tree.bytes, tree.children, tree.tags)
            root = tree.root
        }

        /// The tree as edited, to read.
        package var tree: YAMLTree {
            YAMLTree(entries: entries, bytes: bytes, children: children, tags: tags, root: root)
        }

        package func kind(_ index: Int32) -> Kind { entries[Int(index)].kind }

        /// A collection's children: a sequence's items, a mapping's keys and values alternately.
        package func children(_ index: Int32) -> [Int32] {
            let e = entries[Int(index)]
            guard e.kind != .scalar else { return [] }
            return Array(children[Int(e.start)..<Int(e.start + e.count)])
        }

        /// Where a node is written (1-based); line 0 for a node an override added.
        package func mark(_ index: Int32) -> (line: Int, column: Int) {
            (Int(entries[Int(index)].line), Int(entries[Int(index)].column))
        }

        /// A scalar's text; nil for a collection.
        package func text(_ index: Int32) -> String? {
            let e = entries[Int(index)]
            guard e.kind == .scalar else { return nil }
            return String(decoding: bytes[Int(e.start)..<Int(e.start + e.count)], as: UTF8.self)
        }

        /// Whether the key at `index` is `key` as Yams looks a key up by its text (`mapping[key]`):
        /// a scalar of that text whose tag resolves to `str` (none, `!` or `!!str`).
        package func isKey(_ index: Int32, _ key: String) -> Bool {
            let e = entries[Int(index)]
            guard e.kind == .scalar, e.tag < 0 || Self.isStr(tags[Int(e.tag)]) else { return false }
            return text(index) == key
        }

        static func isStr(_ tag: String) -> Bool {
            tag.isEmpty || tag == Tag.Name.nonSpecific.rawValue || tag == YAMLTree.strTag
        }

        /// Composes `text` (an override's value) and adds its nodes without marks: its root's
        /// entry, or an empty scalar for text without a document. Throws for text that is not YAML.
        package mutating func add(yaml text: String) throws -> Int32 {
            let value: YAMLTree?
            do {
                value = try YAMLTree.compose(text)
            } catch {
                throw error.located(file: "")
            }
            guard let value else { return add(scalar: "") }
            let (entryBase, byteBase, childBase) = (Int32(entries.count), Int32(bytes.count), Int32(children.count))
            var tagNumbers: [Int32] = []
            for name in value.tags {
                if let n = tags.firstIndex(of: name) {
                    tagNumbers.append(Int32(n))
                } else {
                    tags.append(name)
                    tagNumbers.append(Int32(tags.count - 1))
                }
            }
            for var e in value.entries {
                e.line = 0
                e.column = 0
                e.start += e.kind == .scalar ? byteBase : childBase
                if e.tag >= 0 { e.tag = tagNumbers[Int(e.tag)] }
                entries.append(e)
            }
            bytes.append(contentsOf: value.bytes)
            children.append(contentsOf: value.children.map { $0 + entryBase })
            return value.root + entryBase
        }

        /// Adds a plain scalar without a mark or a tag (a key an override creates).
        package mutating func add(scalar text: String) -> Int32 {
            let utf8 = Array(text.utf8)
            entries.append(Entry(kind: .scalar, style: 0, line: 0, column: 0, start: Int32(bytes.count),
                                 count: Int32(utf8.count), tag: -1))
            bytes.append(contentsOf: utf8)
            return Int32(entries.count - 1)
        }

        /// Adds a collection of `kind` with `items` as its children: with the mark, tag and style
        /// of the entry `like` (a changed copy of it), or none of them (a new one).
        package mutating func add(_ kind: Kind, like: Int32?, children items: [Int32]) -> Int32 {
            var e = like.map { entries[Int($0)] } ?? Entry(kind: kind, style: 0, line: 0, column: 0, start: 0, count: 0, tag: -1)
            e.kind = kind
            e.start = Int32(children.count)
            e.count = Int32(items.count)
            children.append(contentsOf: items)
            entries.append(e)
            return Int32(entries.count - 1)
        }
    }
}
