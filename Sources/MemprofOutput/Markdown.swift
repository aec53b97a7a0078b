/// GitHub-flavoured Markdown, as compare and check write it for pull requests and step summaries.
public enum Markdown {
    /// A table with a header row; columns in `rightAligned` are aligned right (numbers).
    public static func table(header: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        var out = "| " + header.map(cell).joined(separator: " | ") + " |\n"
        out += "|" + header.indices.map { rightAligned.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
        for row in rows { out += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
        return out
    }

    /// Text safe inside a table cell: pipes escaped, line breaks made spaces.
    public static func cell(_ s: String) -> String {
        // Most cells have neither: no Foundation search for them.
        guard s.utf8.contains(where: { $0 == 0x7C || $0 == 0x0A }) else { return s }
        return s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
