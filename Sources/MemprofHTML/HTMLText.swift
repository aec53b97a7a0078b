import MemprofOutput
import MemprofCore
import MemprofReport

/// Small text helpers for building the page.
public enum HTMLText {
    /// Text safe inside an element or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        HTMLEscape.text(text)
    }

    /// A coordinate with at most one decimal: `12`, `12.5`, `-3.2`.
    static func coordinate(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// A JSON document safe to embed in a `<script type="application/json">` element: every `<`
    /// (which only occurs inside strings) is written `\u003c`, so no `</script>` or `<!--` can appear.
    static func embeddable(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A colour per app (see `Palette`).
    static func appColor(_ index: Int) -> String { Palette.app(index) }

    static func percent(_ part: Int64, of whole: Int64) -> String {
        guard whole > 0 else { return "–" }
        return "\(Format.oneDecimal(Double(part) * 100 / Double(whole)))%"
    }

    /// `12,345`: a count with its thousands separated.
    public static func count(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (index, ch) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return value < 0 ? "-" + out : out
    }
}

extension String {
    /// Shorthand for `HTMLText.escape`.
    var html: String { HTMLText.escape(self) }
}
