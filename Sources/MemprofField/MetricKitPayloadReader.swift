import MemprofInput
import MemprofWorkload

/// Reads MetricKit metric payloads as `jsonRepresentation()` writes them (one payload, or an array
/// of payloads as `didReceive(_:)` hands them over) into ``MetricKitPayload``s, with MetricKit's
/// unit strings (`"200,000 kB"`, `"700 sec"`, `"1,010 ms"`) and the keys real payloads leave out.
///
/// Every number kept is range-checked; a malformed payload is refused with its file, line,
/// column and key (``IPSError``, exit status 2). Limits: a file of at most ``maxBytes``, at most
/// ``maxPayloads`` payloads in it; nesting and strings as `JSONNode` bounds them. Sections
/// memprof does not read (CPU, GPU, display, network, disk, signposts...) are checked only as JSON.
public struct MetricKitPayloadReader {
    public static let maxBytes = 64 << 20
    public static let maxPayloads = 100_000
    /// Most exits of one reason in one payload (a day): far above any real count.
    static let maxCount = 1_000_000
    /// Most suspensions (samples) one payload's average may have.
    static let maxSamples = 10_000_000
    /// Largest size memprof accepts: 2^40 bytes.
    static let maxBytesValue = 1_099_511_627_776.0
    /// Longest time one payload may give a state: a week (a payload covers about a day).
    static let maxSeconds = 7 * 86_400.0

    public let file: String

    public init(file: String) {
        self.file = file
    }

    public func read(_ text: String) throws(IPSError) -> [MetricKitPayload] {
        try read(Array(text.utf8))
    }

    public func read(_ bytes: [UInt8]) throws(IPSError) -> [MetricKitPayload] {
        guard bytes.count <= Self.maxBytes else {
            throw IPSError(file: file, line: 1, column: 1, keyPath: "",
                           message: "the file is larger than \(Self.maxBytes >> 20) MB; MetricKit payloads are far smaller")
        }
        let root = try JSONNodeReader.whole(bytes, file: file, expected: "a MetricKit payload or an array of them")
        switch root.kind {
        case .object:
            return [try payload(root, path: "")]
        case .array(let items):
            guard items.count <= Self.maxPayloads else {
                throw error(root, "", "\(items.count) payloads in one file; at most \(Self.maxPayloads)")
            }
            var out: [MetricKitPayload] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { out.append(try payload(item, path: "[\(i)]")) }
            return out
        default:
            throw error(root, "", "expected a MetricKit payload (an object) or an array of them, found \(root.typeName)")
        }
    }

    func error(_ node: JSONNode, _ path: String, _ message: String) -> IPSError {
        IPSError(file: file, line: node.line, column: node.column, keyPath: path, message: message)
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func payload(_ node: JSONNode, path: String) throws(IPSError) -> MetricKitPayload {
        guard case .object = node.kind else { throw error(node, path, "expected a MetricKit payload (an object), found \(node.typeName)") }
        guard let meta = node["metaData"] else {
            throw error(node, path, "missing 'metaData': a payload's device type and OS version name its cell of the field")
        }
        let metaPath = join(path, "metaData")
        try object(meta, metaPath)
        func metaString(_ key: String, required: Bool) throws(IPSError) -> String? {
            guard let n = meta[key] else {
                if required { throw error(meta, metaPath, "missing '\(key)': a payload's device type and OS version name its cell of the field") }
                return nil
            }
            let s = try string(n, join(metaPath, key))
            guard !s.isEmpty, s.utf8.count <= 256 else { throw error(n, join(metaPath, key), "expected a name of 1 to 256 bytes") }
            return s
        }
        var p = MetricKitPayload(
            file: file, line: node.line, column: node.column,
            deviceType: try metaString("deviceType", required: true)!,
            osVersion: try metaString("osVersion", required: true)!,
            bundleIdentifier: try metaString("bundleIdentifier", required: false),
            appBuildVersion: try metaString("appBuildVersion", required: false))
        if let n = node["timeStampBegin"] { p.timeStampBegin = try string(n, join(path, "timeStampBegin")) }
        if let n = node["timeStampEnd"] { p.timeStampEnd = try string(n, join(path, "timeStampEnd")) }
        if let n = node["applicationExitMetrics"] { p.exits = try exits(n, join(path, "applicationExitMetrics")) }
        if let n = node["memoryMetrics"] {
            let mp = join(path, "memoryMetrics")
            try object(n, mp)
            if let peak = n["peakMemoryUsage"] { p.peakMemoryBytes = try size(peak, join(mp, "peakMemoryUsage")) }
            if let avg = n["averageSuspendedMemory"] { p.suspendedMemory = try average(avg, join(mp, "averageSuspendedMemory")) }
        }
        if let n = node["applicationTimeMetrics"] {
            let tp = join(path, "applicationTimeMetrics")
            try object(n, tp)
            func seconds(_ key: String) throws(IPSError) -> Double? {
                guard let v = n[key] else { return nil }
                return try duration(v, join(tp, key), max: Self.maxSeconds)
            }
            p.time = MetricKitPayload.Times(
                foregroundSeconds: try seconds("cumulativeForegroundTime"), backgroundSeconds: try seconds("cumulativeBackgroundTime"),
                backgroundAudioSeconds: try seconds("cumulativeBackgroundAudioTime"),
                backgroundLocationSeconds: try seconds("cumulativeBackgroundLocationTime"))
        }
        if let n = node["applicationLaunchMetrics"] {
            let lp = join(path, "applicationLaunchMetrics")
            try object(n, lp)
            func count(_ key: String) throws(IPSError) -> Int? {
                guard let h = n[key] else { return nil }
                return try histogramCount(h, join(lp, key))
            }
            p.launches = MetricKitPayload.Launches(
                timeToFirstDraw: try count("histogrammedTimeToFirstDrawKey"),
                optimizedTimeToFirstDraw: try count("histogrammedOptimizedTimeToFirstDrawKey"),
                resumes: try count("histogrammedResumeTime"), extendedLaunch: try count("histogrammedExtendedLaunch"))
        }
        return p
    }

    private func exits(_ node: JSONNode, _ path: String) throws(IPSError) -> MetricKitPayload.Exits {
        try object(node, path)
        var out = MetricKitPayload.Exits()
        for (key, side) in [("backgroundExitData", true), ("foregroundExitData", false)] {
            guard let data = node[key] else { continue }
            let sp = join(path, key)
            guard case .object(let members) = data.kind else { throw error(data, sp, "expected an object, found \(data.typeName)") }
            var counters: [String: Int] = [:]
            for m in members {
                let kp = join(sp, m.key)
                guard MetricKitSchema.isExitCounter(m.key) else {
                    throw error(m.value, kp, "'\(m.key)' is not an exit counter (MetricKit names them cumulative…ExitCount)")
                }
                counters[m.key] = try int(m.value, kp, in: 0...Self.maxCount)
            }
            if side { out.background = counters } else { out.foreground = counters }
        }
        return out
    }

    private func average(_ node: JSONNode, _ path: String) throws(IPSError) -> MetricKitPayload.Average {
        try object(node, path)
        guard let countNode = node["sampleCount"] else { throw error(node, path, "missing 'sampleCount'") }
        let count = try int(countNode, join(path, "sampleCount"), in: 0...Self.maxSamples)
        guard let valueNode = node["averageValue"] else { throw error(node, path, "missing 'averageValue'") }
        let (mean, unit) = try sizeAndUnit(valueNode, join(path, "averageValue"))
        var sd: Double?
        if let sdNode = node["standardDeviation"] {
            let v = try number(sdNode, join(path, "standardDeviation"))
            // iOS writes -1 for the deviation of no samples; a negative deviation is none.
            guard v >= -1 else { throw error(sdNode, join(path, "standardDeviation"), "\(v) is not a standard deviation (at least 0, or -1 for none)") }
            if v >= 0 {
                // In the unit of averageValue (an MXAverage's deviation is in its value's unit).
                let bytes = v * unit
                guard bytes <= Self.maxBytesValue else {
                    throw error(sdNode, join(path, "standardDeviation"), "\(v) is above 2^40 bytes")
                }
                sd = bytes
            }
        }
        return MetricKitPayload.Average(sampleCount: count, meanBytes: mean, standardDeviationBytes: sd)
    }

    /// Σ `bucketCount` of an `MXHistogram` (`histogramNumBuckets`, `histogramValue` by bucket
    /// index), each bucket's bounds checked as durations.
    private func histogramCount(_ node: JSONNode, _ path: String) throws(IPSError) -> Int {
        try object(node, path)
        guard let buckets = node["histogramValue"] else { throw error(node, path, "missing 'histogramValue'") }
        let bp = join(path, "histogramValue")
        guard case .object(let members) = buckets.kind else { throw error(buckets, bp, "expected an object of buckets, found \(buckets.typeName)") }
        if let declared = node["histogramNumBuckets"] {
            let n = try int(declared, join(path, "histogramNumBuckets"), in: 0...10_000)
            guard n == members.count else {
                throw error(declared, join(path, "histogramNumBuckets"), "\(n) buckets declared, \(members.count) in 'histogramValue'")
            }
        }
        var total = 0
        for m in members {
            let kp = join(bp, m.key)
            try object(m.value, kp)
            guard let c = m.value["bucketCount"] else { throw error(m.value, kp, "missing 'bucketCount'") }
            total += try int(c, join(kp, "bucketCount"), in: 0...Self.maxCount)
            guard total <= Self.maxCount else { throw error(c, join(kp, "bucketCount"), "more than \(Self.maxCount) samples in one histogram") }
            var bounds: [Double] = []
            for key in ["bucketStart", "bucketEnd"] {
                guard let b = m.value[key] else { throw error(m.value, kp, "missing '\(key)'") }
                bounds.append(try duration(b, join(kp, key), max: Self.maxSeconds))
            }
            guard bounds[0] <= bounds[1] else { throw error(m.value, kp, "the bucket ends before it starts") }
        }
        return total
    }

    // MARK: values

    private func object(_ node: JSONNode, _ path: String) throws(IPSError) {
        guard case .object = node.kind else { throw error(node, path, "expected an object, found \(node.typeName)") }
    }

    private func string(_ node: JSONNode, _ path: String) throws(IPSError) -> String {
        guard case .string(let s) = node.kind else { throw error(node, path, "expected a string, found \(node.typeName)") }
        return s
    }

    private func number(_ node: JSONNode, _ path: String) throws(IPSError) -> Double {
        guard case .number(let text) = node.kind, let v = Double(text), v.isFinite else {
            throw error(node, path, "expected a number, found \(node.typeName)")
        }
        return v
    }

    private func int(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws(IPSError) -> Int {
        try node.wholeNumber(in: range, file: file, path: path)
    }

    /// `"<number> <unit>"`: the number with optional `,` grouping (as payloads written in
    /// English write it: `"200,000 kB"`) and a decimal point; the unit after one space or none.
    private func measurement(_ node: JSONNode, _ path: String, what: String) throws(IPSError) -> (Double, String) {
        let text = try string(node, path)
        var digits = "", i = text.startIndex
        while i < text.endIndex, "0123456789,.".contains(text[i]) {
            if text[i] != "," { digits.append(text[i]) }
            i = text.index(after: i)
        }
        let unit = text[i...].trimmingPrefix(" ")
        guard !digits.isEmpty, digits.count <= 32, let value = Double(digits), value.isFinite, !unit.isEmpty else {
            throw error(node, path, "'\(text)' is not a \(what) with a unit, like \(what == "size" ? "'200,000 kB'" : "'700 sec'")")
        }
        return (value, String(unit))
    }

    private func sizeAndUnit(_ node: JSONNode, _ path: String) throws(IPSError) -> (bytes: Double, unit: Double) {
        let (value, unit) = try measurement(node, path, what: "size")
        guard let factor = MetricKitSchema.sizeUnits[unit] else {
            throw error(node, path, "unknown size unit '\(unit)'; memprof reads " + MetricKitSchema.sizeUnits.keys.sorted().joined(separator: ", "))
        }
        let bytes = value * factor
        guard bytes <= Self.maxBytesValue else { throw error(node, path, "\(value) \(unit) is above 2^40 bytes") }
        return (bytes, factor)
    }

    private func size(_ node: JSONNode, _ path: String) throws(IPSError) -> Double {
        try sizeAndUnit(node, path).bytes
    }

    private func duration(_ node: JSONNode, _ path: String, max: Double) throws(IPSError) -> Double {
        let (value, unit) = try measurement(node, path, what: "duration")
        guard let factor = MetricKitSchema.durationUnits[unit] else {
            throw error(node, path, "unknown duration unit '\(unit)'; memprof reads " + MetricKitSchema.durationUnits.keys.sorted().joined(separator: ", "))
        }
        let seconds = value * factor
        guard seconds <= max else { throw error(node, path, "\(value) \(unit) is longer than \(Int(max / 86_400)) days") }
        return seconds
    }
}
