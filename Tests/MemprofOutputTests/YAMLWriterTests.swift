import MemprofOutput
import Testing
import Yams

/// The YAML writer decides how every scalar is written: whatever text a value holds, YAML reads
/// back the same string, and no value or comment starts YAML of its own.
@Suite struct YAMLWriterTests {
    static let hostile = ["plain", "200MB/s", "3s", "true", "No", "null", "~", "1", "0x1F", "1.5", "1e3", "-1", "a: b", "a\nb: c",
                          "x\"y", "back\\slash", "# comment", "- item", "{flow}", "[list]", "", " lead", "tab\there", "\u{2028}",
                          "café", "&anchor", "*alias", "!tag", "'single'", "%percent", "@at", "`tick`", "|", ">"]

    @Test(arguments: hostile)
    func everyWordAndTextReadsBackAsItself(value: String) throws {
        let document = YAMLDocument(comments: [value, "line\nbreak"], entries: [
            .pair(value.isEmpty ? "empty" : value, .word(value)),
            .pair("text", .text(value)),
            .pair("inline", .mapping([.pair("w", .word(value)), .pair("t", .text(value))], flow: true)),
            .pair("list", .sequence([.word(value), .text(value)], flow: true)),
            .pair("block", .mapping([.comment(value), .pair("w", .word(value))])),
        ])
        let read = try #require(try Yams.load(yaml: document.text) as? [String: Any])
        #expect(read.count == 5)
        #expect(read[value.isEmpty ? "empty" : value] as? String == value)
        #expect(read["text"] as? String == value)
        #expect((read["inline"] as? [String: Any])?["w"] as? String == value)
        #expect((read["inline"] as? [String: Any])?["t"] as? String == value)
        #expect(read["list"] as? [String] == [value, value])
        #expect((read["block"] as? [String: Any])?["w"] as? String == value)
    }

    @Test func layoutIsBlockWithFlowLines() {
        let document = YAMLDocument(comments: ["made by a test"], entries: [
            .pair("memprof", .int(1)),
            .pair("device", .mapping([.pair("ram", .word("4GB")), .comment("product: x")])),
            .pair("apps", .mapping([])),
            .pair("script", .sequence([.mapping([.pair("at", .word("0s")), .pair("home", .bool(true))], flow: true)])),
        ])
        #expect(document.text == """
            # made by a test
            memprof: 1
            device:
              ram: 4GB
              # product: x
            apps: {}
            script:
              - {at: 0s, home: true}

            """)
    }
}
