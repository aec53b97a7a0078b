import Foundation
import Yams

/// Text of a YAML (or JSON) input file — a workload, thresholds or budget file — checked and
/// composed with located errors: bytes that are not UTF-8, control characters, an empty file and
/// YAML syntax errors all name the line and column where they are.
public enum YAMLText {
    /// Decodes a file's bytes as UTF-8 text, refusing invalid bytes and control characters
    /// (other than tab, line feed and carriage return) at their line and column.
    public static func decode(_ data: Data, file: String) throws -> String {
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

    /// Composes `text` into its root node. Text that holds nothing (only blanks or comments) is
    /// an error at line 1, column 1.
    public static func compose(_ text: String, file: String) throws -> NodeReader {
        let node: Node?
        do {
            // No implicit tags: Yams' default resolver matches every scalar against seven regular
            // expressions (twice, with the duplicate-key check), two thirds of the time of reading a
            // large workload. `NodeReader` reads numbers from the text and booleans by YAML 1.1's
            // spellings itself, which is all the implicit tags were for.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw located(error, file: file)
        }
        guard let node else {
            throw WorkloadError(file: file, line: 1, column: 1, keyPath: "",
                                message: "the file is empty (it holds no YAML or JSON value)")
        }
        return NodeReader(node: node, path: "", file: file)
    }

    static func hex(_ b: UInt8) -> String { "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }

    static func located(_ error: YamlError, file: String) -> WorkloadError {
        func make(_ mark: Yams.Mark, _ problem: String, _ context: YamlError.Context?) -> WorkloadError {
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            return WorkloadError(file: file, line: mark.line, column: mark.column, keyPath: "", message: message)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            return make(mark, problem, context)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return WorkloadError(file: file, line: context.mark.line, column: context.mark.column, keyPath: "",
                                 message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", "))")
        case .reader(let problem, let offset, _, _):
            return WorkloadError(file: file, line: 0, column: 0, keyPath: "",
                                 message: "unreadable text at byte offset \(offset ?? 0): \(problem)")
        default:
            return WorkloadError(file: file, line: 0, column: 0, keyPath: "", message: "invalid YAML: \(error)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Reads the text of an input file (a workload, thresholds or budget file): a missing file, a
/// folder, an unreadable or oversized file, bytes that are not UTF-8 and control characters are
/// each a located ``WorkloadError`` (bad input, exit status 2).
public enum InputText {
    /// The largest input file read: 256 MB of text describes far more than any run can simulate.
    public static let maxBytes = 256 * 1024 * 1024

    public static func read(_ path: String) throws -> String {
        func fail(_ message: String) -> WorkloadError {
            WorkloadError(file: path, line: 0, column: 0, keyPath: "", message: message)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw fail("no such file") }
        guard !isDirectory.boolValue else { throw fail("is a folder, not a file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw fail("cannot read the file (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw fail("cannot read the file (\((error as NSError).localizedFailureReason ?? "\(error)"))")
        }
        guard data.count <= maxBytes else { throw fail("is larger than \(maxBytes / 1024 / 1024) MB; memprof reads input files up to that size") }
        return try YAMLText.decode(data, file: path)
    }
}
