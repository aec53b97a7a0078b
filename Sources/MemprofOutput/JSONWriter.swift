/// The one JSON text writer of memprof: a growing UTF-8 buffer for documents too large for
/// `JSONEncoder` (report.json's events, trace.json, the data of report.html).
///
/// Strings and integers come out byte for byte as `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes them (a test holds it to that), only faster. Object keys are
/// written in the order the caller gives them: callers that want sorted keys give them sorted.
///
///     var json = JSONWriter()
///     json.object { o in
///         o.int("atUs", 42)
///         o.string("app", "mail")
///     }
///     // {"atUs":42,"app":"mail"}
public struct JSONWriter {
    // The text: bytes at `base`, appended to with a capacity check and a copy (no `Array`
    // bookkeeping per piece: a writer appends millions of short pieces). The fields are the
    // struct's own (a class's would be checked for exclusive access at run time on every
    // append); `owner` frees the bytes and tells whether this writer is their only holder, so a
    // copied writer copies the bytes before it changes them.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// The number of bytes written so far.
    @inlinable public var count: Int { used }
    @usableFromInline var used: Int
    @usableFromInline var capacity: Int
    @usableFromInline var owner: Storage

    /// - Parameter capacity: bytes to reserve up front, when the caller can estimate the size.
    public init(capacity: Int = 0) {
        owner = Storage(capacity: max(capacity, 64))
        base = owner.base
        self.capacity = owner.capacity
        used = 0
    }

    private init(detached storage: Storage) {
        owner = storage
        base = storage.base
        capacity = 0
        used = 0
    }

    /// The text written so far (a copy).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the text written so far (valid only during the call).
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the text written so far, keeping the space.
    public mutating func removeAll() {
        if !isKnownUniquelyReferenced(&owner) || capacity == 0 { reallocate(keeping: 0, capacity: max(capacity, 64)) }
        used = 0
    }

    /// Forgets the first `n` bytes written, moving the rest to the front.
    public mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        guard n > 0 else { return }
        if !isKnownUniquelyReferenced(&owner) { reallocate(keeping: count, capacity: max(capacity, 64)) }
        // The two ranges overlap: `memmove` (copyMemory) copies as if through a buffer.
        UnsafeMutableRawPointer(base).copyMemory(from: base + n, byteCount: count - n)
        used -= n
    }

    /// Room for `more` bytes in storage of this writer's own; returns where they go.
    @inlinable @inline(__always)
    mutating func reserve(_ more: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count + more > capacity || !isKnownUniquelyReferenced(&owner)) {
            reallocate(keeping: count, capacity: count + more > capacity ? max(capacity * 2, count + more, 64) : capacity)
        }
        return base + count
    }

    /// Moves the first `keeping` bytes into new storage of `capacity` bytes.
    @usableFromInline mutating func reallocate(keeping: Int, capacity: Int) {
        let grown = Storage(capacity: capacity)
        grown.base.update(from: base, count: keeping)
        owner = grown
        base = grown.base
        self.capacity = capacity
    }

    /// Counts `more` bytes written at ``reserve(_:)``'s pointer.
    @inlinable @inline(__always)
    mutating func advance(_ more: Int) {
        used += more
    }

    /// Appends `count` bytes at `start`.
    @inlinable @inline(__always)
    public mutating func append(_ start: UnsafeRawPointer, count more: Int) {
        UnsafeMutableRawPointer(reserve(more)).copyMemory(from: start, byteCount: more)
        advance(more)
    }

    /// Appends the bytes of `buffer`.
    @inlinable @inline(__always)
    public mutating func append(_ buffer: UnsafeRawBufferPointer) {
        if let start = buffer.baseAddress { append(start, count: buffer.count) }
    }

    /// Appends `count` bytes that `read` fills (in this writer's storage).
    mutating func appendRead(_ count: Int, _ read: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        try read(UnsafeMutableRawBufferPointer(start: reserve(count), count: count))
        advance(count)
    }

    /// Overwrites 4 bytes already written, at `offset`, with `value` (little-endian).
    public mutating func store(_ value: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count)
        _ = reserve(0)
        UnsafeMutableRawPointer(base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    /// Appends literal JSON text as it is.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends JSON text made at run time as it is.
    public mutating func rawText(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends bytes that already are JSON text.
    public mutating func raw(_ data: some Sequence<UInt8>) {
        let done: Void? = data.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil { for b in data { byte(b) } }
    }

    @inlinable @inline(__always)
    public mutating func byte(_ b: UInt8) {
        reserve(1).pointee = b
        advance(1)
    }

    /// An integer in decimal, as `JSONEncoder` writes it (``decimal(_:at:)``).
    @inlinable
    public mutating func int(_ value: Int64) {
        if value >= 0 && value < 10 { return byte(UInt8(truncatingIfNeeded: value) &+ 48) }
        advance(Self.decimal(value, at: reserve(Self.maxDecimalLength)))
    }

    /// The most bytes ``decimal(_:at:)`` writes: a sign and 19 digits.
    public static let maxDecimalLength = 20

    /// Writes `value` in decimal at `start` (room for ``maxDecimalLength`` bytes), as
    /// `String(value)` does; returns the number of bytes written. The digits are counted first
    /// (from the bit length, without a loop), then written two at a time from the end.
    @inlinable @inline(__always)
    public static func decimal(_ value: Int64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var v = value.magnitude
        let sign = value < 0 ? 1 : 0
        if sign == 1 { start.pointee = UInt8(ascii: "-") }
        let length = decimalDigits(v) &+ sign
        var at = start + length
        digitPairs.withUTF8Buffer { pairs in
            let pairs = UnsafeRawPointer(pairs.baseAddress!)
            while v >= 100 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 100)
                at -= 2
                UnsafeMutableRawPointer(at).copyMemory(from: pairs + Int(truncatingIfNeeded: r) &* 2, byteCount: 2)
                v = q
            }
            if v >= 10 {
                at -= 2
                UnsafeMutableRawPointer(at).copyMemory(from: pairs + Int(truncatingIfNeeded: v) &* 2, byteCount: 2)
            } else {
                at -= 1
                at.pointee = UInt8(truncatingIfNeeded: v) &+ 48
            }
        }
        return length
    }

    /// The number of decimal digits of `v` (1 for 0): about log10 from the bit length
    /// (1233 / 4096 is just above log10(2)), one less when `v` is under that power of ten.
    @inlinable @inline(__always)
    static func decimalDigits(_ v: UInt64) -> Int {
        let guess = ((64 &- (v | 1).leadingZeroBitCount) &* 1233) >> 12
        return guess &+ ((v | 1) < powerOfTen(guess) ? 0 : 1)
    }

    /// 10^n for n in 0...19, without a table in memory (the compiler turns the switch into one).
    @inlinable @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// "00" to "99", the pairs of digits ``decimal(_:at:)`` writes.
    @usableFromInline static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748\
        49505152535455565758596061626364656667686970717273747576777879808182838485868788899091929394959697\
        9899
        """
    }

    @inlinable @inline(__always)
    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// A floating-point number: whole values below 10^15 as integers, others in Swift's shortest
    /// round-trip form, non-finite values as 0 (JSON has no NaN or infinity).
    public mutating func number(_ value: Double) {
        if value.isFinite {
            if value == value.rounded() && abs(value) < 1e15 { int(Int64(value)) } else { rawText(String(value)) }
        } else {
            byte(UInt8(ascii: "0"))
        }
    }

    public mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// A string literal, escaped as RFC 8259 requires (and as `JSONEncoder` does).
    public mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        stringContents(value)
        byte(UInt8(ascii: "\""))
    }

    /// A string's text escaped as inside a JSON string literal, without the quotes. Text with
    /// nothing to escape (nearly all of it) is appended in one piece.
    public mutating func stringContents(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            if Self.isPlain(utf8) {
                append(UnsafeRawBufferPointer(utf8))
            } else {
                advance(Self.escape(utf8, at: reserve(Self.maxEscapedLength(utf8.count))))
            }
        }
    }

    /// Whether UTF-8 text goes into a JSON string as it is (no quote, backslash or control byte).
    @inlinable @inline(__always)
    public static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
        return true
    }

    /// The most bytes ``escape(_:at:)`` writes for `count` bytes of text (`\u00XX` for each).
    @inlinable @inline(__always)
    public static func maxEscapedLength(_ count: Int) -> Int { 6 &* count }

    /// Writes `utf8` escaped as RFC 8259 requires (and as `JSONEncoder` does) at `start`, which
    /// has room for ``maxEscapedLength(_:)`` bytes; returns the number of bytes written.
    public static func escape(_ utf8: UnsafeBufferPointer<UInt8>, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var at = start
        func put(_ text: StaticString) {
            at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            at += text.utf8CodeUnitCount
        }
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): put("\\\"")
            case UInt8(ascii: "\\"): put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case 0x08: put("\\b")
            case 0x0C: put("\\f")
            case 0..<0x20:
                put("\\u00")
                let hex: StaticString = "0123456789abcdef"
                at[0] = hex.utf8Start[Int(b >> 4)]
                at[1] = hex.utf8Start[Int(b & 0xF)]
                at += 2
            default:
                at.pointee = b
                at += 1
            }
        }
        return at - start
    }

    /// `"key":`, for callers that write an object's members themselves.
    public mutating func key(_ name: String) {
        string(name)
        byte(UInt8(ascii: ":"))
    }

    /// Writes the members of an object whose keys the caller gives in sorted order.
    public mutating func object(_ body: (inout ObjectWriter) -> Void) {
        var writer = ObjectWriter(buffer: self)
        self = JSONWriter(detached: Self.detached)
        writer.buffer.byte(UInt8(ascii: "{"))
        body(&writer)
        writer.buffer.byte(UInt8(ascii: "}"))
        self = writer.buffer
    }

    /// Writes `items` as an array, each through `write`.
    public mutating func array<S: Sequence>(_ items: S, _ write: (inout JSONWriter, S.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            write(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }
}

extension JSONWriter {
    /// What a writer holds while its text is lent to an ``ObjectWriter`` (so the text's storage
    /// stays uniquely referenced and is not copied); it has no room, so nothing is written into it.
    static let detached = Storage(capacity: 0)

    /// The bytes of ``JSONWriter``s: freed when the last writer holding them goes.
    @usableFromInline final class Storage: @unchecked Sendable {
        // Unchecked: only `detached` is shared between threads, and nothing is written into it.
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: max(capacity, 1))
        }

        deinit { base.deallocate() }
    }
}

/// Writes `"key":value` members with the commas between them.
public struct ObjectWriter {
    /// The writer the members go into.
    public var buffer: JSONWriter
    private var first = true

    public init(buffer: JSONWriter) {
        self.buffer = buffer
    }

    public mutating func key(_ key: StaticString) {
        if !first { buffer.byte(UInt8(ascii: ",")) }
        first = false
        buffer.byte(UInt8(ascii: "\""))
        buffer.raw(key)
        buffer.raw("\":")
    }

    public mutating func key(_ key: String) {
        if !first { buffer.byte(UInt8(ascii: ",")) }
        first = false
        buffer.string(key)
        buffer.byte(UInt8(ascii: ":"))
    }

    /// `"key":value`, or nothing when `value` is nil.
    public mutating func int(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        buffer.int(value)
    }

    /// `"key":"value"`, or nothing when `value` is nil.
    public mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        buffer.string(value)
    }
}

extension JSONWriter {
    /// Writes one record through a ``JSONRecord``: the storage is made this writer's own once,
    /// and every piece of the record is then written with a capacity check alone (a
    /// writer of millions of records spent about a tenth of its time checking, piece by piece,
    /// that no copy of the writer shared its bytes).
    @inlinable @inline(__always)
    public mutating func record(_ body: (inout JSONRecord) throws -> Void) rethrows {
        if _slowPath(!isKnownUniquelyReferenced(&owner) || capacity == 0) {
            reallocate(keeping: used, capacity: max(capacity, used + 64))
        }
        try withUnsafeMutablePointer(to: &self) { writer in
            var record = JSONRecord(writer)
            defer { record.finish() }
            try body(&record)
        }
    }
}

/// The text of one record, written into a ``JSONWriter`` by ``JSONWriter/record(_:)``, as the
/// writer's methods of the same names write it. It cannot be copied or kept: it lives for the
/// call, in which nothing else touches the writer.
public struct JSONRecord: ~Copyable {
    @usableFromInline let writer: UnsafeMutablePointer<JSONWriter>
    /// Where the next byte goes, and the end of the writer's storage.
    @usableFromInline var at: UnsafeMutablePointer<UInt8>
    @usableFromInline var end: UnsafeMutablePointer<UInt8>

    @inlinable
    init(_ writer: UnsafeMutablePointer<JSONWriter>) {
        self.writer = writer
        at = writer.pointee.base + writer.pointee.used
        end = writer.pointee.base + writer.pointee.capacity
    }

    /// Counts what was written in the writer.
    @inlinable @inline(__always)
    mutating func finish() {
        writer.pointee.used = at - writer.pointee.base
    }

    /// The writer's byte count, with what this record wrote so far.
    @inlinable public var count: Int { at - writer.pointee.base }

    /// Room for `more` bytes at ``at``.
    @inlinable @inline(__always)
    mutating func room(_ more: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(end - at < more) { grow(more) }
        return at
    }

    @usableFromInline mutating func grow(_ more: Int) {
        finish()
        let used = writer.pointee.used
        writer.pointee.reallocate(keeping: used, capacity: max(writer.pointee.capacity * 2, used + more, 64))
        at = writer.pointee.base + used
        end = writer.pointee.base + writer.pointee.capacity
    }

    /// Appends literal JSON text as it is.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        room(n).update(from: text.utf8Start, count: n)
        at += n
    }

    /// Appends bytes that already are JSON text.
    @inlinable @inline(__always)
    public mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        room(bytes.count).update(from: start, count: bytes.count)
        at += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func byte(_ b: UInt8) {
        room(1).pointee = b
        at += 1
    }

    /// An integer in decimal, as ``JSONWriter/int(_:)-(Int64)`` writes it.
    @inlinable @inline(__always)
    public mutating func int(_ value: Int64) {
        at += JSONWriter.decimal(value, at: room(JSONWriter.maxDecimalLength))
    }

    @inlinable @inline(__always)
    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// A string literal, escaped as ``JSONWriter/string(_:)`` escapes it.
    @inlinable @inline(__always)
    public mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        stringContents(value)
        byte(UInt8(ascii: "\""))
    }

    /// A string's text escaped as inside a JSON string literal, without the quotes.
    @inlinable @inline(__always)
    public mutating func stringContents(_ value: String) {
        Self.withUTF8(of: value) { utf8 in
            if _fastPath(JSONWriter.isPlain(utf8)) {
                raw(utf8)
            } else {
                at += JSONWriter.escape(utf8, at: room(JSONWriter.maxEscapedLength(utf8.count)))
            }
        }
    }

    /// Text made at run time, as it is (words known to need no escaping).
    @inlinable @inline(__always)
    public mutating func rawText(_ text: String) {
        Self.withUTF8(of: text) { raw($0) }
    }

    /// Calls `body` with the UTF-8 bytes of `text` (in place for a native string).
    @inlinable @inline(__always)
    static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable(body)
        if done == nil {
            var text = text
            text.withUTF8(body)
        }
    }

    /// `items` as a JSON array, each written by `write`, with commas between them.
    @inlinable @inline(__always)
    public mutating func list<Items: Sequence>(_ items: Items, _ write: (inout JSONRecord, Items.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            write(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }

    /// Overwrites 4 bytes this writer already holds, at `offset`, with `value` (little-endian).
    @inlinable
    public mutating func store(_ value: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count)
        UnsafeMutableRawPointer(writer.pointee.base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    /// Appends the 8 bytes of `value` (little-endian), for binary headers of records.
    @inlinable @inline(__always)
    public mutating func int64Bytes(_ value: Int64) {
        UnsafeMutableRawPointer(room(8)).storeBytes(of: value.littleEndian, as: Int64.self)
        at += 8
    }

    /// Appends the 4 bytes of `value` (little-endian).
    @inlinable @inline(__always)
    public mutating func uint32Bytes(_ value: UInt32) {
        UnsafeMutableRawPointer(room(4)).storeBytes(of: value.littleEndian, as: UInt32.self)
        at += 4
    }
}
