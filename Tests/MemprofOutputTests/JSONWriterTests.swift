import Foundation
import MemprofOutput
import Testing

@Suite struct JSONWriterTests {
    private func text(_ write: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test func stringsAreEscaped() {
        #expect(text { $0.string("a\"b\\c\nd\u{01}é") } == "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    @Test func stringsAndIntegersMatchJSONEncoder() throws {
        let strings = ["", "plain", "quote\" back\\slash /", "\u{08}\u{0C}\t\r\n\u{1F}", "é 日本 🙂"]
        let integers: [Int64] = [0, 1, -1, 42, Int64.max, Int64.min, 1_000_000]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for s in strings {
            #expect(text { $0.string(s) } == String(decoding: try encoder.encode(s), as: UTF8.self))
        }
        for i in integers {
            #expect(text { $0.int(i) } == String(decoding: try encoder.encode(i), as: UTF8.self))
        }
    }

    @Test func integersAtEveryDigitCountMatchTheirDescription() {
        var values: [Int64] = [Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1), power * 7 / 3]
            power = power &* 10
        }
        for value in values {
            #expect(text { $0.int(value) } == String(value))
        }
    }

    @Test func aCopiedWriterKeepsItsOwnText() {
        var a = JSONWriter()
        a.raw("[1")
        var b = a
        b.raw(",2]")
        a.raw("]")
        #expect(String(decoding: a.bytes, as: UTF8.self) == "[1]")
        #expect(String(decoding: b.bytes, as: UTF8.self) == "[1,2]")
        // Growing far past the first capacity keeps what was written, and removing keeps nothing.
        var expected = "[1]"
        for n in 0..<10_000 {
            a.int(n)
            expected += String(n)
        }
        #expect(String(decoding: a.bytes, as: UTF8.self) == expected)
        a.removeAll()
        #expect(a.isEmpty && b.count == 5)
    }

    @Test func numbersAreWholeWhenTheyCanBe() {
        #expect(text { $0.number(3) } == "3")
        #expect(text { $0.number(-2.5) } == "-2.5")
        #expect(text { $0.number(.nan) } == "0")
        #expect(text { $0.number(.infinity) } == "0")
        #expect(text { $0.number(1e20) } == "1e+20")
    }

    @Test func objectsAndArraysPutCommasBetweenMembers() {
        let out = text { json in
            json.object { o in
                o.int("a", 1)
                o.int("skipped", nil)
                o.string("b", "x")
                o.key("c")
                o.buffer.array([1, 2, 3]) { $0.int($1) }
            }
        }
        #expect(out == #"{"a":1,"b":"x","c":[1,2,3]}"#)
    }

    /// Edge values of decimal formatting: 0, ±1, both ends of Int64, and on each side of every
    /// power of ten (where the digit count changes), and a spread of others.
    static let decimalEdges: [Int64] = {
        var values: [Int64] = [0, 1, -1, 9, -9, 10, -10, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1), power * 7 / 3]
            power = power &* 10
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62)) }
        return values
    }()

    @Test func decimalsAreTheDescriptionOfTheirValue() {
        for value in Self.decimalEdges {
            // The plain form, the writer's, and a record's, alone and among other text.
            #expect(text { $0.int(value) } == String(value))
            #expect(text { out in out.record { $0.int(value) } } == String(value))
            #expect(text { out in out.record { r in r.raw("["); r.int(value); r.byte(UInt8(ascii: "]")) } } == "[\(value)]")
        }
    }

    @Test func aRecordWritesAsTheWriterDoes() {
        let strings = ["", "plain", "quote\" back\\slash /", "\u{08}\u{0C}\t\r\n\u{1F}", "é 日本 🙂",
                       String(repeating: "long text past a small string ", count: 9)]
        for s in strings {
            #expect(text { out in out.record { $0.string(s) } } == text { $0.string(s) })
            #expect(text { out in out.record { $0.stringContents(s) } } == text { $0.stringContents(s) })
        }
        #expect(text { out in out.record { r in r.bool(true); r.bool(false); r.rawText("x1") } } == "truefalsex1")
        // Binary headers, and a length stored back into them.
        let bytes = text { out in
            out.record { r in
                r.int64Bytes(0x4142_4344_4546_4748)
                r.uint32Bytes(0)
                r.raw("ab")
                r.store(UInt32(0x3132_3334), at: 8)
            }
        }
        #expect(bytes == "HGFEDCBA4321ab")
    }

    @Test func aRecordGrowsTheWriterAndLeavesCopiesAlone() {
        var a = JSONWriter(capacity: 8)
        a.raw("[1")
        let b = a
        var expected = "[1"
        a.record { r in
            // Far past the first capacity, in one record.
            for n in 0..<5_000 {
                r.byte(UInt8(ascii: ","))
                r.int(n)
                expected += ",\(n)"
            }
        }
        a.record { $0.raw("]") }
        #expect(String(decoding: a.bytes, as: UTF8.self) == expected + "]")
        #expect(String(decoding: b.bytes, as: UTF8.self) == "[1")
        // A writer emptied and a detached one (an object's, while lent) take records too.
        a.removeAll()
        a.record { $0.raw("x") }
        #expect(String(decoding: a.bytes, as: UTF8.self) == "x")
        var c = JSONWriter()
        c.object { o in
            o.key("k")
            o.buffer.record { $0.int(-5) }
        }
        #expect(String(decoding: c.bytes, as: UTF8.self) == #"{"k":-5}"#)
    }
}
