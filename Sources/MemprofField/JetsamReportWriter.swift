import MemprofOutput

/// Writes a ``JetsamReport`` in the layout iOS uses: the header as one line of compact JSON,
/// then the body pretty-printed with `"key" : value`, two spaces per level.
public enum JetsamReportWriter {
    public static func text(_ r: JetsamReport) -> String {
        var out = "{\"bug_type\":\(quote(r.header.bugType)),\"timestamp\":\(quote(r.header.timestamp)),"
            + "\"os_version\":\(quote(r.header.osVersion)),\"incident_id\":\(quote(r.header.incidentID))}\n"
        var body = JSONLayout()
        body.object(indent: 0) { o in
            if let v = r.build { o.string("build", v) }
            if let v = r.product { o.string("product", v) }
            if let v = r.incident { o.string("incident", v) }
            if let v = r.date { o.string("date", v) }
            o.string("bug_type", r.header.bugType)
            o.object("memoryStatus") { m in
                if let v = r.memoryStatus.compressorSize { m.int("compressorSize", v) }
                m.int("pageSize", r.memoryStatus.pageSize)
                if let v = r.memoryStatus.uncompressed { m.int("uncompressed", v) }
                if let p = r.memoryStatus.memoryPages {
                    m.object("memoryPages") { q in
                        q.int("active", p.active)
                        q.int("throttled", p.throttled)
                        q.int("fileBacked", p.fileBacked)
                        q.int("wired", p.wired)
                        q.int("anonymous", p.anonymous)
                        q.int("purgeable", p.purgeable)
                        q.int("inactive", p.inactive)
                        q.int("free", p.free)
                        q.int("speculative", p.speculative)
                    }
                }
            }
            if let v = r.largestProcess { o.string("largestProcess", v) }
            o.array("processes", r.processes) { q, p in
                q.array("states", p.states) { s, word in s.raw(quote(word)) }
                if let v = p.killDelta { q.int("killDelta", v) }
                q.int("rpages", p.rpages)
                if let v = p.priority { q.int("priority", Int64(v)) }
                if let v = p.reason { q.string("reason", v) }
                if let v = p.pid { q.int("pid", Int64(v)) }
                q.string("name", p.name)
                if let v = p.lifetimeMax { q.int("lifetimeMax", v) }
            }
        }
        out += body.text + "\n"
        return out
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
            key(k)
            if items.isEmpty {
                layout.text += "[]"
                return
            }
            layout.text += "["
            let pad = String(repeating: " ", count: indent + 2)
            for (i, item) in items.enumerated() {
                layout.text += (i == 0 ? "\n" : ",\n") + pad + "  "
                layout.object(indent: indent + 4, { each(&$0, item) }, into: &self)
            }
            layout.text += "\n" + pad + "]"
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
