import Foundation

/// `runs.csv`: one row per run of a sweep, the per-run values people query with ordinary tools
/// (sqlite3 `.import`, DuckDB, pandas, R) and that `compare` pairs by seed.
///
///     run,cell,seed,summary.coldLaunches,...,apps.mail.evictions,...
///     0,0,1,14,...,1,...
///
/// `run` numbers the (cell, seed) pairs of the sweep (cell × seeds + seed index); `cell` indexes
/// fleet.json's `cells`; every value is a whole number (counts, bytes, microseconds); a metric
/// a cell does not have is empty.
public enum RunsCSV {
    public static let fixedColumns = ["run", "cell", "seed"]

    /// The values a metric may take: ±2^51 (2 PiB, or 71 years in microseconds). No run makes
    /// a value beyond it (sizes are at most 4 TiB, a measured peak 1 PiB, a run ten years), and
    /// within it a sweep's largest tally (20,000,000 runs) keeps exact sums of squares in 128 bits.
    public static let valueRange: ClosedRange<Int64> = -(1 << 51)...(1 << 51)

    /// Whether a metric may be below zero: only the room left before a limit
    /// (`headroom.*.spareUs`, `headroom.footprint.spareBytes`), which a declared value may pass.
    public static func mayBeNegative(_ column: String) -> Bool {
        column.split(separator: ".").last?.hasPrefix("spare") ?? false
    }

    /// Why `value` cannot be in `column`, or nil when it can.
    static func problem(_ value: Int64, in column: String) -> String? {
        let lowest = mayBeNegative(column) ? valueRange.lowerBound : 0
        guard value < lowest || value > valueRange.upperBound else { return nil }
        return "\(column) \(value) is out of range (\(lowest) to \(valueRange.upperBound))"
    }

    public static func header(_ columns: MetricColumns) -> [UInt8] {
        Array(((fixedColumns + columns.names).joined(separator: ",") + "\n").utf8)
    }

    static func row(run: Int, cell: Int, seed: UInt64, values: [Int64?]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + values.count * 4)
        appendDigits(UInt64(run), &out)
        out.append(UInt8(ascii: ","))
        appendDigits(UInt64(cell), &out)
        out.append(UInt8(ascii: ","))
        appendDigits(seed, &out)
        for value in values {
            out.append(UInt8(ascii: ","))
            if let value {
                if value < 0 { out.append(UInt8(ascii: "-")) }
                appendDigits(value.magnitude, &out)
            }
        }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    static func appendDigits(_ value: UInt64, _ out: inout [UInt8]) {
        if value == 0 { return out.append(UInt8(ascii: "0")) }
        var v = value
        let start = out.count
        while v > 0 {
            out.append(UInt8(truncatingIfNeeded: v % 10) + UInt8(ascii: "0"))
            v /= 10
        }
        out[start...].reverse()
    }

    /// A parsed row: `run`, `cell`, `seed`, values (nil where empty).
    public struct Row: Sendable, Equatable {
        public var run: Int
        public var cell: Int
        public var seed: UInt64
        public var values: [Int64?]
        /// The row's text, with its newline.
        public var bytes: ArraySlice<UInt8>
    }

    public enum ReadError: Error, Equatable {
        case badHeader
        case badRow(line: Int, why: String)
    }

    /// Reads rows from `data` (header first). Every number is range-checked: run, cell and seed
    /// from 0, each metric within ``valueRange`` and from 0 unless ``mayBeNegative(_:)``.
    public static func read(_ data: [UInt8], columns expected: Int? = nil) throws -> (header: [String], rows: [Row]) {
        guard let firstNewline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw ReadError.badHeader }
        let header = String(decoding: data[..<firstNewline], as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard header.count >= 3, Array(header.prefix(3)) == fixedColumns else { throw ReadError.badHeader }
        let width = header.count
        if let expected, expected != width - 3 { throw ReadError.badHeader }
        let lowest = header.map { mayBeNegative($0) ? valueRange.lowerBound : 0 }
        var rows: [Row] = []
        var i = firstNewline + 1
        var line = 2
        while i < data.count {
            let start = i
            var fields: [Int64?] = []
            fields.reserveCapacity(width)
            var current: Int64 = 0, negative = false, empty = true
            while true {
                let b = i < data.count ? data[i] : UInt8(ascii: "\n")
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "\n") {
                    guard !(negative && empty) else { throw ReadError.badRow(line: line, why: "a '-' without digits") }
                    let value = empty ? nil : (negative ? -current : current)
                    if let value, fields.count >= fixedColumns.count, fields.count < width,
                       value < lowest[fields.count] || value > valueRange.upperBound {
                        throw ReadError.badRow(line: line, why: problem(value, in: header[fields.count])!)
                    }
                    fields.append(value)
                    current = 0; negative = false; empty = true
                    i += 1
                    if b == UInt8(ascii: "\n") { break }
                } else if b == UInt8(ascii: "-"), empty, !negative {
                    negative = true
                    i += 1
                } else if b >= 48, b <= 57 {
                    let (m, o1) = current.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(Int64(b - 48))
                    guard !o1, !o2 else {
                        let name = fields.count < width ? header[fields.count] : "field \(fields.count + 1)"
                        throw ReadError.badRow(line: line, why: "\(name) is out of range (a number beyond 64 bits)")
                    }
                    current = s
                    empty = false
                    i += 1
                } else {
                    throw ReadError.badRow(line: line, why: "unexpected character")
                }
            }
            guard fields.count == width else { throw ReadError.badRow(line: line, why: "\(fields.count) fields, not \(width)") }
            guard let run = fields[0], run >= 0, let cell = fields[1], cell >= 0, let seed = fields[2], seed >= 0 else {
                throw ReadError.badRow(line: line, why: "run, cell and seed must be whole numbers from 0")
            }
            rows.append(Row(run: Int(run), cell: Int(cell), seed: UInt64(seed), values: Array(fields[3...]),
                            bytes: data[start..<min(i, data.count)]))
            line += 1
        }
        return (header, rows)
    }
}
