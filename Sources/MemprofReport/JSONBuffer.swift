/// A growing UTF-8 buffer with the few JSON writers the report's large sections need.
///
/// Its output is byte for byte what `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes for the same values (a test holds it to that), only faster.
struct JSONBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ data: some Sequence<UInt8>) {
        bytes.append(contentsOf: data)
    }

    mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    mutating func int(_ value: Int64) {
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

    mutating func int(_ value: Int) { int(Int64(value)) }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func string(_ value: String) {
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

    /// Writes the members of an object whose keys the caller gives in sorted order.
    mutating func object(_ body: (inout ObjectWriter) -> Void) {
        var writer = ObjectWriter(buffer: self)
        bytes = []
        writer.buffer.byte(UInt8(ascii: "{"))
        body(&writer)
        writer.buffer.byte(UInt8(ascii: "}"))
        self = writer.buffer
    }

    mutating func array<S: Sequence>(_ items: S, _ write: (inout JSONBuffer, S.Element) -> Void) {
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
struct ObjectWriter {
    var buffer: JSONBuffer
    private var first = true

    init(buffer: JSONBuffer) {
        self.buffer = buffer
    }

    mutating func key(_ key: StaticString) {
        if !first { buffer.byte(UInt8(ascii: ",")) }
        first = false
        buffer.byte(UInt8(ascii: "\""))
        buffer.raw(key)
        buffer.raw("\":")
    }

    mutating func key(_ key: String) {
        if !first { buffer.byte(UInt8(ascii: ",")) }
        first = false
        buffer.string(key)
        buffer.byte(UInt8(ascii: ":"))
    }

    mutating func int(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        buffer.int(value)
    }

    mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        buffer.string(value)
    }
}
