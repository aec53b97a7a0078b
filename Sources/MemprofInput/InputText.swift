import Foundation

/// Reads the text of an input file (a workload, thresholds or budget file): a missing file, a
/// folder, what is not a regular file (a FIFO, a device: `InputFile`), an unreadable or
/// oversized file, bytes that are not UTF-8 and control characters are each a located
/// ``WorkloadError`` (bad input, exit status 2).
public enum InputText {
    /// The largest input file read: 256 MB of text describes far more than any run can simulate.
    public static let maxBytes = 256 * 1024 * 1024

    public static func read(_ path: String) throws -> String {
        func fail(_ message: String) -> WorkloadError {
            WorkloadError(file: path, line: 0, column: 0, keyPath: "", message: message)
        }
        switch InputFile.read(path, maxBytes: maxBytes) {
        case .success(let bytes): return try decode(Data(bytes), file: path)
        case .failure(let refusal): throw fail(refusal.message)
        }
    }

    /// Decodes a file's bytes as UTF-8 text, refusing invalid bytes and control characters
    /// (other than tab, line feed and carriage return) at their line and column.
    public static func decode(_ data: Data, file: String) throws -> String {
        // Most input is printable ASCII: only a byte outside it (or a file with one) takes the
        // walk that validates each sequence and counts lines and columns.
        let plain = data.withUnsafeBytes { raw in
            raw.allSatisfy { b in (0x20..<0x7F).contains(b) || b == 0x0A || b == 0x09 || b == 0x0D }
        }
        if plain { return String(decoding: data, as: UTF8.self) }
        var line = 1, column = 1
        let bytes = [UInt8](data)
        var i = 0
        func fail(_ message: String) -> WorkloadError {
            WorkloadError(file: file, line: line, column: column, keyPath: "", message: message)
        }
        while i < bytes.count {
            let b = bytes[i]
            let length: Int
            switch b {
            case 0x0A: line += 1; column = 1; i += 1; continue
            case 0x09, 0x0D: length = 1
            case 0x00..<0x20, 0x7F:
                throw fail("control character \(hex(b)) is not allowed in text (byte \(i))")
            case 0x20..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:
                throw fail("the file is not UTF-8 text: byte \(hex(b)) at byte offset \(i)")
            }
            if length > 1 {
                guard i + length <= bytes.count,
                      String(bytes: bytes[i..<i + length], encoding: .utf8) != nil else {
                    throw fail("the file is not UTF-8 text: byte \(hex(b)) at byte offset \(i) starts a broken sequence")
                }
                let scalar = String(decoding: bytes[i..<i + length], as: UTF8.self).unicodeScalars.first!.value
                if (0x80..<0xA0).contains(scalar) {
                    throw fail("control character U+\(String(scalar, radix: 16, uppercase: true)) is not allowed in text")
                }
            }
            i += length
            column += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> String { "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
