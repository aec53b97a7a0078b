import MemprofPlatform

/// Where a JSON text broke, as a byte offset, and what was wrong in words.
public struct JSONScanError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The 1-based line and column (in bytes) of `offset` in `bytes`.
    public static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        let end = min(max(0, offset), bytes.count)
        var k = 0
        while k < end {
            if bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
            k += 1
        }
        return (line, offset - lineStart + 1)
    }
}

/// A strict JSON (RFC 8259) scanner that reads a text in place, one token at a time, without
/// allocating per token: keys are compared as bytes, numbers parsed from the bytes, and strings
/// are only made into `String`s when a reader keeps them. Readers pull the structure they expect
/// (`beginObject`, `nextMember`, `readInt64`...) and `skipValue` what they do not keep, which still
/// checks it: malformed text, bad escapes, control characters, text that is not UTF-8 and a key
/// given twice in one object are refused with the byte offset where they are.
///
/// Nesting is bounded (`maxDepth`), so no input exhausts the stack; `skipValue` is iterative.
///
/// The scanner does not own its bytes: the caller keeps them alive while it is used.
public struct JSONScanner {
    public static let maxDepth = 512

    /// A key of an object: where its bytes are (inside the quotes) and whether it has escapes.
    public struct Key {
        public var start: Int
        public var end: Int
        public var escaped: Bool
        /// The offset of its opening quote, for errors.
        public var quote: Int

        @inlinable init(start: Int, end: Int, escaped: Bool, quote: Int) {
            self.start = start
            self.end = end
            self.escaped = escaped
            self.quote = quote
        }
    }

    /// The keys already seen in one object, to refuse a key given twice. Reuse one (after
    /// `removeAll`) to read many objects without allocating.
    public struct KeySet {
        /// Raw keys by where they are; keys with escapes by their decoded bytes (`decoded` ≥ 0).
        var entries: [(start: Int, count: Int, hash: UInt64, decoded: Int)] = []
        var decoded: [[UInt8]] = []
        /// First entry per hash, once there are many keys.
        var index: [UInt64: Int] = [:]

        public init() {}

        public mutating func removeAll() {
            guard !entries.isEmpty else { return }
            entries.removeAll(keepingCapacity: true)
            decoded.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
        }
    }

    public let base: UnsafePointer<UInt8>
    public let count: Int
    /// `stringStops`, held here so the hot loop does not reach a lazy global per string.
    @usableFromInline let stops: UnsafeMutablePointer<UInt8>
    public var index: Int
    /// How many objects and lists are open (set by the scanner only).
    public var depth = 0
    /// Key sets of the objects `skipValue` is inside, reused between objects.
    private var levels: [KeySet] = []

    /// A scanner over `bytes`, which must stay valid while it is used.
    public init(_ bytes: UnsafeRawBufferPointer) {
        if let address = bytes.baseAddress, bytes.count > 0 {
            base = address.assumingMemoryBound(to: UInt8.self)
        } else {
            base = UnsafePointer(Self.emptyByte)
        }
        count = bytes.count
        index = 0
        stops = Self.stringStops
    }

    private nonisolated(unsafe) static let emptyByte: UnsafeMutablePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()

    // MARK: bytes

    @inlinable public var atEnd: Bool { index >= count }

    /// The byte at the scanner, after white space; nil at the end.
    @inlinable @inline(__always) public mutating func peek() -> UInt8? {
        skipSpace()
        return index < count ? base[index] : nil
    }

    @inlinable @inline(__always) public mutating func skipSpace() {
        while index < count {
            let b = base[index]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            index += 1
        }
    }

    public func fail(_ message: String, at offset: Int) -> JSONScanError {
        JSONScanError(offset: offset, message: message)
    }

    /// `'x'`, `byte 0x80` or `the end of the file`, for messages.
    public func what(_ offset: Int) -> String {
        guard offset < count else { return "the end of the file" }
        let b = base[offset]
        return (0x21..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    /// Requires the end of the text, after white space.
    public mutating func expectEnd(_ what: String = "the end of the JSON value") throws(JSONScanError) {
        skipSpace()
        guard index == count else { throw fail("unexpected \(self.what(index)) after \(what)", at: index) }
    }

    // MARK: containers

    /// Opens an object; `nextMember` then walks its members.
    @inlinable public mutating func beginObject() throws(JSONScanError) {
        guard peek() == 0x7B else { throw fail("expected an object, found \(what(index))", at: index) }
        try enter()
    }

    /// Opens an array; `nextElement` then walks its elements.
    @inlinable public mutating func beginArray() throws(JSONScanError) {
        guard peek() == 0x5B else { throw fail("expected a list, found \(what(index))", at: index) }
        try enter()
    }

    @inlinable @inline(__always) mutating func enter() throws(JSONScanError) {
        guard depth < Self.maxDepth else { throw fail("nested more than \(Self.maxDepth) deep", at: index) }
        depth += 1
        index += 1
    }

    /// The next key of the object opened last, with its ':' read, or nil once its '}' is read.
    /// `first` starts true for each object. The caller refuses a key given twice (`insert`).
    public mutating func nextMember(first: inout Bool) throws(JSONScanError) -> Key? {
        skipSpace()
        if first {
            first = false
            if index < count, base[index] == 0x7D { index += 1; depth -= 1; return nil }
        } else {
            guard index < count else { throw fail("expected ',' or '}', found the end of the file", at: index) }
            if base[index] == 0x7D { index += 1; depth -= 1; return nil }
            guard base[index] == 0x2C else { throw fail("expected ',' or '}', found \(what(index))", at: index) }
            index += 1
            skipSpace()
        }
        guard index < count, base[index] == 0x22 else {
            throw fail("expected a key in quotes, found \(what(index))", at: index)
        }
        let key = try scanString()
        skipSpace()
        guard index < count, base[index] == 0x3A else { throw fail("expected ':' after a key, found \(what(index))", at: index) }
        index += 1
        return key
    }

    /// Where the next member's key should start (after white space and, but for the first, a
    /// ','), without reading; nil when there is no ','.
    @inlinable @inline(__always) func memberStart(first: Bool) -> Int? {
        var i = spaceEnd(from: index)
        if !first {
            guard i < count, base[i] == 0x2C else { return nil }
            i = spaceEnd(from: i + 1)
        }
        return i
    }

    /// The offset of the first byte from `i` on that is not white space.
    @inlinable @inline(__always) public func spaceEnd(from i: Int) -> Int {
        var i = i
        while i < count, base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x0D || base[i] == 0x09 { i += 1 }
        return i
    }

    /// Reads the next member's key and ':' when that key is name `k` of `names` (followed by its
    /// closing quote) and returns true; otherwise reads nothing and returns false. The bytes are
    /// compared eight at a time (`JSONNames` keeps eight readable bytes after its last name).
    @inlinable @inline(__always) public mutating func nextMember(named k: Int, in names: JSONNames, first: inout Bool) -> Bool {
        guard var i = memberStart(first: first) else { return false }
        let n = names.lengths[k] + 1
        guard i + n + 1 < count, base[i] == 0x22 else { return false }
        let name = UnsafeRawPointer(names.bytes + names.starts[k])
        let text = UnsafeRawPointer(base + i + 1)
        if i + 1 + (n + 7) / 8 * 8 <= count {
            var j = 0
            while j + 8 <= n {
                guard text.loadUnaligned(fromByteOffset: j, as: UInt64.self) == name.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                else { return false }
                j += 8
            }
            if j < n {
                let differ = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                    ^ name.loadUnaligned(fromByteOffset: j, as: UInt64.self))
                guard differ & ((1 &<< UInt64(8 * (n - j))) &- 1) == 0 else { return false }
            }
        } else {
            for j in 0..<n where text.load(fromByteOffset: j, as: UInt8.self) != name.load(fromByteOffset: j, as: UInt8.self) {
                return false
            }
        }
        i += n + 1
        i = spaceEnd(from: i)
        guard i < count, base[i] == 0x3A else { return false }
        index = i + 1
        first = false
        return true
    }

    /// Reads the next member's key and ':' when that key is plain (printable ASCII without
    /// escapes) and one of `names`, and returns its index and where its opening quote is;
    /// otherwise reads nothing and returns nil (`nextMember` then reads it, or fails, as usual).
    @inlinable @inline(__always) public mutating func nextMember(in names: JSONNames, first: inout Bool) -> (index: Int, quote: Int)? {
        guard var i = memberStart(first: first), i < count, base[i] == 0x22 else { return nil }
        let quote = i
        i = plainRun(from: i + 1)
        while i < count, stops[Int(base[i])] == 0 { i += 1 }
        guard i < count, base[i] == 0x22, let k = names.index(of: base + quote + 1, count: i - quote - 1) else { return nil }
        i += 1
        i = spaceEnd(from: i)
        guard i < count, base[i] == 0x3A else { return nil }
        index = i + 1
        first = false
        return (k, quote)
    }

    /// Whether the array opened last has another element (its ',' read), or is done (its ']' read).
    @inlinable public mutating func nextElement(first: inout Bool) throws(JSONScanError) -> Bool {
        skipSpace()
        guard index < count else { throw fail("expected ',' or ']', found the end of the file", at: index) }
        if base[index] == 0x5D { index += 1; depth -= 1; return false }
        if first { first = false; return true }
        guard base[index] == 0x2C else { throw fail("expected ',' or ']', found \(what(index))", at: index) }
        index += 1
        return true
    }

    // MARK: keys

    /// Refuses `key` when `seen` already holds it, and adds it.
    public func insert(_ key: Key, into seen: inout KeySet) throws(JSONScanError) {
        if key.escaped {
            let copy = decodedBytes(key)
            let fresh = copy.withUnsafeBufferPointer { isNew($0, in: &seen) }
            guard fresh else { throw duplicate(key) }
            seen.entries.append((0, copy.count, copy.withUnsafeBufferPointer { Self.hash($0) }, seen.decoded.count))
            seen.decoded.append(copy)
        } else {
            let name = UnsafeBufferPointer(start: base + key.start, count: key.end - key.start)
            guard isNew(name, in: &seen) else { throw duplicate(key) }
            seen.entries.append((key.start, name.count, Self.hash(name), -1))
        }
    }

    /// Whether `name` is not in `seen` yet (indexing `seen` by hash once it holds many keys).
    private func isNew(_ name: UnsafeBufferPointer<UInt8>, in seen: inout KeySet) -> Bool {
        let hash = Self.hash(name)
        func same(_ e: (start: Int, count: Int, hash: UInt64, decoded: Int)) -> Bool {
            guard e.hash == hash else { return false }
            if e.decoded >= 0 { return seen.decoded[e.decoded].elementsEqual(name) }
            return e.count == name.count && (name.count == 0 || memcmp(base + e.start, name.baseAddress!, name.count) == 0)
        }
        if seen.entries.count < 16 { return !seen.entries.contains(where: same) }
        if seen.index.isEmpty {
            for (i, e) in seen.entries.enumerated() where seen.index[e.hash] == nil { seen.index[e.hash] = i }
        }
        guard let first = seen.index[hash] else {
            seen.index[hash] = seen.entries.count
            return true
        }
        // The same hash: the same key, or (rarely) a collision settled by comparing every key.
        return !same(seen.entries[first]) && !seen.entries.contains(where: same)
    }

    private func duplicate(_ key: Key) -> JSONScanError {
        fail("duplicate key '\(string(key))'", at: key.quote)
    }

    @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Whether `key` is `name` (ASCII, no escapes).
    @inline(__always) public func key(_ key: Key, is name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        if key.escaped { return decodedBytes(key).elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: n)) }
        return key.end - key.start == n && memcmp(base + key.start, name.utf8Start, n) == 0
    }

    /// The key's name.
    public func string(_ key: Key) -> String {
        // Most strings have no escapes: made from their bytes where they are.
        if !key.escaped { return String(decoding: UnsafeBufferPointer(start: base + key.start, count: key.end - key.start), as: UTF8.self) }
        return String(decoding: decodedBytes(key), as: UTF8.self)
    }

    // MARK: strings

    /// Reads a string at the scanner (its opening quote), checking it; returns where its bytes are.
    @inlinable @inline(__always) public mutating func scanString() throws(JSONScanError) -> Key {
        let quote = index
        var i = index + 1
        var escaped = false
        var high = false
        while true {
            i = plainRun(from: i)
            guard i < count else { throw fail("a string that never ends", at: quote) }
            let b = base[i]
            if stops[Int(b)] == 0 { i += 1; continue }
            if b == 0x22 { break }
            if b == 0x5C {
                escaped = true
                guard i + 1 < count else { throw fail("a string that never ends", at: quote) }
                let e = base[i + 1]
                switch e {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: i += 2
                case 0x75:
                    guard i + 5 < count, (2...5).allSatisfy({ Self.hexValue(base[i + $0]) != nil }) else {
                        throw fail("a \\u escape needs four hex digits", at: i)
                    }
                    i += 6
                default: throw fail("an invalid escape \\\(what(i + 1).trimmingQuotes)", at: i)
                }
                continue
            }
            if b < 0x20 { throw fail("control character in a string", at: i) }
            if b >= 0x80 { high = true }
            i += 1
        }
        index = i + 1
        let key = Key(start: quote + 1, end: i, escaped: escaped, quote: quote)
        if high || escaped {
            // Rare in reports: check the text decodes to valid UTF-8 (escapes included).
            let bytes = decodedBytesChecked(key)
            guard let bytes, String(validating: bytes, as: UTF8.self) != nil else {
                throw fail("a string that is not UTF-8 (or has a lone UTF-16 surrogate)", at: quote)
            }
        }
        return key
    }

    /// The offset of the first byte from `i` on that ends a string's plain run (`stringStops`),
    /// looked for eight bytes at a time (SWAR) while eight remain; from there on, or when the
    /// run ends within them, it is at most 7 bytes short of it (the byte loop does the rest).
    @inlinable @inline(__always) func plainRun(from start: Int) -> Int {
        var i = start
        while i + 8 <= count {
            let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let mask = Self.stopBytes(v)
            if mask == 0 { i += 8; continue }
            // The lowest flag is exact (only bytes above a stop can be flagged by a borrow).
            return i + mask.trailingZeroBitCount >> 3
        }
        return i
    }

    /// The high bit of each byte of `v` that is a quote, a backslash, a control character (< 0x20)
    /// or 0x80 and above; bytes above the first such byte may be flagged too.
    @inlinable @inline(__always) static func stopBytes(_ v: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let quote = v ^ (ones &* 0x22), backslash = v ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (v &- ones &* 0x20) & ~v
        return (zeroQuote | zeroBackslash | control | v) & high
    }

    /// The bytes that end the plain run of a string: the quote, the backslash, control
    /// characters, and the first bytes of multi-byte UTF-8 (checked separately).
    private nonisolated(unsafe) static let stringStops: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { (table + b).initialize(to: b == 0x22 || b == 0x5C || b < 0x20 || b >= 0x80 ? 1 : 0) }
        return table
    }()

    /// Reads a string and makes it a `String`.
    public mutating func readString() throws(JSONScanError) -> String {
        guard peek() == 0x22 else { throw fail("expected a string, found \(what(index))", at: index) }
        return string(try scanString())
    }

    /// The string at `offset` (an opening quote checked before), as a `String`.
    public func string(at offset: Int) -> String {
        var copy = self
        copy.index = offset
        guard let key = try? copy.scanString() else { return "" }
        return string(key)
    }

    /// The bytes a string stands for, escapes decoded.
    public func decodedBytes(_ key: Key) -> [UInt8] {
        decodedBytesChecked(key) ?? []
    }

    @usableFromInline func decodedBytesChecked(_ key: Key) -> [UInt8]? {
        let raw = UnsafeBufferPointer(start: base + key.start, count: key.end - key.start)
        guard key.escaped else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let b = raw[i]
            guard b == 0x5C else { out.append(b); i += 1; continue }
            let e = raw[i + 1]
            i += 2
            switch e {
            case 0x62: out.append(8)
            case 0x66: out.append(12)
            case 0x6E: out.append(10)
            case 0x72: out.append(13)
            case 0x74: out.append(9)
            case 0x75:
                var scalar = Self.hex4(raw, i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 5 < raw.count, raw[i] == 0x5C, raw[i + 1] == 0x75 else { return nil }
                    let low = Self.hex4(raw, i + 2)
                    guard (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let u = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: String(Character(u)).utf8)
            default: out.append(e)
            }
        }
        return out
    }

    @inlinable @inline(__always) static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        default: nil
        }
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v * 16 + (hexValue(raw[at + k]) ?? 0) }
        return v
    }

    /// Which of `names` the string at the scanner is; nil when it is none (the string is read
    /// either way).
    @inlinable @inline(__always) public mutating func readChoice(_ names: JSONNames) throws(JSONScanError) -> Int? {
        guard peek() == 0x22 else { throw fail("expected a string, found \(what(index))", at: index) }
        return names.index(of: try scanString(), in: self)
    }

    // MARK: scalars

    /// Reads `null` if it is next.
    @inlinable @inline(__always) public mutating func readNull() -> Bool {
        skipSpace()
        guard index + 4 <= count, base[index] == 0x6E, base[index + 1] == 0x75, base[index + 2] == 0x6C,
              base[index + 3] == 0x6C else { return false }
        index += 4
        return true
    }

    public mutating func readBool() throws(JSONScanError) -> Bool {
        skipSpace()
        if literal("true") { return true }
        if literal("false") { return false }
        throw fail("expected true or false, found \(what(index))", at: index)
    }

    @inline(__always) private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard index + n <= count, memcmp(base + index, word.utf8Start, n) == 0 else { return false }
        index += n
        return true
    }

    /// Reads a number's text (strict grammar); returns whether it is an integer (no fraction or exponent).
    @usableFromInline mutating func scanNumber() throws(JSONScanError) -> Bool {
        let start = index
        var i = index
        if i < count, base[i] == 0x2D { i += 1 }
        guard i < count, base[i] >= 0x30, base[i] <= 0x39 else {
            throw fail("expected a value, found \(what(start))", at: start)
        }
        if base[i] == 0x30 {
            i += 1
        } else {
            while i < count, base[i] >= 0x30, base[i] <= 0x39 { i += 1 }
        }
        var integer = true
        if i < count, base[i] == 0x2E {
            integer = false
            i += 1
            guard i < count, base[i] >= 0x30, base[i] <= 0x39 else { throw fail("a number needs digits after '.'", at: i) }
            while i < count, base[i] >= 0x30, base[i] <= 0x39 { i += 1 }
        }
        if i < count, base[i] == 0x65 || base[i] == 0x45 {
            integer = false
            i += 1
            if i < count, base[i] == 0x2B || base[i] == 0x2D { i += 1 }
            guard i < count, base[i] >= 0x30, base[i] <= 0x39 else { throw fail("a number needs digits in its exponent", at: i) }
            while i < count, base[i] >= 0x30, base[i] <= 0x39 { i += 1 }
        }
        guard i - start <= 400 else { throw fail("a number longer than 400 characters", at: start) }
        index = i
        return integer
    }

    /// Reads a whole number that fits 64 bits (`1e3` and `2.0` are whole numbers too).
    @inlinable @inline(__always) public mutating func readInt64() throws(JSONScanError) -> Int64 {
        skipSpace()
        let start = index
        if let value = plainInt(at: &index) { return value }
        // Long, fractional or malformed: the general path.
        let integer = try scanNumber()
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        if integer, let exact = Int64(text) { return exact }
        guard let d = Double(text), d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else {
            throw fail("expected a whole number of at most 64 bits, found \(text)", at: start)
        }
        return Int64(d)
    }

    /// The plain integer at `at` (an optional '-', 1 to 17 digits without a leading zero, then
    /// a byte that is not a digit, '.', 'e' or 'E'), moving `at` past it; nil (and `at` where it
    /// was) for anything else.
    @inlinable @inline(__always) func plainInt(at: inout Int) -> Int64? {
        var i = at
        let negative = i < count && base[i] == 0x2D
        if negative { i += 1 }
        var value: Int64 = 0
        let first = i
        // At most 17 digits here (no overflow), and a byte after them (a number never ends a document).
        let end = min(count - 1, first + 17)
        // Eight digits at a time while they are (SWAR), then digit by digit.
        while i + 8 <= end, let eight = Self.eightDigits(base + i) {
            value = value &* 100_000_000 &+ Int64(eight)
            i += 8
        }
        var digit = i < count ? base[i] &- 0x30 : 10
        while i < end, digit < 10 {
            value = value &* 10 &+ Int64(digit)
            i += 1
            digit = base[i] &- 0x30
        }
        let digits = i - first
        // Ends here: not at a digit (an 18th), '.', 'e' or 'E'; no leading zero.
        let next = i < count ? base[i] : 0x30
        guard digits > 0, digit >= 10, next != 0x2E, next | 0x20 != 0x65, digits == 1 || base[first] != 0x30 else { return nil }
        at = i
        return negative ? -value : value
    }

    /// Reads `[a,b]`, two plain integers (`plainInt`) written without spaces, as an element of
    /// the array opened last; otherwise reads nothing and returns nil (the caller then reads the
    /// element the general way, which reads it or says what is wrong).
    @inlinable @inline(__always) public mutating func readPlainPair() -> (Int64, Int64)? {
        var i = index
        guard i < count, base[i] == 0x5B else { return nil }
        i += 1
        guard let a = plainInt(at: &i), i < count, base[i] == 0x2C else { return nil }
        i += 1
        guard let b = plainInt(at: &i), i < count, base[i] == 0x5D else { return nil }
        index = i + 1
        return (a, b)
    }

    /// The value of the eight bytes at `p` when they are all ASCII digits.
    @inlinable @inline(__always) static func eightDigits(_ p: UnsafePointer<UInt8>) -> UInt64? {
        let v = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        // Each byte 0x30...0x39: its high nibble is 3, and adding 6 does not carry into it.
        guard v & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030,
              (v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030 else { return nil }
        var x = v & 0x0F0F_0F0F_0F0F_0F0F
        x = (x &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
        x = (x &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
        return (x &* 42_949_672_960_001) >> 32
    }

    /// Reads a number as a `Double`.
    public mutating func readDouble() throws(JSONScanError) -> Double {
        skipSpace()
        let start = index
        _ = try scanNumber()
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw fail("a number too large: \(text)", at: start) }
        return d
    }

    // MARK: any value

    /// Reads one value of any kind, checking it (keys unique in each object), without keeping it.
    public mutating func skipValue() throws(JSONScanError) {
        let floor = depth
        var levels = self.levels
        defer { self.levels = levels }
        var expectValue = true
        // Per open container: is it an object, and is the next member its first.
        var stack: [(object: Bool, first: Bool)] = []
        while true {
            skipSpace()
            if expectValue {
                guard index < count else { throw fail("expected a value, found the end of the file", at: index) }
                switch base[index] {
                case 0x7B, 0x5B:
                    let object = base[index] == 0x7B
                    try enter()
                    if object {
                        let level = depth - floor - 1
                        while levels.count <= level { levels.append(KeySet()) }
                        levels[level].removeAll()
                    }
                    stack.append((object, true))
                    expectValue = false
                    continue
                case 0x22: _ = try scanString()
                case 0x74, 0x66: _ = try readBool()
                case 0x6E:
                    guard readNull() else { throw fail("expected a value, found \(what(index))", at: index) }
                default: _ = try scanNumber()
                }
                expectValue = false
            } else {
                guard let top = stack.last else { return }
                var first = top.first
                if top.object {
                    let level = depth - floor - 1
                    if let key = try nextMember(first: &first) {
                        try insert(key, into: &levels[level])
                        stack[stack.count - 1].first = false
                        expectValue = true
                    } else {
                        stack.removeLast()
                    }
                } else if try nextElement(first: &first) {
                    stack[stack.count - 1].first = false
                    expectValue = true
                } else {
                    stack.removeLast()
                }
            }
        }
    }
}

extension String {
    @usableFromInline var trimmingQuotes: String { hasPrefix("'") && hasSuffix("'") && count > 2 ? String(dropFirst().dropLast()) : self }
}

/// A fixed set of names (keys of an object, values of an enum: ASCII without escapes), found
/// by their bytes: an index by length and first byte points at the one name to compare.
/// Tables are made once (static) and live as long as the program.
public struct JSONNames: @unchecked Sendable {
    public let names: [String]
    public let count: Int
    /// Each name followed by a quote, in one buffer.
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    @usableFromInline let lengths: UnsafeMutablePointer<Int>
    /// By `length % 32 * 128 + first byte % 128`: 1 + the index of the only name there, 0 for
    /// none, -1 for several (then every name is compared).
    @usableFromInline let lookup: UnsafeMutablePointer<Int8>

    public init(_ names: [String]) {
        precondition(names.count < 64)
        self.names = names
        count = names.count
        let total = names.reduce(0) { $0 + $1.utf8.count + 1 }
        // Eight bytes more, zeroed: a name is compared eight bytes at a time.
        bytes = .allocate(capacity: total + 8)
        (bytes + total).initialize(repeating: 0, count: 8)
        starts = .allocate(capacity: max(1, names.count))
        lengths = .allocate(capacity: max(1, names.count))
        lookup = .allocate(capacity: 32 * 128)
        lookup.initialize(repeating: 0, count: 32 * 128)
        var at = 0
        for (k, name) in names.enumerated() {
            let utf8 = Array(name.utf8) + [0x22]
            (bytes + at).initialize(from: utf8, count: utf8.count)
            starts[k] = at
            lengths[k] = utf8.count - 1
            let slot = Self.slot(utf8.count - 1, utf8[0])
            lookup[slot] = lookup[slot] == 0 ? Int8(k + 1) : -1
            at += utf8.count
        }
    }

    @inlinable @inline(__always) static func slot(_ length: Int, _ first: UInt8) -> Int {
        (length & 31) << 7 | Int(first & 127)
    }

    /// The index of the string or key `key` (read by `scanner`) among the names.
    @inlinable @inline(__always) public func index(of key: JSONScanner.Key, in scanner: JSONScanner) -> Int? {
        if key.escaped { return names.firstIndex(of: scanner.string(key)) }
        let n = key.end - key.start
        guard n > 0 else { return names.firstIndex(of: "") }
        return index(of: scanner.base + key.start, count: n)
    }

    /// The index of the name that is the `n` (> 0) bytes at `p`, without escapes.
    @inlinable @inline(__always) public func index(of p: UnsafePointer<UInt8>, count n: Int) -> Int? {
        guard n > 0 else { return nil }
        let entry = lookup[Self.slot(n, p[0])]
        if entry > 0 {
            let k = Int(entry) - 1
            return same(k, p, n) ? k : nil
        }
        guard entry < 0 else { return nil }
        for k in 0..<count where same(k, p, n) { return k }
        return nil
    }

    @inlinable @inline(__always) func same(_ k: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard lengths[k] == n else { return false }
        let name = bytes + starts[k]
        for i in 0..<n where p[i] != name[i] { return false }
        return true
    }
}
