import Foundation

/// `runs.csv`: one row per run of a sweep, the per-run values people query with ordinary tools
/// (sqlite3 `.import`, DuckDB, pandas, R) and that `compare` pairs by seed.
///
///     run,cell,seed,device,policy,summary.coldLaunches,...,apps.mail.evictions,...
///     0,0,1,iphone-6-plus,seed-2015,14,...,1,...
///
/// `run` numbers the (cell, seed) pairs of the sweep (cell × seeds + seed index); `cell` indexes
/// fleet.json's `cells`; then a column per matrix key, named by its key path, with the cell's
/// value as the sweep file writes it (quoted as RFC 4180 quotes a field when it holds a comma, a
/// quote or a line break); then the metrics: every value is a whole number (counts, bytes,
/// microseconds), and a metric a cell does not have is empty.
public enum RunsCSV {
    public static let fixedColumns = ["run", "cell", "seed"]

    /// The columns before the metrics: the fixed ones, then one per matrix key.
    public static func columns(_ matrixKeys: [String]) -> [String] { fixedColumns + matrixKeys }

    /// A cell's matrix values as the fields that follow `seed` in its rows, each with its comma.
    public static func fields(_ values: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for value in values {
            out.append(UInt8(ascii: ","))
            out += quoted(value)
        }
        return out
    }

    /// A text field as RFC 4180 writes it: in quotes (a quote doubled) when it holds a comma, a
    /// quote, a line break or spaces at either end.
    static func quoted(_ value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        let plain = !bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            && bytes.first != UInt8(ascii: " ") && bytes.last != UInt8(ascii: " ")
        if plain { return bytes }
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in bytes {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

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

    public static func header(_ columns: MetricColumns, matrixKeys: [String]) -> [UInt8] {
        Array(fixedColumns.joined(separator: ",").utf8) + fields(matrixKeys) + Array(columns.names.map { "," + $0 }.joined().utf8)
            + [10]
    }

    /// `labels`: the cell's ``fields(_:)``.
    static func row(run: Int, cell: Int, seed: UInt64, labels: [UInt8], values: [Int64?]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + labels.count + values.count * 4)
        appendDigits(UInt64(run), &out)
        out.append(UInt8(ascii: ","))
        appendDigits(UInt64(cell), &out)
        out.append(UInt8(ascii: ","))
        appendDigits(seed, &out)
        out += labels
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

    /// A parsed row: `run`, `cell`, `seed`, the cell's matrix values, metric values (nil where empty).
    public struct Row: Sendable, Equatable {
        public var run: Int
        public var cell: Int
        public var seed: UInt64
        public var labels: [String] = []
        public var values: [Int64?]
        /// The row's text, with its newline.
        public var bytes: ArraySlice<UInt8>
    }

    public enum ReadError: Error, Equatable {
        case badHeader
        case badRow(line: Int, why: String)
    }

    /// Reads one text field at `i` (quoted or not) up to its comma, which `i` is left past.
    static func textField(_ data: [UInt8], _ i: inout Int, line: Int) throws -> String {
        var bytes: [UInt8] = []
        if i < data.count, data[i] == UInt8(ascii: "\"") {
            i += 1
            while true {
                guard i < data.count else { throw ReadError.badRow(line: line, why: "a quoted field without its closing quote") }
                if data[i] == UInt8(ascii: "\"") {
                    if i + 1 < data.count, data[i + 1] == UInt8(ascii: "\"") {
                        bytes.append(data[i])
                        i += 2
                        continue
                    }
                    i += 1
                    break
                }
                bytes.append(data[i])
                i += 1
            }
        } else {
            while i < data.count, data[i] != UInt8(ascii: ","), data[i] != 10 {
                guard data[i] != UInt8(ascii: "\"") else { throw ReadError.badRow(line: line, why: "a quote inside an unquoted field") }
                bytes.append(data[i])
                i += 1
            }
        }
        guard i < data.count, data[i] == UInt8(ascii: ",") else {
            throw ReadError.badRow(line: line, why: "a matrix value not followed by the metrics")
        }
        i += 1
        guard bytes.count <= 4096 else { throw ReadError.badRow(line: line, why: "a matrix value longer than 4096 bytes") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads rows from `data` (header first), whose rows have `labels` matrix values after the
    /// seed. Every number is range-checked: run, cell and seed from 0, each metric within
    /// ``valueRange`` and from 0 unless ``mayBeNegative(_:)``. The header returned is the fixed
    /// columns and the metrics' (`labelHeader`, the matrix keys').
    public static func read(_ data: [UInt8], labels: Int = 0, columns expected: Int? = nil)
        throws -> (header: [String], labelHeader: [String], rows: [Row]) {
        guard let firstNewline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw ReadError.badHeader }
        var headerIndex = 0
        var all: [String] = []
        let headerBytes = Array(data[..<firstNewline]) + [10]
        while all.count < 3 + labels {
            guard headerIndex < headerBytes.count - 1, let field = try? textField(headerBytes, &headerIndex, line: 1) else {
                throw ReadError.badHeader
            }
            all.append(field)
        }
        all += String(decoding: headerBytes[headerIndex..<(headerBytes.count - 1)], as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard all.count >= 3 + labels, Array(all.prefix(3)) == fixedColumns else { throw ReadError.badHeader }
        let labelHeader = Array(all[3..<(3 + labels)])
        let header = Array(all.prefix(3)) + all.dropFirst(3 + labels)
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
            var rowLabels: [String] = []
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
                    if fields.count == fixedColumns.count, rowLabels.count < labels {
                        while rowLabels.count < labels { rowLabels.append(try textField(data, &i, line: line)) }
                    }
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
            guard rowLabels.count == labels else { throw ReadError.badRow(line: line, why: "\(rowLabels.count) matrix values, not \(labels)") }
            rows.append(Row(run: Int(run), cell: Int(cell), seed: UInt64(seed), labels: rowLabels, values: Array(fields[3...]),
                            bytes: data[start..<min(i, data.count)]))
            line += 1
        }
        return (header, labelHeader, rows)
    }
}
