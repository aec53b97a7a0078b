import Foundation
import MemprofOutput
import Testing

@Suite struct EscapingTests {
    @Test func htmlEscapesTheFiveSpecialCharacters() {
        #expect(HTMLEscape.text(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLEscape.text("plain é") == "plain é")
    }

    @Test func xmlEscapesAndDropsWhatXMLCannotCarry() {
        #expect(XMLEscape.text("a<b>&\"'\n\t\u{01}c") == "a&lt;b&gt;&amp;&quot;&apos;&#10;&#9;c")
    }

    @Test func junitCountsFailuresAndSkips() {
        let xml = JUnit.document(suite: "s", cases: [
            .init(classname: "c", name: "ok"),
            .init(classname: "c", name: "bad", failure: "worse"),
            .init(classname: "c", name: "skip", skipped: "n/a"),
        ])
        #expect(xml.contains(#"<testsuite name="s" tests="3" failures="1" errors="0" skipped="1">"#))
        #expect(xml.contains(#"<failure message="worse" type="regression">worse</failure>"#))
    }
}
