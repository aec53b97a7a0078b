/// Escaping for text that goes into the self-contained HTML pages memprof writes
/// (report.html, the runs index, compare pages).
public enum HTMLEscape {
    /// Text safe inside an element or a quoted attribute: `&`, `<`, `>`, `"` and `'` escaped.
    public static func text(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
