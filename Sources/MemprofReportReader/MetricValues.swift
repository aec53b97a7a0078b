import Foundation
import MemprofInput
import MemprofOutput

/// Values in a metric's unit, in thresholds and budget files (a node's `value(_:)` with
/// ``number(_:kind:)``) and compare's options: read by the one unit parser of memprof
/// (`Quantity`, MemprofInput), in the unit of the metric's kind.
public enum MetricValues {
    /// `5%` from the command line.
    public static func percent(_ text: String, option: String) throws -> Double {
        switch Quantity.percent(text) {
        case .success(let v): return v
        case .failure(let e): throw BadInput("\(option): \(e.message)")
        }
    }

    /// A number from the command line.
    public static func number(_ text: String, kind: MetricKind?, option: String) throws -> Double {
        switch number(text, kind: kind) {
        case .success(let v): return v
        case .failure(let e): throw BadInput("\(option): \(e.message)")
        }
    }

    /// A value in the unit of a metric: a bare number is taken in the metric's own unit (bytes for
    /// `...Bytes`, microseconds for `...Us`), a size (`150MB`, `1.5GB`, powers of 1024) for bytes,
    /// a duration (`250ms`, `1m30s`) for durations.
    public static func number(_ text: String, kind: MetricKind?) -> Result<Double, QuantityError> {
        if let bare = Quantity.number(text) { return bare }
        let size = kind == .duration || kind == .count ? nil : Quantity.size(text)
        if case .success(let bytes) = size { return .success(Double(bytes)) }
        let duration = kind == .bytes || kind == .count ? nil : Quantity.duration(text)
        if case .success(let us) = duration { return .success(Double(us)) }
        // A value too large for its unit says so, rather than that it is not a number.
        for case .failure(let e) in [size, duration].compactMap({ $0 }) where e.message.contains("too") {
            return .failure(e)
        }
        let expected = switch kind {
        case .bytes: "a size such as 150MB"
        case .duration: "a duration such as 250ms"
        case .count: "a whole number"
        case nil: "a number"
        }
        return .failure(QuantityError("'\(text.trimmingCharacters(in: .whitespaces))' is not \(expected)"))
    }
}
