import MemprofCore

/// Parses the units of spec §1: durations, sizes and rates. Each returns nil with a reason.
enum Quantity {
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

    /// `250ms`, `30s`, `2m`, `1h`, `1m30s`, `1.2s`, `500us` → microseconds.
    static func duration(_ text: String) -> Result<Microseconds, QuantityError> {
        let s = text.trimmingSpaces
        guard !s.isEmpty else { return .failure(.init("an empty duration")) }
        if Double(s) != nil {
            return .failure(.init("'\(s)' has no unit; write it with one, for example '\(s)s' or '\(s)ms'"))
        }
        var rest = Substring(s)
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else {
                return .failure(.init("'\(s)' is not a duration (use us, ms, s, m, h, as in '1m30s')"))
            }
            rest = rest.dropFirst(number.count)
            let unitText = rest.prefix { !$0.isNumber && $0 != "." }
            guard let (_, scale) = durationUnits.first(where: { $0.0 == unitText }) else {
                let unit = unitText.isEmpty ? "no unit" : "unit '\(unitText)'"
                return .failure(.init("'\(s)' has \(unit); use us, ms, s, m or h"))
            }
            rest = rest.dropFirst(unitText.count)
            total += value * scale
        }
        return .success(Microseconds(total.rounded()))
    }

    /// `45MB`, `1.5GB`, `512KiB`, `100B` → bytes (powers of 1024).
    static func size(_ text: String) -> Result<Bytes, QuantityError> {
        let s = text.trimmingSpaces
        if s.hasPrefix("-") { return .failure(.init("'\(s)' is negative; sizes are 0 or more")) }
        if Double(s) != nil {
            return .failure(.init("'\(s)' has no unit; write it with one, for example '\(s)MB'"))
        }
        let number = s.prefix { $0.isNumber || $0 == "." }
        let unit = s.dropFirst(number.count).trimmingSpaces
        guard let value = Double(number) else {
            return .failure(.init("'\(s)' is not a size (write a number and B, KB, MB or GB)"))
        }
        guard let scale = sizeUnits[unit] else {
            return .failure(.init("'\(s)' has unknown unit '\(unit)'; use B, KB, MB, GB (or KiB, MiB, GiB)"))
        }
        return .success(Bytes((value * scale).rounded()))
    }

    /// `2MB/min`, `512KB/s`, `40MB/h` → an exact rate.
    static func rate(_ text: String) -> Result<Rate, QuantityError> {
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
}

struct QuantityError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
