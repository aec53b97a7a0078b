import Foundation
import MemprofCore
import Testing
@testable import MemprofInput
@testable import MemprofYAMLReader
@testable import MemprofWorkload

/// Every YAML input (workloads with or without overrides, sweep, thresholds and budget files) is
/// composed into a `YAMLTree` from libyaml's events. These tests hold it to Yams' public composer
/// (same nodes and marks, same errors at the same places), hold the script's shortcut to the
/// general reading, and check the hostile inputs of the fuzz corpus.
@Suite struct YAMLTreeTests {
    /// Texts that exercise the composer: every built-in workload, then the corners of YAML.
    static let corpus: [String] = BuiltinWorkloads.all.map(\.yaml) + [
        minimal,
        "",
        "# only a comment\n",
        "---\n...\n",
        "a: 1\n---\nb: 2\n",
        "a: 1\na: 2\n",
        "a: 1\n'a': 2\n",
        "a: 1\n\"a\": 2\n",
        "a: 1\n!!int a: 2\n",
        "a: 1\n! a: 2\n",
        "b: 1\na: 2\nb: 3\na: 4\n",
        "{a: 1, b: 2, a: 3}",
        "? [1, 2]\n: x\n? [1, 2]\n: y\n",
        "? {a: 1}\n: x\n? [a]\n: y\n",
        "? [2]\n: x\n? [1, 5]\n: y\n? [2]\n: z\n? [1, 5]\n: w\n",
        "? {b: 1}\n: x\n? {a: 2}\n: y\n? {b: 1}\n: z\n? {a: 2}\n: w\nc: 1\n? {b: 1, a: 2}\n: v\n",
        "? !!seq [1]\n: x\n? [1]\n: y\n? ! [1]\n: z\n? !x [1]\n: w\n",
        "x: &a {k: 1}\ny: *a\nz: *a\n",
        "x: &a 1\ny: &a 2\nz: *a\n",
        "x: *nope\n",
        "x: &a [*a]\n",
        "a: !!str 5\nb: !custom {c: 1}\nc: !<tag:example.com,2000:x> [1]\n",
        "%TAG !e! tag:example.com,2000:\n---\na: !e!thing 1\n",
        "a: 'single'\nb: \"double\\n\\u00e9\"\nc: |\n  literal\n  text\nd: >\n  folded\n  text\ne: plain\n",
        "a: \"nul \\0 inside\"\n",
        "émoji: \"😀\"\nkey: välue\n",
        "a:\n\t- tab\n",
        "a: [1, 2\n",
        "a: {b: 1\n",
        "a: b: c\n",
        "- a\nb: c\n",
        "a: 1\n  b: 2\n",
        "'unterminated\n",
        "a: \"\\uD800\"\n",
        "a: \u{FFFE}\n",
        "\u{FEFF}a: 1\n",
        "{a: 1, \u{FEFF}a: 2}", "{'\u{FEFF}\u{FEFF}b': 1, '\u{FEFF}b': 2}", "x: [\u{FEFF}9 e, s\u{FEFF}]\n",
        "{\"memprof\": 1, \"name\": \"json\", \"duration\": \"1h\", \"apps\": {\"a\": {\"launch\": {\"footprint\": \"10MB\"}}}}",
        String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000),
        String(repeating: "{a: ", count: 999) + "1" + String(repeating: "}", count: 999),
        (0..<1_200).map { String(repeating: "  ", count: $0) + "k\($0):\n" }.joined() + String(repeating: "  ", count: 1_200) + "v\n",
        billionLaughs,
        scriptBomb,
    ]

    static let billionLaughs = """
        memprof: 1
        name: bomb
        duration: 1h
        a: &a [x, x, x, x, x, x, x, x, x, x]
        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
        e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
        f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
        g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
        h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
        apps: [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
        """

    /// Ten to the eighth script entries, written in 13 lines; refused at its first entry.
    static let scriptBomb = """
        memprof: 1
        name: bomb
        duration: 1h
        apps:
          x: {launch: {footprint: 1MB}}
        script:
          - [&a [x, x, x, x, x, x, x, x, x, x], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a],
             &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b], &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c],
             &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d], &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e],
             &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f], &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]]
          - *h
        """

    @Test(arguments: corpus.indices)
    func treeComposesAsYamsDoes(_ n: Int) {
        #expect(YAMLCrossCheck.difference(Self.corpus[n]) == nil, "corpus text \(n)")
    }

    /// Seeded mutations of the built-in workloads: a byte replaced, removed or repeated, or a
    /// line swapped with another; the two composers must agree on every one.
    @Test func mutatedWorkloadsComposeAsYamsDoes() {
        var rng = SeededGenerator(seed: 9)
        let specials = Array(" :-[]{},&*!|>'\"#?\n\t%@`".utf8)
        for text in BuiltinWorkloads.all.map(\.yaml) {
            for _ in 0..<150 {
                var bytes = Array(text.utf8)
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let i = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 4 {
                    case 0: bytes[i] = specials[Int(rng.next() % UInt64(specials.count))]
                    case 1: bytes.remove(at: i)
                    case 2: bytes.insert(bytes[i], at: i)
                    default:
                        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                        lines.swapAt(Int(rng.next() % UInt64(lines.count)), Int(rng.next() % UInt64(lines.count)))
                        bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
                    }
                }
                guard let mutated = try? InputText.decode(Data(bytes), file: "m.yaml") else { continue }
                let difference = YAMLCrossCheck.difference(mutated)
                #expect(difference == nil, "\(difference ?? "") in:\n\(mutated)")
                if difference != nil { return }
            }
        }
    }

    /// The script's common entry read by its shortcut (`plainEntry`) and by the general reading
    /// alike: the same workload and warnings, or the same error.
    @Test func scriptShortcutReadsAsTheGeneralReading() throws {
        var rng = SeededGenerator(seed: 3)
        var texts = BuiltinWorkloads.all.map(\.yaml) + [minimal]
        let edits = [("45MB", "45"), ("1.2s", "-1s"), ("mail", "mial"), ("fetch", "fetch, fetch"), ("30m", "1e300h"),
                     ("seed: 7", "seed: 7\nseed: 8"), ("name: Mail", "name: [Mail]"), ("time: 1.2s", "time: 1.2s, tme: 1s")]
        for (old, new) in edits { texts.append(minimal.replacingOccurrences(of: old, with: new)) }
        // Script entries near the common shape the tree reader takes a shortcut for.
        let entries = ["{open: mail, at: 1m}", "{at: 1m, home: yes}", "{at: 1m, home: 'true'}", "{at: 1m, home: false}",
                       "{at: 1m, home: TRUE}", "{at: 1m, quit: mail}", "{at: 1m, push: safari}", "{at: 1m, push: nope}",
                       "{at: 1m, open: \"mail\"}", "{at: !!str 1m, open: mail}", "{at: '1m', open: mail}",
                       "{at: 1m, open: [mail]}", "{at: [1m], open: mail}", "{at: 1m, open: mail, size: 1MB}",
                       "{at: 1m, memoryWarning: true}", "{at: 1m, stop: mail}", "{at: 31m, open: mail}", "{at: 1 m, open: mail}",
                       "{at: 1m30.5s, open: mail}", "{at: 0.5s, open: mail}", "{at: 1e3s, open: mail}", "{at: 60000000us, open: mail}",
                       "{'at': 1m, 'open': mail}", "{at: 1m, ! open: mail}", "[at, 1m]", "{at: 1m}", "{at: 1m, open: mail, quit: mail}"]
        for entry in entries {
            texts.append(minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: entry))
            texts.append(minimal + "\n  - " + entry)
        }
        for text in BuiltinWorkloads.all.map(\.yaml) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for _ in 0..<20 {
                var copy = lines
                copy.remove(at: Int(rng.next() % UInt64(copy.count)))
                texts.append(copy.joined(separator: "\n"))
            }
        }
        let parser = WorkloadParser(file: "w.yaml")
        var general = parser
        general.readsPlainEntries = false
        for text in texts {
            let viaGeneral = Result { try general.parse(root: YAMLText.composeTree(text, file: "w.yaml")) }
            let viaShortcut = Result { try parser.parse(root: YAMLText.composeTree(text, file: "w.yaml")) }
            switch (viaGeneral, viaShortcut) {
            case (.success(let a), .success(let b)):
                #expect(a.workload == b.workload)
                #expect(a.warnings.map(\.description) == b.warnings.map(\.description))
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)")
            default:
                Issue.record("one reading accepts, the other refuses: \(viaGeneral) vs \(viaShortcut) in:\n\(text)")
            }
        }
    }

    @Test func duplicateKeysAreLocated() throws {
        let e = try #require(error(of: minimal.replacingOccurrences(of: "seed: 7", with: "seed: 7\nseed: 8")))
        #expect(e.description == "commute.yaml:3:1: duplicate key 'seed'")
        let quoted = try #require(error(of: minimal.replacingOccurrences(of: "seed: 7", with: "seed: 7\n'seed': 8")))
        #expect(quoted.description == "commute.yaml:3:1: duplicate key 'seed'")
    }

    @Test func hostileTextGetsLocatedErrorsQuickly() throws {
        let started = Date()
        let bomb = try #require(error(of: Self.scriptBomb))
        #expect(bomb.description.hasPrefix("commute.yaml:7:5: script[0]: expected a mapping of at, open"))
        let deep = try #require(error(of: String(repeating: "[", count: 20_000)))
        // libyaml (Yams' copy, as before) marks the nesting limit at the document's start.
        #expect(deep.description == "commute.yaml:1:1: invalid YAML: Maximum nesting level reached, set with yaml_set_max_nest_level()) (while parsing at line 1)")
        #expect(Date().timeIntervalSince(started) < 5)
        let empty = try #require(error(of: "# nothing\n\n"))
        #expect(empty.description == "commute.yaml:1:1: the file is empty (it holds no YAML or JSON value)")
        let alias = try #require(error(of: "memprof: 1\nname: *x\n"))
        #expect(alias.description == "commute.yaml:2:7: invalid YAML: found undefined alias")
        let two = try #require(error(of: minimal + "\n---\nmemprof: 1\n"))
        #expect(two.description.hasSuffix("invalid YAML: but found another document (expected a single document in the stream at line 1)"))
        let reader = try #require(error(of: "memprof: 1\nname: a\u{FFFE}\n"))
        #expect(reader.description == "commute.yaml: unreadable text at byte offset 18: control characters are not allowed")
    }

    @Test func scriptErrorsNameTheirEntry() throws {
        let e = try #require(error(of: minimal.replacingOccurrences(of: "{at: 2m, open: safari}", with: "{at: 2m, open: safar}")))
        #expect(e.description == "commute.yaml:16:20: script[1].open: no app named 'safar' in apps (did you mean 'safari'?)")
        let typo = try #require(error(of: minimal.replacingOccurrences(of: "{at: 2m,", with: "{att: 2m,")))
        #expect(typo.description == "commute.yaml:16:6: script[1]: unknown key 'att' (did you mean 'at'?)")
    }
}

/// Durations read from their bytes (the script's fast path) are the ones the general reading gives.
@Test func plainDurationsReadAsTheGeneralReadingDoes() {
    var rng = SeededGenerator(seed: 11)
    let pieces = ["0", "1", "7", "12", "1619919", "999999999999999", "9999999999999999", ".", "1.5", "0.25", "..",
                  "us", "ms", "s", "m", "min", "h", "sec", "x", " ", "-", "e3", "µs"]
    var read = 0
    for _ in 0..<20_000 {
        let text = (0..<(1 + Int(rng.next() % 5))).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        guard let fast = Quantity.plainDuration(text) else { continue }
        read += 1
        #expect(Quantity.generalDuration(text) == .success(fast), "\(text)")
    }
    #expect(read > 200)
    #expect(Quantity.plainDuration("1619919s") == 1_619_919_000_000)
    #expect(Quantity.plainDuration("1m30.5s") == 90_500_000)
    #expect(Quantity.plainDuration("1e300h") == nil && Quantity.plainDuration(" 5s") == nil)
}
