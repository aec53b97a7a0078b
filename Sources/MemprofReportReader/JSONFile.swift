import Foundation
import MemprofInput

/// memprof's own JSON files other than report.json read back whole into a `Decodable` (a
/// sweep's fleet.json): checked by `JSONScanner` (syntax, UTF-8, duplicate keys, at most one
/// value), decoded by the report reader's plain decoder, and by Foundation's `JSONDecoder` where
/// that gives up, so its messages are `JSONDecoder`'s. The one path such a file is read by.
public enum JSONFile {
    /// `T` from `data`; throws `JSONScanError` for text that is not one JSON value, and
    /// `JSONDecoder`'s errors for a value of another shape.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let plain: T? = try data.withUnsafeBytes { bytes throws(JSONScanError) -> T? in
            var scanner = JSONScanner(bytes)
            try scanner.skipValue()
            try scanner.expectEnd()
            return PlainJSONDecoder.decode(T.self, from: bytes.bindMemory(to: UInt8.self))
        }
        if let plain { return plain }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
