/// A JSON value with the line and column it starts at, for errors that point into the file.
///
/// memprof reads `.ips` files with this parser rather than Foundation's so that every error can
/// name its line, column and key, and so that hostile input has bounds: at most
/// ``JSONNodeParser/maxDepth`` levels of nesting and strings of at most
/// ``JSONNodeParser/maxStringBytes`` bytes. It is the target of the `.ips` fuzz test.
public struct JSONNode: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number as written, so integers keep every digit.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order (a key appears once: the parser refuses duplicates).
        case object([Member])
    }

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONNode
    }

    public var kind: Kind
    /// 1-based.
    public var line: Int
    /// 1-based, in bytes.
    public var column: Int

    /// The first member named `key`, when this is an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var typeName: String {
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

/// Where parsing stopped, and why.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// A strict JSON (RFC 8259) parser over UTF-8 bytes that records positions.
public struct JSONNodeParser {
    public static let maxDepth = 64
    public static let maxStringBytes = 1 << 20

    private let bytes: [UInt8]
    private var index: Int
    private var line = 1
    private var lineStart: Int

    /// Parses one value starting at byte `start` of `bytes`, which begins at `line`.
    public init(_ bytes: [UInt8], start: Int = 0, line: Int = 1) {
        self.bytes = bytes
        index = start
        lineStart = start
        self.line = line
    }

    /// The byte offset after the last value parsed.
    public var offset: Int { index }

    /// Parses one value and requires only white space after it.
    public static func parseDocument(_ bytes: [UInt8], start: Int = 0, line: Int = 1) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONNodeParser(bytes, start: start, line: line)
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return node
    }

    public mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard depth < Self.maxDepth else { throw error("nested deeper than \(Self.maxDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of the file, expected a value") }
        let line = self.line
        let column = index - lineStart + 1
        let kind: JSONNode.Kind
        switch bytes[index] {
        case UInt8(ascii: "{"): kind = try parseObject(depth: depth)
        case UInt8(ascii: "["): kind = try parseArray(depth: depth)
        case UInt8(ascii: "\""): kind = .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); kind = .bool(true)
        case UInt8(ascii: "f"): try literal("false"); kind = .bool(false)
        case UInt8(ascii: "n"): try literal("null"); kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
        return JSONNode(kind: kind, line: line, column: column)
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Kind {
        index += 1
        var members: [JSONNode.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let keyLine = line, keyColumn = index - lineStart + 1
            let key = try parseString()
            // Two values for one key: which one the report meant cannot be told, so neither is taken.
            guard keys.insert(key).inserted else {
                throw JSONSyntaxError(line: keyLine, column: keyColumn, message: "the key \(key.debugDescription) appears twice in one object")
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            let value = try parseValue(depth: depth + 1)
            members.append(JSONNode.Member(key: key, value: value))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Kind {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            guard out.count <= Self.maxStringBytes else { throw error("a string longer than \(Self.maxStringBytes) bytes") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("a string that is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("an invalid escape \\\(describe(e))")
                }
            case 0..<0x20: throw error("a control character inside a string")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hex digits")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { throw error("a number needs digits") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let c = peek, isDigit(c) { index += 1 }
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let c = peek, isDigit(c) else { throw error("a number needs digits after '.'") }
            while let c = peek, isDigit(c) { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let c = peek, isDigit(c) else { throw error("a number needs digits in its exponent") }
            while let c = peek, isDigit(c) { index += 1 }
        }
        guard index - start <= 64 else { throw error("a number longer than 64 characters") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("unexpected text, expected a value")
        }
        index += w.count
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private func describe(_ b: UInt8) -> String {
        (0x21..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
    }
}
