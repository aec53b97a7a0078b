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
        let done = data.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil { for b in data { byte(b) } }
    }

    @inlinable @inline(__always)
    public mutating func byte(_ b: UInt8) {
        reserve(1).pointee = b
        advance(1)
    }

    /// An integer in decimal, as `JSONEncoder` writes it: digits written two at a time straight
    /// into the text, from the end.
    @inlinable
    public mutating func int(_ value: Int64) {
        if value >= 0 && value < 10 { return byte(UInt8(truncatingIfNeeded: value) &+ 48) }
        var v = value.magnitude
        let sign = value < 0 ? 1 : 0
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && v >= limit {
            digits += 1
            limit = limit &* 10
        }
        let length = digits + sign
        let start = reserve(length)
        if sign == 1 { start.pointee = UInt8(ascii: "-") }
        var at = start + length
        Self.digitPairs.withUTF8Buffer { pairs in
            while v >= 100 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 100)
                at -= 2
                at[0] = pairs[Int(r) &* 2]
                at[1] = pairs[Int(r) &* 2 &+ 1]
                v = q
            }
            if v >= 10 {
                at -= 2
                at[0] = pairs[Int(v) &* 2]
                at[1] = pairs[Int(v) &* 2 &+ 1]
            } else {
                at -= 1
                at[0] = UInt8(truncatingIfNeeded: v) &+ 48
            }
        }
        advance(length)
    }

    /// "00" to "99", the pairs of digits `int(_:)` writes.
    @usableFromInline static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
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
            var plain = true
            for b in utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                plain = false
                break
            }
            if plain { append(UnsafeRawBufferPointer(utf8)) } else { escape(utf8) }
        }
    }

    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20:
                raw("\\u00")
                let hex: StaticString = "0123456789abcdef"
                byte(hex.utf8Start[Int(b >> 4)])
                byte(hex.utf8Start[Int(b & 0xF)])
            default: byte(b)
            }
        }
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
