/// A minimal JSON text builder for large, flat documents: faster than `JSONEncoder` for the
/// hundreds of thousands of small objects a long run produces, and byte-for-byte deterministic.
public struct JSONText {
    public private(set) var bytes: [UInt8] = []

    public init(reserving capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func int(_ value: Int64) {
        raw(String(value))
    }

    public mutating func number(_ value: Double) {
        if value.isFinite {
            raw(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
        } else {
            raw("0")
        }
    }

    /// A JSON string literal, escaped as RFC 8259 requires.
    public mutating func string(_ text: String) {
        bytes.append(0x22)
        for unit in text.utf8 {
            switch unit {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(unit >> 4)], hex[Int(unit & 0xF)]])
            default: bytes.append(unit)
            }
        }
        bytes.append(0x22)
    }

    /// `"key":` for an object member.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(0x3A)
    }
}
