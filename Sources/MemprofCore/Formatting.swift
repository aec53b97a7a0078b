/// Human forms of the report's units, for terminals and pages.
public enum Format {
    /// `1 compression`, `2 compressions`, `0 evictions`: a count with its noun in the right
    /// number (`plural` for nouns that do not take an s).
    public static func count(_ value: Int, _ singular: String, plural: String? = nil) -> String {
        "\(value) \(value == 1 ? singular : plural ?? singular + "s")"
    }

    /// `45 MB`, `1.5 GB`, `512 KB`, `0 B` (powers of 1024, as the workload format counts).
    public static func bytes(_ value: Bytes) -> String {
        let v = Double(value)
        let units: [(Double, String)] = [(1_073_741_824, "GB"), (1_048_576, "MB"), (1024, "KB")]
        for (scale, unit) in units where abs(v) >= scale {
            let x = v / scale
            return x >= 100 || x == x.rounded() ? "\(Int(x.rounded())) \(unit)" : "\(oneDecimal(x)) \(unit)"
        }
        return "\(value) B"
    }

    /// `1h30m`, `4m5s`, `250ms`, `0s`.
    public static func duration(_ us: Microseconds) -> String {
        if us == 0 { return "0s" }
        if us < 1_000 { return "\(us)us" }
        if us < 1_000_000 { return "\(us / 1_000)ms" }
        if us < 60_000_000 {
            let s = Double(us) / 1e6
            return s == s.rounded() ? "\(Int(s))s" : "\(oneDecimal(s))s"
        }
        var seconds = us / 1_000_000
        let hours = seconds / 3600
        seconds %= 3600
        let minutes = seconds / 60
        seconds %= 60
        var out = ""
        if hours > 0 { out += "\(hours)h" }
        if minutes > 0 { out += "\(minutes)m" }
        if seconds > 0 { out += "\(seconds)s" }
        return out
    }

    /// A compression ratio to two decimals and its sign, as a jetsam report's figures give it: `2.66×`.
    public static func ratio(_ r: Double) -> String { "\((r * 100).rounded() / 100)×" }

    public static func oneDecimal(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
