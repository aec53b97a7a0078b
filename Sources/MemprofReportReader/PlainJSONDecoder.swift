import MemprofInput

/// A fast `Decoder` for JSON already checked by `JSONScanner` (syntax, UTF-8, duplicate keys),
/// for the common case only: plain whole numbers, decimals without an exponent, keys of plain
/// ASCII without escapes. Whatever it is not sure to decode exactly as Foundation's `JSONDecoder`
/// would (any other number, such a key, any error at all, thrown by it or by a type's own
/// `init(from:)`), it gives up on (`decode` returns nil) and the caller decodes the same bytes
/// with `JSONDecoder`: the values are the same either way, and every error message is
/// `JSONDecoder`'s. So it never makes an error of its own, and its coding paths are empty.
public enum PlainJSONDecoder {
    /// One member of an object: its key's bytes (without quotes) and its value's.
    public struct Member {
        public var key: UnsafeBufferPointer<UInt8>
        public var value: UnsafeBufferPointer<UInt8>

        public init(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            self.key = key
            self.value = value
        }
    }

    /// `T` decoded from the object of `members` (checked JSON), or nil when the plain path
    /// gives up (see the type's notes).
    public static func decode<T: Decodable>(_ type: T.Type, object members: [Member]) -> T? {
        for member in members where !Plain.isPlainKey(member.key) { return nil }
        var fields: [Plain.Field] = []
        fields.reserveCapacity(members.count)
        for member in members {
            guard let start = member.value.baseAddress else { return nil }
            let end = start + member.value.count
            fields.append(Plain.Field(key: member.key, value: Plain.skipSpace(start, end), end: end))
        }
        return try? T(from: Plain.Decoder(fields: fields))
    }

    /// `T` decoded from one JSON value (checked), or nil when the plain path gives up.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) -> T? {
        guard let start = bytes.baseAddress else { return nil }
        return try? T(from: Plain.Decoder(at: start, end: start + bytes.count))
    }
}

/// The plain path gave up; the caller decodes with `JSONDecoder`.
struct GiveUp: Error {}

enum Plain {
    typealias Byte = UnsafePointer<UInt8>

    struct Field {
        var key: UnsafeBufferPointer<UInt8>
        var value: Byte
        var end: Byte
    }

    /// Printable ASCII, no quote or backslash: compared byte for byte, such a key equals a
    /// `CodingKey`'s name exactly when the two `String`s are equal.
    static func isPlainKey(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in key where b < 0x20 || b > 0x7E || b == 0x22 || b == 0x5C { return false }
        return true
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    @inline(__always) static func skipSpace(_ p: Byte, _ end: Byte) -> Byte {
        var p = p
        while p < end, isSpace(p.pointee) { p += 1 }
        return p
    }

    /// The end of the string whose opening quote is at `p` (after its closing quote).
    static func stringEnd(_ p: Byte, _ end: Byte) throws -> Byte {
        var p = p + 1
        while p < end {
            switch p.pointee {
            case 0x22: return p + 1
            case 0x5C: p += 2
            default: p += 1
            }
        }
        throw GiveUp()
    }

    /// The end of the value at `p` (checked JSON, no white space before it).
    static func valueEnd(_ p: Byte, _ end: Byte) throws -> Byte {
        guard p < end else { throw GiveUp() }
        switch p.pointee {
        case 0x22: return try stringEnd(p, end)
        case 0x7B, 0x5B:
            var depth = 0
            var p = p
            while p < end {
                switch p.pointee {
                case 0x22: p = try stringEnd(p, end); continue
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D:
                    depth -= 1
                    if depth == 0 { return p + 1 }
                default: break
                }
                p += 1
            }
            throw GiveUp()
        default:
            var p = p
            while p < end, !isSpace(p.pointee), p.pointee != 0x2C, p.pointee != 0x7D, p.pointee != 0x5D { p += 1 }
            return p
        }
    }

    /// The members of the object at `p`.
    static func members(_ p: Byte, _ end: Byte) throws -> [Field] {
        guard p < end, p.pointee == 0x7B else { throw GiveUp() }
        var fields: [Field] = []
        var p = skipSpace(p + 1, end)
        if p < end, p.pointee == 0x7D { return fields }
        while p < end {
            guard p.pointee == 0x22 else { throw GiveUp() }
            let keyEnd = try stringEnd(p, end)
            let key = UnsafeBufferPointer(start: p + 1, count: keyEnd - p - 2)
            guard isPlainKey(key) else { throw GiveUp() }
            p = skipSpace(keyEnd, end)
            guard p < end, p.pointee == 0x3A else { throw GiveUp() }
            let value = skipSpace(p + 1, end)
            let valueEnd = try valueEnd(value, end)
            fields.append(Field(key: key, value: value, end: valueEnd))
            p = skipSpace(valueEnd, end)
            guard p < end else { break }
            if p.pointee == 0x7D { return fields }
            guard p.pointee == 0x2C else { throw GiveUp() }
            p = skipSpace(p + 1, end)
        }
        throw GiveUp()
    }

    static func isNull(_ p: Byte, _ end: Byte) -> Bool { p < end && p.pointee == 0x6E }

    static func bool(_ p: Byte, _ end: Byte) throws -> Bool {
        guard p < end else { throw GiveUp() }
        if p.pointee == 0x74 { return true }
        if p.pointee == 0x66 { return false }
        throw GiveUp()
    }

    /// A whole number written plainly (`-?digits`), when `T` holds it; else gives up (other
    /// forms such as `1.0` or `1e2`, which `JSONDecoder` also reads, are left to it).
    static func integer<T: FixedWidthInteger>(_ p: Byte, _ end: Byte, as type: T.Type) throws -> T {
        var p = p
        let negative = p < end && p.pointee == 0x2D
        if negative { p += 1 }
        var magnitude: UInt64 = 0
        var digits = 0
        while p < end, p.pointee >= 0x30, p.pointee <= 0x39 {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(p.pointee - 0x30))
            guard !o1, !o2 else { throw GiveUp() }
            magnitude = sum
            digits += 1
            p += 1
        }
        guard digits > 0, p == end || isSpace(p.pointee) || p.pointee == 0x2C || p.pointee == 0x7D || p.pointee == 0x5D
        else { throw GiveUp() }
        if negative {
            guard magnitude > 0, magnitude <= UInt64(Int64.max) + 1 else { throw GiveUp() }
            let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            guard let v = T(exactly: value) else { throw GiveUp() }
            return v
        }
        guard let v = T(exactly: magnitude) else { throw GiveUp() }
        return v
    }

    /// A number without an exponent, of at most 40 characters (so it can neither overflow nor
    /// underflow), as `Double` rounds it (as `JSONDecoder` does); else gives up.
    static func double(_ p: Byte, _ end: Byte) throws -> Double {
        let stop = try valueEnd(p, end)
        let count = stop - p
        guard count > 0, count <= 40 else { throw GiveUp() }
        for q in p..<stop where !(q.pointee >= 0x30 && q.pointee <= 0x39 || q.pointee == 0x2D || q.pointee == 0x2E) {
            throw GiveUp()
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)), value.isFinite
        else { throw GiveUp() }
        return value
    }

    /// The string at `p`, its escapes decoded (by `JSONScanner`, as it reads strings everywhere).
    static func string(_ p: Byte, _ end: Byte) throws -> String {
        guard p < end, p.pointee == 0x22 else { throw GiveUp() }
        let stop = try stringEnd(p, end) - 1
        var q = p + 1
        while q < stop, q.pointee != 0x5C { q += 1 }
        if q == stop { return String(decoding: UnsafeBufferPointer(start: p + 1, count: stop - p - 1), as: UTF8.self) }
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: p, count: stop + 1 - p))
        guard let text = try? scanner.readString() else { throw GiveUp() }
        return text
    }

    // MARK: the decoder

    struct Decoder: Swift.Decoder {
        let at: Byte
        let end: Byte
        /// The members of the top object, when given (not read from `at`).
        var fields: [Field]?

        init(at: Byte, end: Byte) {
            self.at = Plain.skipSpace(at, end)
            self.end = end
        }

        init(fields: [Field]) {
            self.fields = fields
            at = UnsafePointer(bitPattern: 1)!
            end = at
        }

        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(fields: try fields ?? Plain.members(at, end)))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard fields == nil, at < end, at.pointee == 0x5B else { throw GiveUp() }
            return Unkeyed(next: at + 1, end: end)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            guard fields == nil else { throw GiveUp() }
            return Single(at: at, end: end)
        }
    }

    final class Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [Field]
        /// Where to look first: after the last key found (the next one asked for is most often there).
        var cursor = 0

        init(fields: [Field]) { self.fields = fields }

        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] {
            fields.compactMap { Key(stringValue: String(decoding: $0.key, as: UTF8.self)) }
        }

        func find(_ key: Key) -> Field? {
            var name = key.stringValue
            return name.withUTF8 { name in
                let n = fields.count
                guard n > 0 else { return nil }
                var k = cursor < n ? cursor : 0
                for _ in 0..<n {
                    let field = fields[k]
                    if field.key.count == name.count, field.key.elementsEqual(name) {
                        cursor = k + 1
                        return field
                    }
                    k = k + 1 < n ? k + 1 : 0
                }
                return nil
            }
        }

        func value(_ key: Key) throws -> Field {
            guard let field = find(key) else { throw GiveUp() }
            return field
        }

        func contains(_ key: Key) -> Bool { find(key) != nil }
        func decodeNil(forKey key: Key) throws -> Bool {
            let f = try value(key)
            return Plain.isNull(f.value, f.end)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            let f = try value(key)
            return try Plain.bool(f.value, f.end)
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let f = try value(key)
            return try Plain.string(f.value, f.end)
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let f = try value(key)
            return try Plain.double(f.value, f.end)
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw GiveUp() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try int(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try int(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try int(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try int(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try int(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try int(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try int(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try int(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try int(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try int(key) }

        func int<T: FixedWidthInteger>(_ key: Key) throws -> T {
            let f = try value(key)
            return try Plain.integer(f.value, f.end, as: T.self)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let f = try value(key)
            return try T(from: Plain.Decoder(at: f.value, end: f.end))
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let f = find(key), !Plain.isNull(f.value, f.end) else { return nil }
            return try T(from: Plain.Decoder(at: f.value, end: f.end))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            let f = try value(key)
            return KeyedDecodingContainer(Keyed<NestedKey>(fields: try Plain.members(f.value, f.end)))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Plain.Decoder(at: try value(key).value, end: try value(key).end).unkeyedContainer()
        }

        func superDecoder() throws -> any Swift.Decoder { throw GiveUp() }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { throw GiveUp() }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        /// Where the next element (or the ']') starts, white space before it.
        var next: Byte
        let end: Byte
        var currentIndex = 0
        var isAtEnd: Bool

        init(next: Byte, end: Byte) {
            self.next = Plain.skipSpace(next, end)
            self.end = end
            isAtEnd = self.next >= end || self.next.pointee == 0x5D
        }

        var codingPath: [any CodingKey] { [] }
        var count: Int? { nil }

        /// The next element's start, moving past it.
        mutating func take() throws -> (Byte, Byte) {
            guard !isAtEnd else { throw GiveUp() }
            let start = next
            let stop = try Plain.valueEnd(start, end)
            var p = Plain.skipSpace(stop, end)
            guard p < end else { throw GiveUp() }
            if p.pointee == 0x2C {
                p = Plain.skipSpace(p + 1, end)
            } else {
                guard p.pointee == 0x5D else { throw GiveUp() }
                isAtEnd = true
            }
            next = p
            currentIndex += 1
            return (start, stop)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw GiveUp() }
            guard Plain.isNull(next, end) else { return false }
            _ = try take()
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { let (p, e) = try take(); return try Plain.bool(p, e) }
        mutating func decode(_ type: String.Type) throws -> String { let (p, e) = try take(); return try Plain.string(p, e) }
        mutating func decode(_ type: Double.Type) throws -> Double { let (p, e) = try take(); return try Plain.double(p, e) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw GiveUp() }
        mutating func decode(_ type: Int.Type) throws -> Int { try int() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try int() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try int() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try int() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try int() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try int() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try int() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try int() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try int() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try int() }

        mutating func int<T: FixedWidthInteger>() throws -> T {
            let (p, e) = try take()
            return try Plain.integer(p, e, as: T.self)
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (p, e) = try take()
            return try T(from: Plain.Decoder(at: p, end: e))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (p, e) = try take()
            return KeyedDecodingContainer(Keyed<NestedKey>(fields: try Plain.members(p, e)))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (p, e) = try take()
            return try Plain.Decoder(at: p, end: e).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Swift.Decoder { throw GiveUp() }
    }

    struct Single: SingleValueDecodingContainer {
        let at: Byte
        let end: Byte

        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { Plain.isNull(at, end) }
        func decode(_ type: Bool.Type) throws -> Bool { try Plain.bool(at, end) }
        func decode(_ type: String.Type) throws -> String { try Plain.string(at, end) }
        func decode(_ type: Double.Type) throws -> Double { try Plain.double(at, end) }
        func decode(_ type: Float.Type) throws -> Float { throw GiveUp() }
        func decode(_ type: Int.Type) throws -> Int { try Plain.integer(at, end, as: Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try Plain.integer(at, end, as: Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try Plain.integer(at, end, as: Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try Plain.integer(at, end, as: Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try Plain.integer(at, end, as: Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try Plain.integer(at, end, as: UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try Plain.integer(at, end, as: UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try Plain.integer(at, end, as: UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try Plain.integer(at, end, as: UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try Plain.integer(at, end, as: UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: Plain.Decoder(at: at, end: end)) }
    }
}
