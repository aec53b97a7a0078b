import Foundation
/// App colours: a categorical palette (Tableau 10, then a darker and a lighter set of the same
/// hues), so an app's colour is a hue of its own rather than a step along a gradient, and
/// neighbouring series in the stacked chart differ by at least `minimumAdjacentDistance`
/// (CIE76 ΔE, unit-tested and measured again in the browser check).
public enum Palette {
    static let sets: [[String]] = [
        ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f", "#ff9da7", "#bab0ac"],
        ["#2c5a84", "#b5651d", "#3b7a33", "#a8383a", "#3f8c86", "#b89a22", "#7f5474", "#6b4e3d", "#d0707a", "#7d7571"],
        ["#a0cbe8", "#ffbe7d", "#8cd17d", "#ff9d9a", "#b3dcd8", "#f8e08e", "#d4a6c8", "#c49c7a", "#f7a6d0", "#d9d9d9"],
    ]

    /// Neighbouring app colours are at least this far apart (CIE76 ΔE; about 2.3 is "just noticeable").
    public static let minimumAdjacentDistance = 25.0

    /// The colour of the app at `index` in the chart's order, as `#rrggbb`.
    public static func app(_ index: Int) -> String {
        let i = max(0, index)
        let set = sets[(i / 10) % sets.count]
        return set[i % 10]
    }

    /// CIE76 colour difference between two `#rrggbb` colours (Euclidean distance in CIELAB, D65).
    public static func distance(_ a: String, _ b: String) -> Double {
        let p = lab(a), q = lab(b)
        return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }

    /// WCAG 2 contrast ratio of two `#rrggbb` colours (1...21).
    public static func contrast(_ a: String, _ b: String) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    static func linear(_ hex: String) -> (Double, Double, Double) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        let value = UInt32(digits, radix: 16) ?? 0
        func channel(_ shift: UInt32) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return (channel(16), channel(8), channel(0))
    }

    static func luminance(_ hex: String) -> Double {
        let (r, g, b) = linear(hex)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    static func lab(_ hex: String) -> (Double, Double, Double) {
        let (r, g, b) = linear(hex)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
