/// A YAML value as memprof writes one (a workload that `memprof import` makes): built as values,
/// written by ``YAMLDocument/text`` alone. The writer decides how every scalar is written, so no
/// text put into a value can end it and start YAML of its own: a word is written plain only when
/// YAML reads it back as the same string, anything else double-quoted with every character that
/// could end it or break its line escaped, and a comment's line breaks become `?`.
public indirect enum YAMLValue: Sendable, Hashable {
    /// A whole number.
    case int(Int64)
    /// `true` or `false`.
    case bool(Bool)
    /// A word (a size, a duration, a key, a name): plain when it reads back as this string,
    /// quoted otherwise.
    case word(String)
    /// Text from elsewhere (a report's process name): always double-quoted.
    case text(String)
    /// A mapping, in the order of its entries; `flow` writes it on one line (`{a: 1, b: 2}`).
    case mapping([YAMLEntry], flow: Bool = false)
    /// A sequence; `flow` writes it on one line (`[a, b]`), otherwise one item a line (items
    /// that are mappings or sequences are written in flow style).
    case sequence([YAMLValue], flow: Bool = false)
}

/// One line of a mapping: a key and its value, or a comment.
public enum YAMLEntry: Sendable, Hashable {
    case pair(String, YAMLValue)
    case comment(String)
}

/// A YAML document: comments, then a block mapping.
public struct YAMLDocument: Sendable, Hashable {
    /// The comment lines at the top.
    public var comments: [String]
    public var entries: [YAMLEntry]

    public init(comments: [String] = [], entries: [YAMLEntry]) {
        self.comments = comments
        self.entries = entries
    }

    /// The document's text.
    public var text: String {
        var out = ""
        for comment in comments { out += "# " + Self.comment(comment) + "\n" }
        Self.block(entries, indent: "", into: &out)
        return out
    }

    static func block(_ entries: [YAMLEntry], indent: String, into out: inout String) {
        for entry in entries {
            switch entry {
            case .comment(let text):
                out += indent + "# " + comment(text) + "\n"
            case .pair(let key, let value):
                out += indent + word(key) + ":"
                switch value {
                case .mapping(let inner, flow: false) where !inner.isEmpty:
                    out += "\n"
                    block(inner, indent: indent + "  ", into: &out)
                case .sequence(let items, flow: false) where !items.isEmpty:
                    out += "\n"
                    for item in items { out += indent + "  - " + flow(item) + "\n" }
                default:
                    out += " " + flow(value) + "\n"
                }
            }
        }
    }

    /// A value on one line.
    static func flow(_ value: YAMLValue) -> String {
        switch value {
        case .int(let n): "\(n)"
        case .bool(let b): b ? "true" : "false"
        case .word(let w): word(w)
        case .text(let t): quoted(t)
        case .mapping(let entries, _):
            "{" + entries.compactMap { entry -> String? in
                guard case .pair(let key, let value) = entry else { return nil }  // no comments inside a line
                return word(key) + ": " + flow(value)
            }.joined(separator: ", ") + "}"
        case .sequence(let items, _): "[" + items.map(flow).joined(separator: ", ") + "]"
        }
    }

    /// `w` plain when YAML reads it back as this string: letters, digits and `._/-`, starting
    /// with a letter or digit, and not a word YAML reads as a boolean, null or number.
    static func word(_ w: String) -> String {
        guard let first = w.unicodeScalars.first, isWordScalar(first), first != "." && first != "/" && first != "-",
              w.unicodeScalars.allSatisfy(isWordScalar),
              !special.contains(w.lowercased()), !isNumber(w) else { return quoted(w) }
        return w
    }

    static func isWordScalar(_ u: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(u) || ("A"..."Z").contains(u) || ("0"..."9").contains(u) || u == "." || u == "_" || u == "/" || u == "-"
    }

    /// Words YAML (1.1 or 1.2) reads as something other than a string.
    static let special: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    /// Whether YAML reads `w` (letters, digits and `._/-` only) as a number: digits with at most
    /// one point, an exponent, `0x`/`0o` forms, or digits separated by `_` (YAML 1.1).
    static func isNumber(_ w: String) -> Bool {
        let lower = w.lowercased()
        if lower.hasPrefix("0x") || lower.hasPrefix("0o") { return true }
        var digits = 0, points = 0
        var seenExponent = false
        for u in lower.unicodeScalars {
            switch u {
            case "0"..."9": digits += 1
            case "_": continue
            case ".": points += 1
            case "e" where digits > 0 && !seenExponent: seenExponent = true
            case "-" where seenExponent: continue
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }

    /// A double-quoted scalar: every character that could end it or break the line escaped.
    static func quoted(_ s: String) -> String {
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

    /// Text on one comment line: line breaks and other control characters become `?`, so
    /// nothing can end the comment and start YAML.
    static func comment(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029 ? "?" : $0
        }))
    }
}
