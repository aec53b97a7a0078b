import MemprofOutput

/// Writes a ``JetsamReport`` as iOS wrote reports in its era. Each rule is read off the published
/// reports of `Tests/MemprofFieldTests/Fixtures/corpus` (SOURCES.md names them):
///
/// - Before iOS 10, a text LowMemory report (`ios7.0.4-ipad2-5-lowmemory.txt`): `Key: value`
///   lines, the page counts, `Largest process:`, then the `Processes` table
///   `Name <UUID> rpages recent_max fds [reason] (state)`.
/// - From iOS 10, an `.ips`: the header line `{"bug_type":"298","timestamp":…,"os_version":…,
///   "incident_id":…}` (`bug_type` there only, as every `.ips` of the corpus has it), then the
///   body with the keys in the order of every `.ips` of the corpus — `crashReporterKey`, `kernel`,
///   `product`, `incident`, `date`, `build`, `timeDelta`, `memoryStatus`, `largestProcess`,
///   `genCounter`, `processes` — pretty-printed with two spaces, a top-level object's or array's
///   members at the top level's indentation and its closing bracket at the margin.
/// - `memoryStatus`: `compressorSize`, `pageSize`, `memoryPages`, `uncompressed` on iOS 10
///   (`ios10.1.1-iphone7-2-highwater.ips`); from iOS 11 `compressorSize`, `pageSize`,
///   `uncompressed`, `memoryPages` (`ios11.3.1-…`, `ios12.4-…`, `ios14.2-…`).
/// - A process: `states`, `killDelta`, `lifetimeMax`, `rpages`, `priority`, `reason`, `pid`,
///   `name`, the order of the killed entries of `ios11.3.1-…` and `ios14.2-…` (`priority` only
///   where the report has it: ``JetsamExport`` writes it from iOS 14, as `ios14.2-…` does and the
///   earlier ones do not).
public enum JetsamReportWriter {
    public static func text(_ r: JetsamReport) -> String {
        if r.format == .lowMemoryText { return lowMemoryText(r) }
        let major = r.osVersion?.major ?? 99
        var out = "{\"bug_type\":\(quote(r.header.bugType)),\"timestamp\":\(quote(r.header.timestamp)),"
            + "\"os_version\":\(quote(r.header.osVersion)),\"incident_id\":\(quote(r.header.incidentID))}\n"
        var body = JSONLayout()
        body.object(indent: 0) { o in
            if let v = r.crashReporterKey { o.string("crashReporterKey", v) }
            if let v = r.kernel { o.string("kernel", v) }
            if let v = r.product { o.string("product", v) }
            if let v = r.incident { o.string("incident", v) }
            if let v = r.date { o.string("date", v) }
            if let v = r.build { o.string("build", v) }
            if let v = r.timeDelta { o.int("timeDelta", v) }
            o.topLevelObject("memoryStatus") { m in
                func pages(_ m: inout JSONLayout.Members) {
                    guard let p = r.memoryStatus.memoryPages else { return }
                    m.object("memoryPages") { q in
                        for (key, value) in [("active", p.active), ("throttled", p.throttled), ("fileBacked", p.fileBacked),
                                             ("wired", p.wired), ("anonymous", p.anonymous), ("purgeable", p.purgeable),
                                             ("inactive", p.inactive), ("free", p.free), ("speculative", p.speculative)]
                            where !p.omitted.contains(key) { q.int(key, value) }
                    }
                }
                // iOS 10: compressorSize, pageSize, compressions, memoryPages, uncompressed,
                // decompressions (ios10.1.1-…); from iOS 11 the counts follow compressorSize.
                let s = r.memoryStatus
                if let v = s.compressorSize { m.int("compressorSize", v) }
                if major > 10, let v = s.compressions { m.int("compressions", v) }
                if major > 10, let v = s.decompressions { m.int("decompressions", v) }
                m.int("pageSize", s.pageSize)
                if major <= 10, let v = s.compressions { m.int("compressions", v) }
                if major <= 10 { pages(&m) }
                if let v = s.uncompressed { m.int("uncompressed", v) }
                if major <= 10, let v = s.decompressions { m.int("decompressions", v) }
                if major > 10 { pages(&m) }
            }
            if let v = r.largestProcess { o.string("largestProcess", v) }
            if let v = r.genCounter { o.int("genCounter", v) }
            o.topLevelArray("processes", r.processes) { q, p in
                q.array("states", p.states) { s, word in s.raw(quote(word)) }
                if let v = p.killDelta { q.int("killDelta", v) }
                if let v = p.lifetimeMax { q.int("lifetimeMax", v) }
                q.int("rpages", p.rpages)
                if let v = p.priority { q.int("priority", Int64(v)) }
                if let v = p.reason { q.string("reason", v) }
                if let v = p.pid { q.int("pid", Int64(v)) }
                q.string("name", p.name)
            }
        }
        out += body.text + "\n"
        return out
    }

    /// The text LowMemory report of iOS 7 to 9, laid out as `ios7.0.4-ipad2-5-lowmemory.txt` is
    /// (`Page Size:` added when pages are not 4096 bytes, as iOS 8.3 writes it). A value memprof
    /// does not know (`fds`, `recent_max` without a history) is `-`, as iOS 8 writes unknown values.
    static func lowMemoryText(_ r: JetsamReport) -> String {
        func field(_ key: String, _ value: String, width: Int = 21) -> String {
            let label = key + ":"
            return label + String(repeating: " ", count: max(1, width - label.count)) + oneLine(value) + "\n"
        }
        var out = field("Incident Identifier", r.header.incidentID)
        if let v = r.crashReporterKey { out += field("CrashReporter Key", v) }
        if let v = r.product { out += field("Hardware Model", v) }
        out += field("OS Version", r.build ?? r.header.osVersion)
        if let v = r.kernel { out += field("Kernel Version", v) }
        out += field("Date", r.date ?? r.header.timestamp)
        out += field("Time since snapshot", "\(r.timeDelta ?? 0) ms") + "\n"
        let p = r.memoryStatus.memoryPages
        func known(_ key: String, _ value: Int64?) -> Int64? { p?.omitted.contains(key) == true ? nil : value }
        let counts: [(String, Int64?)] = [
            ("Free pages", p?.free), ("Active pages", p?.active), ("Inactive pages", known("inactive", p?.inactive)),
            ("Speculative pages", known("speculative", p?.speculative)), ("Throttled pages", known("throttled", p?.throttled)),
            ("Purgeable pages", known("purgeable", p?.purgeable)),
            ("Wired pages", p?.wired), ("File-backed pages", known("fileBacked", p?.fileBacked)), ("Anonymous pages", p?.anonymous),
            ("Compressions", r.memoryStatus.compressions), ("Decompressions", r.memoryStatus.decompressions),
            ("Compressor Size", r.memoryStatus.compressorSize),
            ("Uncompressed Pages in Compressor", r.memoryStatus.uncompressed),
        ]
        for (key, value) in counts { if let value { out += field(key, String(value), width: 41) } }
        if r.memoryStatus.pageSize != 4096 { out += field("Page Size", String(r.memoryStatus.pageSize), width: 41) }
        if let v = r.largestProcess { out += "Largest process:   \(oneLine(v))\n" }
        out += "\nProcesses\n"
        out += "     Name                    <UUID>                       rpages       recent_max   fds      [reason]          (state)\n\n"
        for process in r.processes {
            let name = cell(process.name)
            var row = String(repeating: " ", count: max(0, 16 - name.count)) + name + " <" + uuid(process.name) + ">"
            row += pad(String(process.rpages), 13) + pad(process.recentMax.map(String.init) ?? "-", 17) + pad("-", 5)
            if let reason = process.reason {
                row += "   [\(cell(reason))]  "
            } else if !process.states.isEmpty {
                row += String(repeating: " ", count: 22)
            }
            row += process.states.map { "(\(cell($0)))" }.joined(separator: " ")
            out += row + "\n"
        }
        return out
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - s.count)) + s
    }

    /// The text with its line breaks replaced, so one value stays on its line.
    private static func oneLine(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
    }

    /// A cell of the process table: one line, and no bracket or space that would end it.
    private static func cell(_ s: String) -> String {
        String(String.UnicodeScalarView(oneLine(s).unicodeScalars.map {
            $0 == "<" || $0 == ">" || $0 == "[" || $0 == "]" || $0 == "(" || $0 == ")" ? "_" : $0
        }))
    }

    /// 32 hex digits that are the same for the same name (a report's UUID column).
    private static func uuid(_ name: String) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in name.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 1
        }
        return String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(16)
    }

    /// A JSON string literal, escaped as memprof's one JSON writer escapes (JSONEncoder-exact).
    static func quote(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// Pretty JSON in the `.ips` style, also used for MetricKit payloads (`"key" : value`).
struct JSONLayout {
    private(set) var text = ""

    struct Members {
        fileprivate var layout: JSONLayout
        fileprivate let indent: Int
        fileprivate var count = 0

        private mutating func key(_ k: String) {
            layout.text += (count == 0 ? "\n" : ",\n") + String(repeating: " ", count: indent + 2)
                + JetsamReportWriter.quote(k) + " : "
            count += 1
        }

        mutating func string(_ k: String, _ v: String) {
            key(k)
            layout.text += JetsamReportWriter.quote(v)
        }

        mutating func int(_ k: String, _ v: Int64) {
            key(k)
            layout.text += String(v)
        }

        mutating func int(_ k: String, _ v: Int) { int(k, Int64(v)) }

        mutating func double(_ k: String, _ v: Double) {
            key(k)
            layout.text += v.isFinite ? String(v) : "0"
        }

        mutating func object(_ k: String, _ body: (inout Members) -> Void) {
            key(k)
            layout.object(indent: indent + 2, body, into: &self)
        }

        mutating func array<T>(_ k: String, _ items: [T], _ each: (inout Members, T) -> Void) {
            array(k, items, pad: String(repeating: " ", count: indent + 2), itemIndent: indent + 4, each)
        }

        /// An array member: each object on a line of its own after `pad` and two spaces, its
        /// members at `itemIndent`, the closing bracket after `pad`.
        private mutating func array<T>(_ k: String, _ items: [T], pad: String, itemIndent: Int,
                                       _ each: (inout Members, T) -> Void) {
            key(k)
            if items.isEmpty {
                layout.text += "[]"
                return
            }
            layout.text += "["
            for (i, item) in items.enumerated() {
                layout.text += (i == 0 ? "\n" : ",\n") + pad + "  "
                layout.object(indent: itemIndent, { each(&$0, item) }, into: &self)
            }
            layout.text += "\n" + pad + "]"
        }

        /// A member of the top-level object as iOS writes it: its members at the top level's
        /// indentation, its closing brace at the margin.
        mutating func topLevelObject(_ k: String, _ body: (inout Members) -> Void) {
            key(k)
            layout.object(indent: 0, body, into: &self)
        }

        /// An array member of the top-level object as iOS writes it: its objects at the top
        /// level's indentation, its closing bracket at the margin.
        mutating func topLevelArray<T>(_ k: String, _ items: [T], _ each: (inout Members, T) -> Void) {
            array(k, items, pad: "", itemIndent: 2, each)
        }

        /// An array of scalars written by `each` with ``raw(_:)``.
        mutating func array(_ k: String, _ items: [String], _ each: (inout Members, String) -> Void) {
            key(k)
            if items.isEmpty {
                layout.text += "[]"
                return
            }
            let pad = String(repeating: " ", count: indent + 4)
            layout.text += "["
            for (i, item) in items.enumerated() {
                layout.text += (i == 0 ? "\n" : ",\n") + pad
                each(&self, item)
            }
            layout.text += "\n" + String(repeating: " ", count: indent + 2) + "]"
        }

        mutating func raw(_ s: String) { layout.text += s }
    }

    mutating func object(indent: Int, _ body: (inout Members) -> Void) {
        var members = Members(layout: self, indent: indent)
        members.layout.text += "{"
        body(&members)
        members.layout.text += "\n" + String(repeating: " ", count: indent) + "}"
        self = members.layout
    }

    /// A nested object written into the text `outer` is building.
    fileprivate func object(indent: Int, _ body: (inout Members) -> Void, into outer: inout Members) {
        var inner = Members(layout: outer.layout, indent: indent)
        inner.layout.text += "{"
        body(&inner)
        inner.layout.text += "\n" + String(repeating: " ", count: indent) + "}"
        outer.layout = inner.layout
    }
}
