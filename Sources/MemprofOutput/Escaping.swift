/// Escaping for text that goes into the self-contained HTML pages memprof writes
/// (report.html, the runs index, compare and fleet pages).
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

/// Escaping for the XML memprof writes (JUnit reports).
public enum XMLEscape {
    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry.
    public static func text(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Escaping for the YAML memprof writes (workloads `memprof import` writes, calibrated sweeps).
public enum YAMLEscape {
    /// Text on one comment line: line breaks and other control characters become `?`, so nothing
    /// the text says can end the comment and start YAML.
    public static func comment(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029 ? "?" : $0
        }))
    }

    /// A YAML double-quoted scalar: every character that could end it or break the line escaped.
    public static func doubleQuoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.value == 0x85 || u.value == 0x2028 || u.value == 0x2029
                    || u.value == 0xFEFF {
                    let hex = String(u.value, radix: 16)
                    out += u.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" : "") + hex
                        : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
