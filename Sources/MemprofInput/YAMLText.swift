import Foundation
import Yams
import MemprofOutput

/// Text of a YAML (or JSON) input file — a workload, thresholds or budget file — checked and
/// composed with located errors: bytes that are not UTF-8, control characters, an empty file and
/// YAML syntax errors all name the line and column where they are.
public enum YAMLText {
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

    /// Composes `text` into its root node through libyaml's event parser into a ``YAMLTree``,
    /// the one composer of YAML text: workloads (with or without overrides), sweep files,
    /// thresholds and budget files. Its nodes, marks and errors are those of Yams' public
    /// `Yams.compose(yaml:, .basic)`, which alone takes four times the tree's whole read on a large
    /// workload (MemprofRun's Benchmarks article, `scripts/bench-yaml.sh`); `YAMLTreeTests` holds
    /// the two equal.
    /// Text that holds nothing (only blanks or comments) is an error at line 1, column 1.
    package static func composeTree(_ text: String, file: String) throws -> NodeReader {
        let tree: YAMLTree?
        do {
            tree = try YAMLTree.compose(text)
        } catch {
            throw error.located(file: file)
        }
        guard let tree else { throw emptyFile(file) }
        return NodeReader(tree: tree, file: file)
    }

    static func emptyFile(_ file: String) -> WorkloadError {
        WorkloadError(file: file, line: 1, column: 1, keyPath: "", message: "the file is empty (it holds no YAML or JSON value)")
    }

    static func hex(_ b: UInt8) -> String { "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
}

/// Why YAML text was refused, in memprof's words and at its place: what ``YAMLTree``'s composer
/// says, in the words and at the marks of Yams' `YamlError` for the same text (the tests make
/// one from the other to compare them).
package struct YAMLProblem: Error {
    package var line: Int
    package var column: Int
    package var message: String

    package static func syntax(problem: String, context: (text: String, line: Int)?, at mark: (line: Int, column: Int)) -> YAMLProblem {
        var message = "invalid YAML: \(problem)"
        if let context { message += " (\(context.text) at line \(context.line))" }
        return YAMLProblem(line: mark.line, column: mark.column, message: message)
    }

    package static func duplicates(_ keys: [String], at mark: (line: Int, column: Int)) -> YAMLProblem {
        YAMLProblem(line: mark.line, column: mark.column,
                    message: "duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", "))")
    }

    package static func reader(problem: String, offset: Int?) -> YAMLProblem {
        YAMLProblem(line: 0, column: 0, message: "unreadable text at byte offset \(offset ?? 0): \(problem)")
    }

    package static func memory() -> YAMLProblem { YAMLProblem(line: 0, column: 0, message: "invalid YAML: \(YamlError.memory)") }

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package func located(file: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: "", message: message)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

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
        case .success(let bytes): return try YAMLText.decode(Data(bytes), file: path)
        case .failure(let refusal): throw fail(refusal.message)
        }
    }
}
