import Foundation
import Testing
@testable import MemprofOutput
@testable import MemprofInput

/// The strict JSON scanner the report reader is built on: what it refuses, where, and that it
/// reads what it accepts exactly.
@Suite struct JSONScannerTests {
    /// Skips one whole document; the error's message and byte offset when it is refused.
    func skip(_ text: String) -> (message: String, offset: Int)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw -> (message: String, offset: Int)? in
            var s = JSONScanner(raw)
            do {
                try s.skipValue()
                try s.expectEnd()
                return nil
            } catch let error as JSONScanError {
                return (error.message, error.offset)
            } catch {
                return ("\(error)", -1)
            }
        }
    }

    @Test func acceptsValidJSON() {
        for text in [#"{}"#, #"[]"#, #" {"a": [1, -2.5e3, 0, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}} "#,
                     "\"caf\u{e9}\"", "-0", "1E+2", #"{"a":1,"\u0062":2}"#] {
            #expect(skip(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("", "expected a value, found the end of the file", 0),
        ("[1,]", "expected a value, found ']'", 3),
        ("{\"a\":1,}", "expected a key in quotes, found '}'", 7),
        ("[01]", "expected ',' or ']', found '1'", 2),
        ("[1.]", "a number needs digits after '.'", 3),
        ("[+1]", "expected a value, found '+'", 1),
        ("[.5]", "expected a value, found '.'", 1),
        ("[1e]", "a number needs digits in its exponent", 3),
        ("[\"a\\x\"]", "an invalid escape \\x", 3),
        ("[\"a\\u12\"]", "a \\u escape needs four hex digits", 3),
        ("[\"a\tb\"]", "control character in a string", 3),
        ("[\"\\ud800\"]", "a string that is not UTF-8 (or has a lone UTF-16 surrogate)", 1),
        ("[\"abc", "a string that never ends", 1),
        ("{\"a\":1,\"a\":2}", "duplicate key 'a'", 7),
        ("{\"a\":1,\"\\u0061\":2}", "duplicate key 'a'", 7),
        ("[tru]", "expected true or false, found 't'", 1),
        ("[nul]", "expected a value, found 'n'", 1),
        ("{\"a\" 1}", "expected ':' after a key, found '1'", 5),
        ("[1] [2]", "unexpected '[' after the end of the JSON value", 4),
    ] as [(String, String, Int)])
    func refusesWithOffset(text: String, message: String, offset: Int) {
        let problem = skip(text)
        #expect(problem?.message == message, "\(text)")
        #expect(problem?.offset == offset, "\(text)")
    }

    @Test func refusesBytesThatAreNotUTF8() {
        var bytes = Array("[\"ab".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
        let message = bytes.withUnsafeBytes { raw -> String? in
            var s = JSONScanner(raw)
            do { try s.skipValue(); return nil } catch let error as JSONScanError { return error.message } catch { return nil }
        }
        #expect(message == "a string that is not UTF-8 (or has a lone UTF-16 surrogate)")
        bytes = Array("[\"\u{e9}\"]".utf8)
        #expect(bytes.withUnsafeBytes { raw in var s = JSONScanner(raw); return (try? s.skipValue()) != nil })
    }

    @Test func findsADuplicateAmongManyKeys() {
        let keys = (0..<500).map { "\"k\($0)\":\($0)" }
        #expect(skip("{" + keys.joined(separator: ",") + "}") == nil)
        let twice = "{" + keys.joined(separator: ",") + ",\"k250\":1}"
        #expect(skip(twice)?.message == "duplicate key 'k250'")
        // The same key in two sibling objects is not a duplicate.
        #expect(skip(#"[{"a":1},{"a":2}]"#) == nil)
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(skip(deep)?.message == "nested more than \(JSONScanner.maxDepth) deep")
        let fine = String(repeating: "[", count: JSONScanner.maxDepth) + String(repeating: "]", count: JSONScanner.maxDepth)
        #expect(skip(fine) == nil)
    }

    @Test func readsNumbersExactly() throws {
        let text = "[0, -7, 9007199254740993, 9223372036854775807, -9223372036854775808, 1e3, 2.0, 123456789012345678]"
        let values = try Array(text.utf8).withUnsafeBytes { raw in
            var s = JSONScanner(raw)
            try s.beginArray()
            var first = true
            var out: [Int64] = []
            while try s.nextElement(first: &first) { out.append(try s.readInt64()) }
            return out
        }
        #expect(values == [0, -7, 9_007_199_254_740_993, .max, .min, 1000, 2, 123_456_789_012_345_678])
        for bad in ["9223372036854775808", "1.5", "1e300"] {
            let message = Array(bad.utf8).withUnsafeBytes { raw -> String? in
                var s = JSONScanner(raw)
                do { _ = try s.readInt64(); return nil } catch let error as JSONScanError { return error.message } catch { return nil }
            }
            #expect(message == "expected a whole number of at most 64 bits, found \(bad)")
        }
    }

    @Test func readsStringsAndKeysAsBytes() throws {
        let text = #"{"name":"caf\u00e9 \"x\"","kind":"eviction"}"#
        try Array(text.utf8).withUnsafeBytes { raw in
            var s = JSONScanner(raw)
            try s.beginObject()
            var first = true
            var seen = JSONScanner.KeySet()
            var found: [String] = []
            while let key = try s.nextMember(first: &first) {
                try s.insert(key, into: &seen)
                if s.key(key, is: "kind") {
                    #expect(try s.readChoice(JSONNames(["exit", "eviction"])) == 1)
                } else {
                    found.append(try s.readString())
                }
            }
            #expect(found == ["caf\u{e9} \"x\""])
        }
    }

    @Test func namesAreFoundByTheirBytes() throws {
        // "exit" and "evict" share a first byte and "kind"/"killed" too; lengths tell most apart.
        let names = JSONNames(["exit", "evict", "kind", "kill", "killed", "a", ""])
        for (k, name) in names.names.enumerated() {
            let text = Array("\"\(name)\"".utf8)
            let found = try text.withUnsafeBytes { raw in
                var s = JSONScanner(raw)
                return try s.readChoice(names)
            }
            #expect(found == k, "\(name)")
        }
        for other in ["exiT", "kin", "b", "killer", "\\u0065xit"] {
            let text = Array("\"\(other)\"".utf8)
            let found = try text.withUnsafeBytes { raw in
                var s = JSONScanner(raw)
                return try s.readChoice(names)
            }
            #expect(found == (other == "\\u0065xit" ? 0 : nil), "\(other)")
        }
    }

    /// A member named as guessed is read whatever the length of its name (compared eight bytes
    /// at a time, and byte by byte near the end of the text); any other key is left unread.
    @Test func readsAMemberNamedAsGuessed() {
        let names = JSONNames(["a", "atUs", "1234567", "12345678", "compressedBytes", "notification", "0123456789abcdef"])
        for (k, name) in names.names.enumerated() {
            for tail in ["1}", "1, \"x\": 2}", ""] {
                for key in [name, name + "x", String(name.dropLast()) + "?", String(name.dropLast())] where !key.isEmpty {
                    let text = Array("{\"\(key)\" : \(tail)".utf8)
                    let (found, index) = text.withUnsafeBytes { raw -> (Bool, Int) in
                        var s = JSONScanner(raw)
                        s.index = 1
                        var first = true
                        return (s.nextMember(named: k, in: names, first: &first), s.index)
                    }
                    // Read only when the key is the name and its ':' is there.
                    #expect(found == (key == name), "\(key) \(tail)")
                    #expect(index == (found ? 1 + key.utf8.count + 4 : 1), "\(key) \(tail)")
                }
            }
        }
    }

    @Test func locatesOffsets() {
        let bytes = Array("{\n  \"a\": 1,\n  x".utf8)
        bytes.withUnsafeBytes { raw in
            let place = JSONScanError.location(of: 14, in: raw)
            #expect(place.line == 3)
            #expect(place.column == 3)
        }
    }
}
