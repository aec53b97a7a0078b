/// JUnit XML, as CI systems read it.
public enum JUnit {
    public struct TestCase: Sendable {
        public var classname: String
        public var name: String
        public var failure: String?
        public var skipped: String?
        public var output: String?

        public init(classname: String, name: String, failure: String? = nil, skipped: String? = nil, output: String? = nil) {
            self.classname = classname
            self.name = name
            self.failure = failure
            self.skipped = skipped
            self.output = output
        }
    }

    public static func document(suite: String, cases: [TestCase]) -> String {
        let failures = cases.filter { $0.failure != nil }.count
        let skipped = cases.filter { $0.skipped != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"memprof\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        out += "  <testsuite name=\"\(XMLEscape.text(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for tc in cases {
            out += "    <testcase classname=\"\(XMLEscape.text(tc.classname))\" name=\"\(XMLEscape.text(tc.name))\" time=\"0\""
            if tc.failure == nil && tc.skipped == nil && tc.output == nil { out += "/>\n"; continue }
            out += ">\n"
            if let f = tc.failure { out += "      <failure message=\"\(XMLEscape.text(f))\" type=\"regression\">\(XMLEscape.text(f))</failure>\n" }
            if let s = tc.skipped { out += "      <skipped message=\"\(XMLEscape.text(s))\"/>\n" }
            if let o = tc.output { out += "      <system-out>\(XMLEscape.text(o))</system-out>\n" }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }
}
