import MemprofInput
/// Reads the text LowMemory report of iOS 7 to 9 into a ``JetsamReport``: the moment a JetsamEvent
/// `.ips` describes from iOS 10 on, as lines of `Key: value` and a table of processes.
///
/// ```
/// Incident Identifier: 7BC7B59F-…
/// Hardware Model:      iPad2,5
/// OS Version:          iPhone OS 7.0.4 (11B554a)
/// …
/// Free pages:                              922
/// …
/// Largest process:   mediaserverd
///
/// Processes
///      Name                    <UUID>          rpages       recent_max   fds      [reason]          (state)
///
///       MobileMail <b3574f4b…>         1113             1113  200   [vm-pageshortage]  (resume) (continuous)
///      SpringBoard <3c0e3051…>        10207            10207  200
/// ```
///
/// The numeric columns are the ones the table's heading names (`rpages recent_max fds` on iOS 7;
/// iOS 8 adds `CPU Time`, `purgeable` and `lifetime_max`, and writes `-` for a value it does not
/// know). A process name may contain spaces: it is everything before the `<UUID>`. Reports before
/// iOS 8.3 write no `Page Size:`; their pages are 4096 bytes (the 32-bit ARM kernels of the era).
/// Every number is range-checked and every refusal names the line and column.
public struct LowMemoryReportReader {
    public let file: String

    public init(file: String) {
        self.file = file
    }

    /// The first line of every text LowMemory report.
    static let firstKey = "Incident Identifier:"

    /// True when `bytes` (after leading white space) start as a text LowMemory report does.
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } ?? bytes.count
        return bytes[start...].starts(with: Array(firstKey.utf8))
    }

    /// One line of the file, without its end, and where it is.
    struct Line {
        var text: Substring
        var number: Int
    }

    /// The columns of the process table memprof reads; the others are checked and skipped.
    enum Column: String {
        case cpuTime = "CPU Time"
        case rpages
        case purgeable
        case recentMax = "recent_max"
        case lifetimeMax = "lifetime_max"
        case fds
    }

    public func read(_ bytes: [UInt8]) throws(IPSError) -> JetsamReport {
        guard bytes.count <= JetsamReportReader.maxBytes else {
            throw IPSError(file: file, line: 1, column: 1, keyPath: "",
                           message: "the file is larger than \(JetsamReportReader.maxBytes >> 20) MB; a LowMemory report is far smaller")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let bad = Self.firstInvalidUTF8(bytes)
            throw IPSError(file: file, line: bad.line, column: bad.column, keyPath: "", message: "the text is not UTF-8")
        }
        var lines: [Line] = []
        // A CRLF line end is one `Character` ("\r\n"), which a split on "\n" does not find.
        for (i, l) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated() {
            lines.append(Line(text: l.hasSuffix("\r") ? l.dropLast() : l, number: i + 1))
        }
        var fields: [String: (value: String, line: Line)] = [:]
        var i = 0
        // `Key: value` lines up to the process table.
        while i < lines.count, lines[i].text.trimmingSpaces != "Processes" {
            let line = lines[i]
            i += 1
            let trimmed = line.text.trimmingSpaces
            if trimmed.isEmpty { continue }
            guard let colon = line.text.firstIndex(of: ":") else {
                throw error(line, column: 1, "", "expected 'Key: value' or the 'Processes' table, found '\(Self.clip(trimmed))'")
            }
            let key = String(line.text[..<colon]).trimmingSpaces
            let value = String(line.text[line.text.index(after: colon)...]).trimmingSpaces
            guard fields[key] == nil else {
                throw error(line, column: 1, key, "'\(Self.clip(key))' appears twice; which value the report meant cannot be told")
            }
            fields[key] = (value, line)
        }
        guard i < lines.count else {
            let last = lines.last { !$0.text.trimmingSpaces.isEmpty } ?? lines[0]
            throw error(last, column: 1, "Processes", "the report has no 'Processes' table")
        }
        let processesLine = lines[i]
        i += 1

        func string(_ key: String) -> String? { fields[key].map(\.value) }
        func count(_ key: String, in range: ClosedRange<Int64>, required: Bool) throws(IPSError) -> Int64? {
            guard let (value, line) = fields[key] else {
                if required { throw error(processesLine, column: 1, key, "missing '\(key):' before the process table") }
                return nil
            }
            guard let n = Int64(value), range.contains(n) else {
                throw error(line, column: Self.valueColumn(line), key,
                            "'\(Self.clip(value))' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return n
        }
        let pageSize = try count("Page Size", in: 512...(1 << 20), required: false) ?? 4096
        if pageSize & (pageSize - 1) != 0, let line = fields["Page Size"]?.line {
            throw error(line, column: Self.valueColumn(line), "Page Size", "\(pageSize) is not a power of two; pages are 4096 or 16384 bytes")
        }
        let maxPages = JetsamReportReader.maxBytesPerCount / pageSize
        func pages(_ key: String, required: Bool = false) throws(IPSError) -> Int64 {
            try count(key, in: 0...maxPages, required: required) ?? 0
        }
        let memoryPages = JetsamReport.MemoryPages(
            active: try pages("Active pages", required: true), inactive: try pages("Inactive pages"),
            speculative: try pages("Speculative pages"), throttled: try pages("Throttled pages"),
            free: try pages("Free pages", required: true), wired: try pages("Wired pages", required: true),
            purgeable: try pages("Purgeable pages"), anonymous: try pages("Anonymous pages"),
            fileBacked: try pages("File-backed pages"))
        var status = JetsamReport.MemoryStatus(
            pageSize: pageSize, compressorSize: try count("Compressor Size", in: 0...maxPages, required: false),
            uncompressed: try count("Uncompressed Pages in Compressor", in: 0...maxPages, required: false),
            memoryPages: memoryPages)
        // Counters since boot, not pages held (as the JSON reports' `compressions`).
        status.compressions = try count("Compressions", in: 0...(Int64(1) << 48), required: false)
        status.decompressions = try count("Decompressions", in: 0...(Int64(1) << 48), required: false)

        // The table's heading, then one row per process.
        while i < lines.count, lines[i].text.trimmingSpaces.isEmpty { i += 1 }
        guard i < lines.count else { throw error(processesLine, column: 1, "Processes", "the 'Processes' table has no heading") }
        let heading = lines[i]
        i += 1
        let columns = try readHeading(heading)
        var processes: [JetsamReport.Process] = []
        while i < lines.count {
            let line = lines[i]
            i += 1
            let trimmed = line.text.trimmingSpaces
            if trimmed.isEmpty { continue }
            if trimmed == "**End**" { break }
            guard processes.count < JetsamReportReader.maxProcesses else {
                throw error(line, column: 1, "Processes", "more than \(JetsamReportReader.maxProcesses) processes")
            }
            processes.append(try readRow(line, columns: columns, index: processes.count, maxPages: maxPages))
        }
        while i < lines.count {
            guard lines[i].text.trimmingSpaces.isEmpty else {
                throw error(lines[i], column: 1, "", "unexpected text after the report's '**End**'")
            }
            i += 1
        }
        guard !processes.isEmpty else { throw error(heading, column: 1, "Processes", "the report lists no processes") }

        var report = JetsamReport(
            header: JetsamReport.Header(bugType: "298", timestamp: string("Date") ?? "", osVersion: string("OS Version") ?? "",
                                        incidentID: string("Incident Identifier") ?? ""),
            product: string("Hardware Model"), build: string("OS Version"), incident: string("Incident Identifier"),
            date: string("Date"), memoryStatus: status, largestProcess: string("Largest process"), processes: processes)
        report.format = .lowMemoryText
        report.kernel = string("Kernel Version")
        return report
    }

    /// The numeric columns between `<UUID>` and `[reason]`, in order.
    private func readHeading(_ line: Line) throws(IPSError) -> [Column?] {
        let all: [Substring] = line.text.split { (c: Character) -> Bool in c == " " || c == "|" || c == "\t" }
        guard let uuid = all.firstIndex(of: "<UUID>") else {
            throw error(line, column: 1, "Processes", "the table's heading has no '<UUID>' column")
        }
        var words: [String] = all[(uuid + 1)...].map { String($0) }
        var columns: [Column?] = []
        while let word = words.first {
            words.removeFirst()
            if word.hasPrefix("[") || word.hasPrefix("(") { continue }
            if word == "CPU", words.first == "Time" {
                words.removeFirst()
                columns.append(.cpuTime)
            } else {
                // A column memprof does not know is read as a count and skipped.
                columns.append(Column(rawValue: word))
            }
        }
        guard columns.contains(.rpages) else {
            throw error(line, column: 1, "Processes", "the table's heading names no 'rpages' column")
        }
        return columns
    }

    private func readRow(_ line: Line, columns: [Column?], index: Int, maxPages: Int64) throws(IPSError) -> JetsamReport.Process {
        let path = "Processes[\(index)]"
        let text = line.text
        // The name is everything before " <" + 32 hex digits + ">".
        guard let open = Self.uuidStart(text) else {
            throw error(line, column: 1, path, "expected 'Name <UUID> …', found '\(Self.clip(text.trimmingSpaces))'")
        }
        let name = String(text[..<open]).trimmingSpaces
        guard (1...256).contains(name.utf8.count) else {
            throw error(line, column: 1, "\(path).name", "a process name has 1 to 256 bytes")
        }
        let afterUUID = text.index(open, offsetBy: 34)
        var rest = text[afterUUID...]
        var values: [Column: Int64] = [:]
        for column in columns {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let token = rest.prefix { $0 != " " && $0 != "\t" }
            let at = Self.column(of: token.startIndex, in: line)
            let key = "\(path).\(column?.rawValue ?? "column")"
            guard !token.isEmpty, !token.hasPrefix("["), !token.hasPrefix("(") else {
                throw error(line, column: at, key, "expected a value for every column the heading names")
            }
            rest = rest[token.endIndex...]
            if token == "-" { continue }
            if column == .cpuTime {
                guard Self.isDecimal(token) else { throw error(line, column: at, key, "'\(Self.clip(token))' is not a time in seconds") }
                continue
            }
            let range: ClosedRange<Int64> = column == .fds || column == nil ? 0...(1 << 24) : 0...maxPages
            guard let n = Int64(token), range.contains(n) else {
                throw error(line, column: at, key, "'\(Self.clip(token))' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            if let column { values[column] = n }
        }
        var reason: String?
        var states: [String] = []
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { break }
            let at = Self.column(of: rest.startIndex, in: line)
            let close: Character = first == "[" ? "]" : ")"
            guard first == "[" || first == "(", let end = rest.firstIndex(of: close) else {
                throw error(line, column: at, path, "expected '[reason]' or '(state)', found '\(Self.clip(rest))'")
            }
            let word = String(rest[rest.index(after: rest.startIndex)..<end])
            guard (1...64).contains(word.utf8.count), !word.contains(where: { $0 == "[" || $0 == "(" || $0 == " " }) else {
                throw error(line, column: at, path, "'\(Self.clip(rest[...end]))' is not one word in brackets")
            }
            if first == "[" {
                guard reason == nil, states.isEmpty else {
                    throw error(line, column: at, "\(path).reason", "one '[reason]', before the states")
                }
                reason = word
            } else {
                guard states.count < 32 else { throw error(line, column: at, "\(path).states", "more than 32 states") }
                states.append(word)
            }
            rest = rest[rest.index(after: end)...]
        }
        guard let rpages = values[.rpages] else {
            throw error(line, column: 1, "\(path).rpages", "no resident pages ('-' in the rpages column)")
        }
        var process = JetsamReport.Process(pid: nil, name: name, states: states, priority: nil, rpages: rpages,
                                           lifetimeMax: values[.lifetimeMax], reason: reason)
        process.recentMax = values[.recentMax]
        process.line = line.number
        process.column = Self.column(of: text.firstIndex { $0 != " " } ?? text.startIndex, in: line)
        return process
    }

    /// Where ` <` + 32 hex digits + `>` starts in a row (the index of `<`).
    static func uuidStart(_ text: Substring) -> Substring.Index? {
        let chars = Array(text.utf8)
        var i = 0
        while i + 34 <= chars.count {
            if chars[i] == UInt8(ascii: "<"), chars[i + 33] == UInt8(ascii: ">"),
               chars[(i + 1)...(i + 32)].allSatisfy({ isHex($0) }) {
                return text.utf8.index(text.startIndex, offsetBy: i)
            }
            i += 1
        }
        return nil
    }

    static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x66).contains(b) || (0x41...0x46).contains(b)
    }

    static func isDecimal(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 20 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// 1-based column in bytes of `index` on `line`.
    static func column(of index: Substring.Index, in line: Line) -> Int {
        line.text.utf8.distance(from: line.text.startIndex, to: index) + 1
    }

    static func valueColumn(_ line: Line) -> Int {
        guard let colon = line.text.firstIndex(of: ":") else { return 1 }
        let value = line.text[line.text.index(after: colon)...].firstIndex { $0 != " " && $0 != "\t" } ?? colon
        return column(of: value, in: line)
    }

    /// At most 40 characters of `s`, control characters shown as '?', for an error message.
    static func clip<S: StringProtocol>(_ s: S) -> String {
        let cleaned = String(s.prefix(40).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        return s.count > 40 ? cleaned + "…" : cleaned
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0, i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0
            if length == 0 || i + length > bytes.count
                || String(validating: bytes[i..<(i + length)], as: UTF8.self) == nil {
                return (line, i - lineStart + 1)
            }
            if b == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += length
        }
        return (line, i - lineStart + 1)
    }

    private func error(_ line: Line, column: Int, _ path: String, _ message: String) -> IPSError {
        IPSError(file: file, line: line.number, column: column, keyPath: path, message: message)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let s = drop { $0 == " " || $0 == "\t" }
        return String(s.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
