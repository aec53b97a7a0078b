import MemprofInput
import MemprofOutput
import MemprofWorkload

/// Bad or foreign `.ips` input: names the file, line, column and key (`processes[3].rpages`),
/// exit status 2 — the same located error as a workload's.
public typealias IPSError = WorkloadError

/// Reads a JetsamEvent `.ips` file into a ``JetsamReport``, checking every number it keeps.
///
/// Limits (every resource has a bound): the file at most ``maxBytes``; at most ``maxProcesses``
/// processes; nesting and string sizes as `JSONNode` bounds them.
public struct JetsamReportReader {
    public static let maxBytes = 64 << 20
    public static let maxProcesses = 20_000
    /// The largest resident size memprof accepts for one process or a page count: 2^40 bytes.
    static let maxBytesPerCount: Int64 = 1 << 40

    public let file: String

    public init(file: String) {
        self.file = file
    }

    public func read(_ text: String) throws(IPSError) -> JetsamReport {
        try read(Array(text.utf8))
    }

    public func read(_ bytes: [UInt8]) throws(IPSError) -> JetsamReport {
        guard bytes.count <= Self.maxBytes else {
            throw IPSError(file: file, line: 1, column: 1, keyPath: "",
                           message: "the file is larger than \(Self.maxBytes >> 20) MB; a JetsamEvent report is far smaller")
        }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw IPSError(file: file, line: 1, column: 1, keyPath: "",
                           message: "the file is empty; a JetsamEvent report has a JSON header line and a body")
        }
        // iOS 7 to 9 wrote the same moment as a text LowMemory report.
        if LowMemoryReportReader.looksLikeText(bytes) { return try LowMemoryReportReader(file: file).read(bytes) }
        // The header is one JSON object on the first line; the body is the rest.
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(IPSError) -> JetsamReport in try read(JSONNodeReader(raw)) }
        }.get()
    }

    private func read(_ reader: JSONNodeReader) throws(IPSError) -> JetsamReport {
        var reader = reader
        let headerNode: JSONNode
        do throws(JSONSyntaxError) { headerNode = try reader.readValue() } catch {
            throw located(error, what: "the first line is not a JSON header, so this is not an .ips report "
                          + "(nor a text LowMemory report, which starts with '\(LowMemoryReportReader.firstKey)')")
        }
        let header = try readHeader(headerNode)
        let bodyNode: JSONNode
        do throws(JSONSyntaxError) {
            guard !reader.atEnd() else { throw reader.error("the report ends after its header; a JetsamEvent report has a body") }
            bodyNode = try reader.readValue()
            guard reader.atEnd() else { throw reader.error("unexpected text after the report's body") }
        } catch {
            throw located(error, what: nil)
        }
        return try readBody(bodyNode, header: header)
    }

    private func located(_ e: JSONSyntaxError, what: String?) -> IPSError {
        IPSError(file: file, line: e.line, column: e.column, keyPath: "",
                 message: what.map { "\($0) (\(e.message))" } ?? "invalid JSON: \(e.message)")
    }

    func error(_ node: JSONNode, _ path: String, _ message: String) -> IPSError {
        IPSError(file: file, line: node.line, column: node.column, keyPath: path, message: message)
    }

    private func readHeader(_ node: JSONNode) throws(IPSError) -> JetsamReport.Header {
        guard case .object = node.kind else {
            throw error(node, "", "the first line is \(node.typeName), not the JSON header of an .ips report")
        }
        guard let bug = node["bug_type"] else {
            throw error(node, "", "the header has no 'bug_type', so this is not an .ips report")
        }
        let bugType = try string(bug, "bug_type")
        guard bugType == "298" else {
            let kind = Self.bugTypeNames[bugType].map { " (\($0))" } ?? ""
            throw error(bug, "bug_type", "'\(bugType)'\(kind) is not a JetsamEvent report; memprof imports bug_type 298")
        }
        return JetsamReport.Header(
            bugType: bugType,
            timestamp: try node["timestamp"].map { n throws(IPSError) in try string(n, "timestamp") } ?? "",
            osVersion: try node["os_version"].map { n throws(IPSError) in try string(n, "os_version") } ?? "",
            incidentID: try node["incident_id"].map { n throws(IPSError) in try string(n, "incident_id") } ?? "")
    }

    /// Other `.ips` kinds people hand to the importer by mistake.
    static let bugTypeNames = ["109": "a crash report", "309": "a crash report", "288": "a stackshot",
                               "385": "a jetsam-style process exit report", "210": "a panic report",
                               "211": "an analytics log", "313": "a spin report", "142": "a cpu resource report"]

    private func readBody(_ body: JSONNode, header: JetsamReport.Header) throws(IPSError) -> JetsamReport {
        guard case .object = body.kind else { throw error(body, "", "the report's body is \(body.typeName), not an object") }
        let status = body["memoryStatus"]
        if let status, case .object = status.kind {} else if let status {
            throw error(status, "memoryStatus", "expected an object, found \(status.typeName)")
        }
        // iOS 13 and later put pageSize in memoryStatus; earlier reports at the top level.
        let pageNode = status?["pageSize"] ?? body["pageSize"]
        guard let pageNode else {
            throw error(status ?? body, status == nil ? "" : "memoryStatus",
                        "missing 'pageSize' (in memoryStatus, or at the top level in reports before iOS 13)")
        }
        let pagePath = status?["pageSize"] != nil ? "memoryStatus.pageSize" : "pageSize"
        let pageSize = try int(pageNode, pagePath, in: 512...(1 << 20))
        guard pageSize & (pageSize - 1) == 0 else {
            throw error(pageNode, pagePath, "\(pageSize) is not a power of two; pages are 4096 or 16384 bytes")
        }
        let maxPages = Self.maxBytesPerCount / pageSize
        func pages(_ node: JSONNode?, _ path: String) throws(IPSError) -> Int64? {
            guard let node else { return nil }
            return try int(node, path, in: 0...maxPages)
        }
        var memoryPages: JetsamReport.MemoryPages?
        if let mp = status?["memoryPages"] {
            guard case .object = mp.kind else {
                throw error(mp, "memoryStatus.memoryPages", "expected an object, found \(mp.typeName)")
            }
            func page(_ key: String, required: Bool) throws(IPSError) -> Int64 {
                let path = "memoryStatus.memoryPages.\(key)"
                guard let n = mp[key] else {
                    if required { throw error(mp, "memoryStatus.memoryPages", "missing '\(key)'") }
                    return 0
                }
                return try int(n, path, in: 0...maxPages)
            }
            memoryPages = JetsamReport.MemoryPages(
                active: try page("active", required: true), inactive: try page("inactive", required: false),
                speculative: try page("speculative", required: false), throttled: try page("throttled", required: false),
                free: try page("free", required: true), wired: try page("wired", required: true),
                purgeable: try page("purgeable", required: false), anonymous: try page("anonymous", required: false),
                fileBacked: try page("fileBacked", required: false))
        }
        var memoryStatus = JetsamReport.MemoryStatus(
            pageSize: pageSize,
            compressorSize: try pages(status?["compressorSize"], "memoryStatus.compressorSize"),
            uncompressed: try pages(status?["uncompressed"], "memoryStatus.uncompressed"),
            memoryPages: memoryPages)
        // Counters since boot, not pages held: up to 2^48 (the corpus's largest is 43,561,228).
        func counter(_ key: String) throws(IPSError) -> Int64? {
            guard let node = status?[key] else { return nil }
            return try int(node, "memoryStatus.\(key)", in: 0...(Int64(1) << 48))
        }
        memoryStatus.compressions = try counter("compressions")
        memoryStatus.decompressions = try counter("decompressions")

        guard let list = body["processes"] else { throw error(body, "", "missing 'processes'") }
        guard case .array(let entries) = list.kind else {
            throw error(list, "processes", "expected an array, found \(list.typeName)")
        }
        guard !entries.isEmpty else { throw error(list, "processes", "the report lists no processes") }
        guard entries.count <= Self.maxProcesses else {
            throw error(list, "processes", "\(entries.count) processes; memprof reads at most \(Self.maxProcesses)")
        }
        var processes: [JetsamReport.Process] = []
        processes.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            processes.append(try readProcess(entry, path: "processes[\(i)]", maxPages: maxPages))
        }
        func optionalString(_ key: String) throws(IPSError) -> String? {
            try body[key].map { n throws(IPSError) in try string(n, key) }
        }
        var report = JetsamReport(header: header, product: try optionalString("product"), build: try optionalString("build"),
                                  incident: try optionalString("incident"), date: try optionalString("date"),
                                  memoryStatus: memoryStatus, largestProcess: try optionalString("largestProcess"),
                                  processes: processes)
        report.kernel = try optionalString("kernel")
        report.crashReporterKey = try optionalString("crashReporterKey")
        report.timeDelta = try body["timeDelta"].map { n throws(IPSError) in try int(n, "timeDelta", in: 0...(1 << 40)) }
        report.genCounter = try body["genCounter"].map { n throws(IPSError) in try int(n, "genCounter", in: 0...(1 << 40)) }
        return report
    }

    private func readProcess(_ node: JSONNode, path: String, maxPages: Int64) throws(IPSError) -> JetsamReport.Process {
        guard case .object = node.kind else { throw error(node, path, "expected an object, found \(node.typeName)") }
        guard let nameNode = node["name"] else { throw error(node, path, "missing 'name'") }
        let name = try string(nameNode, "\(path).name")
        guard (1...256).contains(name.utf8.count) else {
            throw error(nameNode, "\(path).name", "a process name has 1 to 256 bytes")
        }
        guard let rpagesNode = node["rpages"] else { throw error(node, path, "missing 'rpages'") }
        var states: [String] = []
        if let s = node["states"] {
            guard case .array(let words) = s.kind else {
                throw error(s, "\(path).states", "expected an array of words, found \(s.typeName)")
            }
            guard words.count <= 32 else { throw error(s, "\(path).states", "more than 32 states") }
            for (j, w) in words.enumerated() { states.append(try string(w, "\(path).states[\(j)]")) }
        }
        var process = JetsamReport.Process(
            pid: try node["pid"].map { n throws(IPSError) in Int(try int(n, "\(path).pid", in: 0...Int64(Int32.max))) },
            name: name, states: states,
            priority: try node["priority"].map { n throws(IPSError) in Int(try int(n, "\(path).priority", in: -2...1000)) },
            rpages: try int(rpagesNode, "\(path).rpages", in: 0...maxPages),
            lifetimeMax: try node["lifetimeMax"].map { n throws(IPSError) in try int(n, "\(path).lifetimeMax", in: 0...maxPages) },
            reason: try node["reason"].map { n throws(IPSError) in try string(n, "\(path).reason") },
            killDelta: try node["killDelta"].map { n throws(IPSError) in try int(n, "\(path).killDelta", in: 0...(1 << 40)) })
        process.line = node.line
        process.column = node.column
        return process
    }

    func string(_ node: JSONNode, _ path: String) throws(IPSError) -> String {
        guard case .string(let s) = node.kind else { throw error(node, path, "expected a string, found \(node.typeName)") }
        return s
    }

    /// A whole number in `range`; JSON numbers with a fraction or exponent are refused.
    func int(_ node: JSONNode, _ path: String, in range: ClosedRange<Int64>) throws(IPSError) -> Int64 {
        guard case .number(let text) = node.kind else {
            throw error(node, path, "expected a whole number, found \(node.typeName)")
        }
        guard let value = Int64(text) else {
            throw error(node, path, "'\(text)' is not a whole number in range")
        }
        guard range.contains(value) else {
            throw error(node, path, "\(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return value
    }
}
