import MemprofCore

/// The one parser of memprof's units (spec §1): durations, sizes, rates and percentages, for
/// workloads, thresholds and budgets alike. Each returns a value or a reason in words; every
/// value is range-checked before it becomes an integer, so no input can overflow.
public enum Quantity {
    /// The largest size accepted anywhere: 4096GB (4 TiB). Sums of many such sizes still fit in
    /// 64 bits, so the engine's arithmetic cannot overflow.
    public static let maxBytes: Bytes = 4096 * .gigabyte
    /// The largest duration accepted anywhere: 87600h (ten years of 365 days).
    public static let maxDuration: Microseconds = 87_600 * 3_600_000_000
    /// The largest bare number accepted in thresholds and budgets: 2^53, above which a Double
    /// no longer holds every whole number.
    public static let maxExactNumber: Double = 9_007_199_254_740_992

    private static let durationUnits: [(String, Double)] = [
        ("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000), ("min", 60_000_000), ("m", 60_000_000),
        ("h", 3_600_000_000),
    ]

    private static let sizeUnits: [String: Double] = [
        "B": 1, "KB": 1024, "MB": 1024 * 1024, "GB": 1024 * 1024 * 1024,
        "KiB": 1024, "MiB": 1024 * 1024, "GiB": 1024 * 1024 * 1024,
    ]

    private static let rateUnits: [String: Double] = [
        "s": 1_000_000, "sec": 1_000_000, "min": 60_000_000, "m": 60_000_000, "h": 3_600_000_000,
    ]

    /// `250ms`, `30s`, `2m`, `1h`, `1m30s`, `1.2s`, `500us` → microseconds, at most ``maxDuration``.
    public static func duration(_ text: String) -> Result<Microseconds, QuantityError> {
        if let value = plainDuration(text) { return .success(value) }
        return generalDuration(text)
    }

    static func generalDuration(_ text: String) -> Result<Microseconds, QuantityError> {
        let s = text.trimmingSpaces
        guard !s.isEmpty else { return .failure(.init("an empty duration")) }
        if s.hasPrefix("-") { return .failure(.init("'\(s)' is negative; durations are 0 or more")) }
        if Double(s) != nil {
            return .failure(.init("'\(s)' has no unit; write it with one, for example '\(s)s' or '\(s)ms'"))
        }
        var rest = Substring(s)
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCIIDigit || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else {
                return .failure(.init("'\(s)' is not a duration (use us, ms, s, m, h, as in '1m30s')"))
            }
            rest = rest.dropFirst(number.count)
            let unitText = rest.prefix { !$0.isASCIIDigit && $0 != "." }
            guard let (_, scale) = durationUnits.first(where: { $0.0 == unitText }) else {
                let unit = unitText.isEmpty ? "no unit" : "unit '\(unitText)'"
                return .failure(.init("'\(s)' has \(unit); use us, ms, s, m or h"))
            }
            rest = rest.dropFirst(unitText.count)
            total += value * scale
        }
        guard total.isFinite, total.rounded() <= Double(maxDuration) else {
            return .failure(.init("'\(s)' is too long; the largest duration accepted is 87600h (ten years)"))
        }
        return .success(Microseconds(total.rounded()))
    }

    /// ``duration(_:)`` of ASCII text such as `1619919s` or `1m30.5s`, read from its bytes (a
    /// script has one per entry); nil for anything else, including every text that is refused, so
    /// that the general reading above says why in its own words. It accepts a subset of what that
    /// reading accepts and gives the same value: the text has no spaces to trim, cannot be a bare
    /// number (it ends in a unit's last letter), and its numbers and units split where that
    /// reading splits them.
    static func plainDuration(_ text: String) -> Microseconds? {
        var text = text
        return text.withUTF8 { u -> Microseconds? in
            guard let last = u.last, last == UInt8(ascii: "s") || last == UInt8(ascii: "m") || last == UInt8(ascii: "h"),
                  u.allSatisfy({ $0 < 0x80 }), u[0] != UInt8(ascii: " "), u[0] != UInt8(ascii: "-") else { return nil }
            func isNumeric(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || b == UInt8(ascii: ".") }
            var total = 0.0
            var i = 0
            while i < u.count {
                let numberStart = i
                var whole = 0
                var digitsOnly = true
                while i < u.count, isNumeric(u[i]) {
                    if u[i] == UInt8(ascii: ".") { digitsOnly = false } else { whole = whole &* 10 &+ Int(u[i] - 0x30) }
                    i += 1
                }
                guard i > numberStart else { return nil }
                let value: Double
                if digitsOnly && i - numberStart <= 15 {
                    value = Double(whole)  // exact: under 2^53, as strtod reads it
                } else {
                    guard let v = Double(String(decoding: UnsafeBufferPointer(rebasing: u[numberStart..<i]), as: UTF8.self)) else { return nil }
                    value = v
                }
                let unitStart = i
                while i < u.count, !isNumeric(u[i]) { i += 1 }
                let unit = String(decoding: UnsafeBufferPointer(rebasing: u[unitStart..<i]), as: UTF8.self)
                guard let (_, scale) = durationUnits.first(where: { $0.0 == unit }) else { return nil }
                total += value * scale
            }
            guard total.isFinite, total.rounded() <= Double(maxDuration) else { return nil }
            return Microseconds(total.rounded())
        }
    }

    /// `45MB`, `1.5GB`, `512KiB`, `100B` → bytes (powers of 1024), at most ``maxBytes``.
    public static func size(_ text: String) -> Result<Bytes, QuantityError> {
        let s = text.trimmingSpaces
        if s.hasPrefix("-") { return .failure(.init("'\(s)' is negative; sizes are 0 or more")) }
        if Double(s) != nil {
            return .failure(.init("'\(s)' has no unit; write it with one, for example '\(s)MB'"))
        }
        let number = s.prefix { $0.isASCIIDigit || $0 == "." }
        let unit = s.dropFirst(number.count).trimmingSpaces
        guard let value = Double(number) else {
            return .failure(.init("'\(s)' is not a size (write a number and B, KB, MB or GB)"))
        }
        guard let scale = sizeUnits[unit] else {
            return .failure(.init("'\(s)' has unknown unit '\(unit)'; use B, KB, MB, GB (or KiB, MiB, GiB)"))
        }
        let bytes = (value * scale).rounded()
        guard bytes.isFinite, bytes <= Double(maxBytes) else {
            return .failure(.init("'\(s)' is too large; the largest size accepted is 4096GB"))
        }
        return .success(Bytes(bytes))
    }

    /// `2MB/min`, `512KB/s`, `40MB/h` → an exact rate.
    public static func rate(_ text: String) -> Result<Rate, QuantityError> {
        let s = text.trimmingSpaces
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return .failure(.init("'\(s)' is not a rate; write a size per time, as in '2MB/min'"))
        }
        let bytes: Bytes
        switch size(String(parts[0])) {
        case .success(let b): bytes = b
        case .failure(let e): return .failure(e)
        }
        guard let period = rateUnits[String(parts[1]).trimmingSpaces] else {
            return .failure(.init("'\(s)' has unknown time unit '\(parts[1])'; use s, min or h"))
        }
        return .success(Rate(bytes: bytes, perUs: Microseconds(period)))
    }

    /// `5%` → 0.05. A percentage is always written with `%`, from 0% to 1000000%.
    public static func percent(_ text: String) -> Result<Double, QuantityError> {
        let s = text.trimmingSpaces
        guard s.hasSuffix("%"), let v = Double(s.dropLast().trimmingSpaces), v.isFinite, v >= 0 else {
            return .failure(.init("'\(s)' is not a percentage such as 5%"))
        }
        guard v <= 1_000_000 else {
            return .failure(.init("'\(s)' is too large; the largest percentage accepted is 1000000%"))
        }
        return .success(v / 100)
    }

    /// A bare number (`3`, `0.5`), from −2^53 to 2^53.
    public static func number(_ text: String) -> Result<Double, QuantityError>? {
        let s = text.trimmingSpaces
        guard let v = Double(s), !s.hasPrefix("0x"), !s.hasPrefix("0X") else { return nil }
        guard v.isFinite, abs(v) <= maxExactNumber else {
            return .failure(.init("'\(s)' is too large; the largest number accepted is 9007199254740992 (2^53)"))
        }
        return .success(v)
    }
}

/// Why a quantity could not be read, in words.
public struct QuantityError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
    /// The text without leading and trailing spaces.
    package var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[first...last])
    }
}
