import MemprofInput

/// A JSON value with the line and column it starts at, for errors that point into the file.
///
/// `.ips` files are read with `JSONScanner` (MemprofReportReader's strict JSON scanner, the one
/// report.json is read with) into these values, so that every error can name its line, column
/// and key, and so that hostile input has bounds: at most ``maxDepth`` levels of nesting, strings
/// of at most ``maxStringBytes`` bytes, and a key given twice in one object refused. It is what
/// the `.ips` fuzz test reads.
struct JSONNode: Sendable, Equatable {
    static let maxDepth = 64
    static let maxStringBytes = 1 << 20

    enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number as written, so integers keep every digit.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order (a key appears once: the reader refuses duplicates).
        case object([Member])
    }

    struct Member: Sendable, Equatable {
        var key: String
        var value: JSONNode
    }

    var kind: Kind
    /// 1-based.
    var line: Int
    /// 1-based, in bytes.
    var column: Int

    /// The first member named `key`, when this is an object.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// This number as a whole number within `range`; otherwise an error at this node.
    func wholeNumber(in range: ClosedRange<Int>, file: String, path: String) throws(IPSError) -> Int {
        func error(_ message: String) -> IPSError { IPSError(file: file, line: line, column: column, keyPath: path, message: message) }
        guard case .number(let text) = kind else { throw error("expected a whole number, found \(typeName)") }
        guard let v = Int(text) else { throw error("\(text) is not a whole number") }
        guard range.contains(v) else { throw error("\(v) is out of range \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Where reading stopped, and why.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var line: Int
    var column: Int
    var message: String
}

/// Reads JSON values one after another from a text with a `JSONScanner`, and knows the line and
/// column of every offset it has passed (lines are counted once, as the reading moves on).
struct JSONNodeReader {
    var scanner: JSONScanner
    /// The line of `lineOffset`, and where that line starts.
    private var line = 1
    private var lineStart = 0
    private var lineOffset = 0

    /// A reader over `bytes`, which must stay valid while it is used.
    init(_ bytes: UnsafeRawBufferPointer) {
        scanner = JSONScanner(bytes)
    }

    /// `bytes` as one JSON value and nothing after it; invalid JSON, an empty file (which should
    /// have held `expected`) or text after the value refused with the file's line and column.
    static func whole(_ bytes: [UInt8], file: String, expected: String) throws(IPSError) -> JSONNode {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(IPSError) -> JSONNode in
                var reader = JSONNodeReader(raw)
                do throws(JSONSyntaxError) {
                    guard !reader.atEnd() else { throw reader.error("the file is empty; expected \(expected)") }
                    let node = try reader.readValue()
                    guard reader.atEnd() else { throw reader.error("unexpected text after the JSON value") }
                    return node
                } catch {
                    throw IPSError(file: file, line: error.line, column: error.column, keyPath: "", message: "invalid JSON: \(error.message)")
                }
            }
        }.get()
    }

    /// The byte offset after the last value read.
    var offset: Int { scanner.index }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool { scanner.peek() == nil }

    /// Reads one value (after white space).
    mutating func readValue() throws(JSONSyntaxError) -> JSONNode {
        do throws(JSONScanError) {
            return try value(depth: 0)
        } catch {
            throw syntaxError(error.message, at: error.offset)
        }
    }

    /// An error at the reader's offset.
    mutating func error(_ message: String) -> JSONSyntaxError {
        syntaxError(message, at: scanner.index)
    }

    private mutating func value(depth: Int) throws(JSONScanError) -> JSONNode {
        scanner.skipSpace()
        let start = scanner.index
        guard depth < JSONNode.maxDepth else { throw scanner.fail("nested deeper than \(JSONNode.maxDepth) levels", at: start) }
        guard let first = scanner.peek() else { throw scanner.fail("unexpected end of the file, expected a value", at: start) }
        let (line, column) = position(of: start)
        let kind: JSONNode.Kind
        switch first {
        case UInt8(ascii: "{"): kind = try object(depth: depth)
        case UInt8(ascii: "["): kind = try array(depth: depth)
        case UInt8(ascii: "\""): kind = .string(try string(try scanner.scanString()))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool(try scanner.readBool())
        case UInt8(ascii: "n"):
            guard scanner.readNull() else { throw scanner.fail("unexpected text, expected a value", at: start) }
            kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Checked by the scanner's number grammar (which reads the white space after it too);
            // kept as written.
            try scanner.skipValue()
            var end = scanner.index
            while end > start, [0x20, 0x0A, 0x0D, 0x09].contains(scanner.base[end - 1]) { end -= 1 }
            guard end - start <= 64 else { throw scanner.fail("a number longer than 64 characters", at: start) }
            kind = .number(String(decoding: UnsafeBufferPointer(start: scanner.base + start, count: end - start), as: UTF8.self))
        default: throw scanner.fail("unexpected character \(scanner.what(start)), expected a value", at: start)
        }
        return JSONNode(kind: kind, line: line, column: column)
    }

    private mutating func object(depth: Int) throws(JSONScanError) -> JSONNode.Kind {
        try scanner.beginObject()
        var members: [JSONNode.Member] = []
        var keys: Set<String> = []
        var first = true
        while let key = try scanner.nextMember(first: &first) {
            let name = try string(key)
            // Two values for one key: which one the report meant cannot be told, so neither is taken.
            guard keys.insert(name).inserted else {
                throw scanner.fail("the key \(name.debugDescription) appears twice in one object", at: key.quote)
            }
            members.append(JSONNode.Member(key: name, value: try value(depth: depth + 1)))
        }
        return .object(members)
    }

    private mutating func array(depth: Int) throws(JSONScanError) -> JSONNode.Kind {
        try scanner.beginArray()
        var elements: [JSONNode] = []
        var first = true
        while try scanner.nextElement(first: &first) {
            elements.append(try value(depth: depth + 1))
        }
        return .array(elements)
    }

    private func string(_ key: JSONScanner.Key) throws(JSONScanError) -> String {
        let s = scanner.string(key)
        guard s.utf8.count <= JSONNode.maxStringBytes else {
            throw scanner.fail("a string longer than \(JSONNode.maxStringBytes) bytes", at: key.quote)
        }
        return s
    }

    /// The 1-based line and column (in bytes) of `offset`.
    private mutating func position(of offset: Int) -> (line: Int, column: Int) {
        if offset < lineOffset { (line, lineStart, lineOffset) = (1, 0, 0) }
        let end = min(offset, scanner.count)
        while lineOffset < end {
            if scanner.base[lineOffset] == 0x0A {
                line += 1
                lineStart = lineOffset + 1
            }
            lineOffset += 1
        }
        return (line, offset - lineStart + 1)
    }

    private mutating func syntaxError(_ message: String, at offset: Int) -> JSONSyntaxError {
        let (line, column) = position(of: offset)
        return JSONSyntaxError(line: line, column: column, message: message)
    }
}
