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
    /// The text written so far.
    public var bytes: [UInt8] = []

    /// - Parameter capacity: bytes to reserve up front, when the caller can estimate the size.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal JSON text as it is.
    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends JSON text made at run time as it is.
    public mutating func rawText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends bytes that already are JSON text.
    public mutating func raw(_ data: some Sequence<UInt8>) {
        bytes.append(contentsOf: data)
    }

    public mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    /// An integer in decimal, as `JSONEncoder` writes it (digits made on the stack, no `String`).
    @inline(__always)
    public mutating func int(_ value: Int64) {
        if value >= 0 && value < 10 { return bytes.append(UInt8(truncatingIfNeeded: value) &+ 48) }
        var v = value.magnitude
        // 20 digits and a sign at most, written from the end of a stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { d in
            var at = 24
            while v > 0 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 10)
                at -= 1
                d[at] = UInt8(truncatingIfNeeded: r) &+ 48
                v = q
            }
            if value < 0 {
                at -= 1
                d[at] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[at..<24]))
        }
    }

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
    @inline(__always)
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        stringContents(value)
        bytes.append(UInt8(ascii: "\""))
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
            if plain { bytes.append(contentsOf: utf8) } else { escape(utf8) }
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
                bytes.append(hex.utf8Start[Int(b >> 4)])
                bytes.append(hex.utf8Start[Int(b & 0xF)])
            default: bytes.append(b)
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
        bytes = []
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
