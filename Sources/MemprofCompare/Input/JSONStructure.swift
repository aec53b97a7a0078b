import Foundation

/// A single pass over JSON bytes that checks its structure before a report is decoded, so that a
/// broken report is refused at its line and column ("report.json:3:17: expected ',' or '}'"),
/// and a key given twice in one object (which decoders otherwise resolve silently) is an error.
/// Iterative, with a bounded nesting depth: no input can exhaust the stack.
enum JSONStructure {
    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    static let maxDepth = 512

    static func check(_ data: Data) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            try check(raw.bindMemory(to: UInt8.self))
        }
    }

    private enum Container { case object, array }

    static func check(_ b: UnsafeBufferPointer<UInt8>) throws {
        var i = 0
        let n = b.count
        func fail(_ message: String, at index: Int) -> Problem {
            var line = 1, lineStart = 0
            var k = 0
            while k < min(index, n) {
                if b[k] == 0x0A { line += 1; lineStart = k + 1 }
                k += 1
            }
            return Problem(line: line, column: index - lineStart + 1, message: message)
        }
        func skipSpace() {
            while i < n, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        }
        func what(_ index: Int) -> String {
            index < n ? "'\(String(decoding: [b[index]], as: UTF8.self))'" : "the end of the file"
        }
        /// Scans a string starting at the quote; returns its raw bytes' range.
        func string() throws -> Range<Int> {
            let start = i + 1
            i += 1
            while i < n {
                switch b[i] {
                case 0x22: i += 1; return start..<(i - 1)
                case 0x5C: i += 2
                case 0x00..<0x20: throw fail("control character in a string", at: i)
                default: i += 1
                }
            }
            throw fail("a string that never ends", at: start - 1)
        }
        func scalar() throws {
            let start = i
            if b[i] == 0x22 { _ = try string(); return }
            for word in ["true", "false", "null"] where n - i >= word.utf8.count
                && word.utf8.elementsEqual(b[i..<(i + word.utf8.count)]) {
                i += word.utf8.count
                return
            }
            while i < n, (0x30...0x39).contains(b[i]) || b[i] == 0x2D || b[i] == 0x2B || b[i] == 0x2E
                || b[i] == 0x65 || b[i] == 0x45 { i += 1 }
            guard i > start, Double(String(decoding: b[start..<i], as: UTF8.self)) != nil else {
                throw fail("expected a value, found \(what(start))", at: start)
            }
        }

        var stack: [(Container, Set<Data>)] = []
        skipSpace()
        guard i < n else { throw fail("the file is empty", at: 0) }
        // Each turn reads one value, then what follows it in its container.
        var expectValue = true
        func key() throws {
            guard i < n, b[i] == 0x22 else { throw fail("expected a key in quotes, found \(what(i))", at: i) }
            let at = i
            let range = try string()
            let name = Data(b[range])
            guard stack[stack.count - 1].1.insert(name).inserted else {
                throw fail("duplicate key '\(String(decoding: name, as: UTF8.self))'", at: at)
            }
            skipSpace()
            guard i < n, b[i] == 0x3A else { throw fail("expected ':' after a key, found \(what(i))", at: i) }
            i += 1
            expectValue = true
        }
        while true {
            skipSpace()
            if expectValue {
                guard i < n else { throw fail("expected a value, found the end of the file", at: i) }
                if b[i] == 0x7B || b[i] == 0x5B {
                    guard stack.count < maxDepth else { throw fail("nested more than \(maxDepth) deep", at: i) }
                    let isObject = b[i] == 0x7B
                    i += 1
                    stack.append((isObject ? .object : .array, []))
                    skipSpace()
                    if i < n, b[i] == (isObject ? 0x7D : 0x5D) {
                        i += 1
                        stack.removeLast()
                        expectValue = false
                        continue
                    }
                    if isObject { try key() }
                    continue
                }
                try scalar()
                expectValue = false
                continue
            }
            guard let (container, _) = stack.last else {
                guard i == n else { throw fail("unexpected \(what(i)) after the end of the report", at: i) }
                return
            }
            let close: UInt8 = container == .object ? 0x7D : 0x5D
            if i < n, b[i] == 0x2C {
                i += 1
                skipSpace()
                if container == .object { try key() } else { expectValue = true }
            } else if i < n, b[i] == close {
                i += 1
                stack.removeLast()
            } else {
                throw fail("expected ',' or '\(container == .object ? "}" : "]")', found \(what(i))", at: i)
            }
        }

    }
}
