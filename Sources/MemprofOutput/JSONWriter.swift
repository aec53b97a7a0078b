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

    /// An integer in decimal, as `JSONEncoder` writes it.
    public mutating func int(_ value: Int64) {
        if value == 0 { return bytes.append(UInt8(ascii: "0")) }
        var v = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                     UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.bindMemory(to: UInt8.self)
            while v > 0 {
                d[count] = UInt8(truncatingIfNeeded: v % 10) + UInt8(ascii: "0")
                v /= 10
                count += 1
            }
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[k]) }
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
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in value.utf8 {
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
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(b >> 4)])
                bytes.append(hex[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
