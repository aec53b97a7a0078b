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

    /// Reads rows from `data` (header first). Every number is range-checked.
    public static func read(_ data: [UInt8], columns expected: Int? = nil) throws -> (header: [String], rows: [Row]) {
        guard let firstNewline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw ReadError.badHeader }
        let header = String(decoding: data[..<firstNewline], as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard header.count >= 3, Array(header.prefix(3)) == fixedColumns else { throw ReadError.badHeader }
        let width = header.count
        if let expected, expected != width - 3 { throw ReadError.badHeader }
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
                    fields.append(empty ? nil : (negative ? -current : current))
                    current = 0; negative = false; empty = true
                    i += 1
                    if b == UInt8(ascii: "\n") { break }
                } else if b == UInt8(ascii: "-"), empty, !negative {
                    negative = true
                    i += 1
                } else if b >= 48, b <= 57 {
                    let (m, o1) = current.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(Int64(b - 48))
                    guard !o1, !o2 else { throw ReadError.badRow(line: line, why: "a number out of range") }
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
