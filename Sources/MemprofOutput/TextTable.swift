/// Plain-text tables for terminals: columns padded to their widest cell, two spaces apart.
public enum TextTable {
    /// The lines of a table whose first row is usually its header; columns in `rightAligned`
    /// are aligned right (numbers). Trailing spaces are trimmed.
    public static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        guard let width = rows.map(\.count).max() else { return [] }
        let widths = (0..<width).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return rightAligned.contains(c) ? pad + cell : cell + pad
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
