import MemprofCore
import MemprofInput

/// Reads field.json (`memprof.field/1`, what `memprof field -o` writes) back into a
/// ``FieldSummary``: what a calibration reads when a team keeps the summary rather than the
/// payloads.
///
/// Every number is range-checked (counts, days and bytes whole and within the payload reader's
/// bounds; rates finite, not negative, and inside their own interval); a malformed file is
/// refused with its file, line, column and key (``IPSError``, exit status 2). Bounded as the
/// payload reader is: a file of at most ``MetricKitPayloadReader/maxBytes``, nesting and strings
/// as `JSONNode` bounds them, at most ``maxCells`` cells.
public struct FieldSummaryReader {
    public static let maxCells = 100_000
    /// Most device-days one cell may hold: the payload reader's most payloads.
    static let maxDays = MetricKitPayloadReader.maxPayloads
    /// A count's largest total: the payload reader's most a day over the most days.
    static let maxTotal = Double(MetricKitPayloadReader.maxCount) * Double(MetricKitPayloadReader.maxPayloads)

    public let file: String

    public init(file: String) {
        self.file = file
    }

    /// Whether `bytes` are a field.json rather than payloads: a JSON object whose `schema` is
    /// `memprof.field/1` (payloads have no `schema`). Invalid JSON is not (the payload reader
    /// then says where it is invalid).
    public static func isFieldSummary(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= MetricKitPayloadReader.maxBytes,
              let root = try? FieldSummaryReader(file: "").root(bytes) else { return false }
        if case .string(let schema) = root["schema"]?.kind { return schema == FieldSummary.schema }
        return false
    }

    public func read(_ text: String) throws(IPSError) -> FieldSummary {
        try read(Array(text.utf8))
    }

    public func read(_ bytes: [UInt8]) throws(IPSError) -> FieldSummary {
        guard bytes.count <= MetricKitPayloadReader.maxBytes else {
            throw IPSError(file: file, line: 1, column: 1, keyPath: "",
                           message: "the file is larger than \(MetricKitPayloadReader.maxBytes >> 20) MB; a field.json is far smaller")
        }
        let root = try root(bytes)
        guard case .object = root.kind else { throw error(root, "", "expected field.json (an object), found \(root.typeName)") }
        let schema = try string(try required(root, "schema", ""), "schema")
        guard schema == FieldSummary.schema else {
            throw error(root["schema"]!, "schema", "'\(schema)' is not \(FieldSummary.schema), the field.json this memprof reads")
        }
        let files = try int(try required(root, "files", ""), "files", in: 0...MetricKitPayloadReader.maxPayloads)
        let payloads = try int(try required(root, "payloads", ""), "payloads", in: 0...MetricKitPayloadReader.maxPayloads)
        let cellsNode = try required(root, "cells", "")
        guard case .array(let items) = cellsNode.kind else { throw error(cellsNode, "cells", "expected an array, found \(cellsNode.typeName)") }
        guard items.count <= Self.maxCells else { throw error(cellsNode, "cells", "\(items.count) cells; at most \(Self.maxCells)") }
        var cells: [FieldSummary.Cell] = []
        var days = 0
        for (i, item) in items.enumerated() {
            let cell = try self.cell(item, "cells[\(i)]")
            days += cell.days
            guard days <= payloads else {
                throw error(item, "cells[\(i)].days", "the cells hold \(days) days or more, more than the \(payloads) payloads the file counts")
            }
            cells.append(cell)
        }
        return FieldSummary(files: files, payloads: payloads, cells: cells)
    }

    func root(_ bytes: [UInt8]) throws(IPSError) -> JSONNode {
        try JSONNodeReader.whole(bytes, file: file, expected: "field.json")
    }

    private func cell(_ node: JSONNode, _ path: String) throws(IPSError) -> FieldSummary.Cell {
        guard case .object = node.kind else { throw error(node, path, "expected a cell (an object), found \(node.typeName)") }
        let app = try string(try required(node, "app", path), "\(path).app")
        let deviceType = try string(try required(node, "deviceType", path), "\(path).deviceType")
        let osVersion = try string(try required(node, "osVersion", path), "\(path).osVersion")
        let days = try int(try required(node, "days", path), "\(path).days", in: 1...Self.maxDays)
        let exitDays = try int(try required(node, "exitDays", path), "\(path).exitDays", in: 0...days)
        var exits: [FieldSummary.ExitRate] = []
        for (i, item) in try array(node, "exits", path).enumerated() {
            let p = "\(path).exits[\(i)]"
            let side = try string(try required(item, "side", p), "\(p).side")
            guard side == "background" || side == "foreground" else {
                throw error(item["side"]!, "\(p).side", "'\(side)' is neither background nor foreground")
            }
            guard exitDays > 0 else { throw error(item, p, "an exit rate in a cell without exitDays") }
            exits.append(.init(side: side, counter: try string(try required(item, "counter", p), "\(p).counter"),
                               rate: try rate(item, p, days: exitDays, count: true)))
        }
        func dailies(_ key: String, count: Bool) throws(IPSError) -> [FieldSummary.Daily] {
            var out: [FieldSummary.Daily] = []
            for (i, item) in try array(node, key, path).enumerated() {
                let p = "\(path).\(key)[\(i)]"
                let n = try int(try required(item, "days", p), "\(p).days", in: 1...days)
                out.append(.init(key: try string(try required(item, "key", p), "\(p).key"), days: n, rate: try rate(item, p, days: n, count: count),
                                 standardDeviation: try number(try required(item, "standardDeviation", p), "\(p).standardDeviation",
                                                               max: count ? Self.maxTotal : MetricKitPayloadReader.maxSeconds)))
            }
            return out
        }
        let time = try dailies("time", count: false)
        let launches = try dailies("launches", count: true)
        var peak: FieldSummary.Peak?
        if let m = node["peakMemory"] {
            let p = "\(path).peakMemory"
            func bytes(_ key: String) throws(IPSError) -> Double {
                Double(try int(try required(m, key, p), "\(p).\(key)", in: 0...Int(MetricKitPayloadReader.maxBytesValue)))
            }
            peak = .init(days: try int(try required(m, "days", p), "\(p).days", in: 1...days), meanBytes: try bytes("meanBytes"),
                         p50Bytes: try bytes("p50Bytes"), p95Bytes: try bytes("p95Bytes"), maxBytes: try bytes("maxBytes"),
                         standardDeviationBytes: try bytes("standardDeviationBytes"))
        }
        var suspended: SuspendedMemory?
        var suspendedDays = 0
        if let m = node["suspendedMemory"] {
            let p = "\(path).suspendedMemory"
            suspendedDays = try int(try required(m, "days", p), "\(p).days", in: 1...days)
            let samples = try int(try required(m, "sampleCount", p), "\(p).sampleCount",
                                  in: 0...(MetricKitPayloadReader.maxSamples * min(days, MetricKitPayloadReader.maxPayloads)))
            let range = 0...Int(MetricKitPayloadReader.maxBytesValue)
            suspended = SuspendedMemory(sampleCount: samples, averageBytes: Int64(try int(try required(m, "averageBytes", p), "\(p).averageBytes", in: range)),
                                        standardDeviationBytes: Int64(try int(try required(m, "standardDeviationBytes", p),
                                                                              "\(p).standardDeviationBytes", in: range)))
        }
        return FieldSummary.Cell(app: app, deviceType: deviceType, osVersion: osVersion, days: days, exits: exits, exitDays: exitDays,
                                 time: time, launches: launches, peak: peak, suspended: suspended, suspendedDays: suspendedDays)
    }

    /// A rate's members: its total over `days` days, the mean a day, its interval around the
    /// mean, and how the interval was taken.
    private func rate(_ node: JSONNode, _ path: String, days: Int, count: Bool) throws(IPSError) -> FieldSummary.Rate {
        let limit = count ? Self.maxTotal : MetricKitPayloadReader.maxSeconds * Double(days)
        let total = try number(try required(node, "total", path), "\(path).total", max: limit)
        let perDay = try number(try required(node, "perDay", path), "\(path).perDay", max: limit)
        let low = try number(try required(node, "low", path), "\(path).low", max: limit)
        let high = try number(try required(node, "high", path), "\(path).high", max: limit)
        let methodNode = try required(node, "interval", path)
        let name = try string(methodNode, "\(path).interval")
        guard let method = FieldSummary.Method(rawValue: name) else {
            throw error(methodNode, "\(path).interval", "'\(name)' is not an interval memprof writes (garwood, bootstrap, normal, none)")
        }
        // The mean is the total over the days, as memprof field writes it (to a part in a million).
        guard abs(total / Double(days) - perDay) <= 1e-6 * max(1, perDay) else {
            throw error(node["perDay"]!, "\(path).perDay", "\(perDay) a day is not the total \(total) over \(days) days")
        }
        guard low <= perDay * (1 + 1e-9) + 1e-12, perDay <= high * (1 + 1e-9) + 1e-12 else {
            throw error(node["low"]!, "\(path).low", "the interval \(low) – \(high) does not hold its mean \(perDay)")
        }
        return FieldSummary.Rate(total: total, perDay: perDay, low: low, high: high, method: method)
    }

    // MARK: values

    private func error(_ node: JSONNode, _ path: String, _ message: String) -> IPSError {
        IPSError(file: file, line: node.line, column: node.column, keyPath: path, message: message)
    }

    private func required(_ node: JSONNode, _ key: String, _ path: String) throws(IPSError) -> JSONNode {
        guard let value = node[key] else {
            throw error(node, path.isEmpty ? key : "\(path).\(key)", "missing key '\(key)'")
        }
        return value
    }

    private func array(_ node: JSONNode, _ key: String, _ path: String) throws(IPSError) -> [JSONNode] {
        let value = try required(node, key, path)
        guard case .array(let items) = value.kind else { throw error(value, "\(path).\(key)", "expected an array, found \(value.typeName)") }
        guard items.count <= 10_000 else { throw error(value, "\(path).\(key)", "\(items.count) entries; at most 10000") }
        return items
    }

    private func string(_ node: JSONNode, _ path: String) throws(IPSError) -> String {
        guard case .string(let s) = node.kind else { throw error(node, path, "expected a string, found \(node.typeName)") }
        guard s.utf8.count <= 200 else { throw error(node, path, "a name of \(s.utf8.count) bytes; at most 200") }
        return s
    }

    private func number(_ node: JSONNode, _ path: String, max: Double) throws(IPSError) -> Double {
        guard case .number(let text) = node.kind, let v = Double(text), v.isFinite else {
            throw error(node, path, "expected a number, found \(node.typeName)")
        }
        guard v >= 0, v <= max else { throw error(node, path, "\(text) is out of range 0...\(max)") }
        return v
    }

    private func int(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws(IPSError) -> Int {
        try node.wholeNumber(in: range, file: file, path: path)
    }
}
