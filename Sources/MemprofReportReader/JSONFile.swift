import Foundation
import MemprofInput

/// memprof's own JSON files other than report.json read back whole into a `Decodable` (a
/// sweep's fleet.json): checked by `JSONScanner` (syntax, UTF-8, duplicate keys, at most one
/// value), decoded by the report reader's plain decoder, and by Foundation's `JSONDecoder` where
/// that gives up, so its messages are `JSONDecoder`'s. The one path such a file is read by.
public enum JSONFile {
    /// `T` from `data`; throws `JSONScanError` for text that is not one JSON value, and
    /// `JSONDecoder`'s errors for a value of another shape.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let plain: T? = try data.withUnsafeBytes { bytes throws(JSONScanError) -> T? in
            var scanner = JSONScanner(bytes)
            try scanner.skipValue()
            try scanner.expectEnd()
            return PlainJSONDecoder.decode(T.self, from: bytes.bindMemory(to: UInt8.self))
        }
        if let plain { return plain }
        return try JSONDecoder().decode(T.self, from: data)
    }
}

extension JSONFile {
    /// `T` from `data` as ``decode(_:from:)`` reads it, with every error placed in `file`: a
    /// syntax error where the scanner stopped; a value of another shape (a missing key, a string
    /// where a number is, an impossible value a type's own `init(from:)` refuses) at that value,
    /// found by walking its coding path through the text. The error is the one every located
    /// input error is (`file:line:col: key: what`, exit 2). `check` refuses a value read whole
    /// (a range, a schema) with a `DecodingError` whose coding path says where, placed the same way.
    public static func read<T: Decodable>(_ type: T.Type, from data: Data, file: String,
                                          check: (T) throws -> Void = { _ in }) throws(WorkloadError) -> T {
        func placed(_ offset: Int, _ keyPath: String, _ message: String) -> WorkloadError {
            let (line, column) = data.withUnsafeBytes { JSONScanError.location(of: offset, in: $0) }
            return WorkloadError(file: file, line: line, column: column, keyPath: keyPath, message: message)
        }
        do {
            let value = try decode(T.self, from: data)
            try check(value)
            return value
        } catch let error as JSONScanError {
            throw placed(error.offset, "", error.message)
        } catch let error as DecodingError {
            let parts = Self.parts(of: error)
            let at = data.withUnsafeBytes { bytes in Self.offset(of: parts.path, in: bytes) }
            var named = parts.path
            if let missing = parts.missing { named.append(missing) }
            throw placed(at, Self.keyPath(named), parts.message)
        } catch {
            throw placed(0, "", "\(error)")
        }
    }

    /// A key of a coding path, for a `check` to say where a value is wrong.
    public struct Key: CodingKey, Sendable {
        public var stringValue: String
        public var intValue: Int?
        public init(_ name: String) { stringValue = name }
        public init(_ index: Int) { stringValue = "\(index)"; intValue = index }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { self.init(intValue) }
    }

    /// The coding path of a decoding error, the key it misses (for `keyNotFound`), and what is wrong in words.
    static func parts(of error: DecodingError) -> (path: [any CodingKey], missing: (any CodingKey)?, message: String) {
        switch error {
        case .keyNotFound(let key, let c): (c.codingPath, key, "missing key '\(key.stringValue)'")
        case .typeMismatch(let type, let c): (c.codingPath, nil, "expected \(words(type)), found something else")
        case .valueNotFound(let type, let c): (c.codingPath, nil, "expected \(words(type)), found null")
        case .dataCorrupted(let c): (c.codingPath, nil, c.debugDescription)
        @unknown default: ([], nil, "\(error)")
        }
    }

    /// `parameters[0].interval.low`.
    static func keyPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }

    /// The offset of the value at `path` in `bytes` (checked JSON), or of the deepest value on
    /// the path that is there (the object a missing key belongs in).
    static func offset(of path: [any CodingKey], in bytes: UnsafeRawBufferPointer) -> Int {
        var s = JSONScanner(bytes)
        s.skipSpace()
        var at = s.index
        do throws(JSONScanError) {
            steps: for key in path {
                if let wanted = key.intValue, s.peek() == UInt8(ascii: "[") {
                    try s.beginArray()
                    var first = true, i = 0
                    while try s.nextElement(first: &first) {
                        if i == wanted { s.skipSpace(); at = s.index; continue steps }
                        try s.skipValue()
                        i += 1
                    }
                    return at
                } else if s.peek() == UInt8(ascii: "{") {
                    try s.beginObject()
                    var first = true
                    while let member = try s.nextMember(first: &first) {
                        if s.string(member) == key.stringValue { s.skipSpace(); at = s.index; continue steps }
                        try s.skipValue()
                    }
                    return at
                } else {
                    return at
                }
            }
        } catch {}
        return at
    }
}
