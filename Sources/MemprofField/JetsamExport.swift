import MemprofCore
import MemprofReport

/// `memprof export REPORT --format jetsam -o DIR`: one JetsamEvent `.ips` file per moment of
/// memory kills in a report, in the layout iOS writes (the Field format reference article lists
/// every field and its source).
public enum JetsamExport {
    /// A run has no calendar date; its reports are dated from this instant (2015-01-01 00:00:00 UTC,
    /// the reference text's year) plus the moment's time in the run.
    public static let epochSeconds: Int64 = 1_420_070_400

    public struct File: Sendable, Equatable {
        public var name: String
        /// The moment in the run.
        public var atUs: Microseconds
        public var report: JetsamReport
        public var text: String { JetsamReportWriter.text(report) }
    }

    /// One report per moment: every memory kill at the same instant is one event, each killed
    /// process with its own `reason` (spec §10).
    public static func reports(_ report: Report) -> [File] {
        var moments: [(atUs: Microseconds, events: [JetsamEvent])] = []
        for e in report.jetsamEvents {
            if let last = moments.last, last.atUs == e.atUs {
                moments[moments.count - 1].events.append(e)
            } else {
                moments.append((e.atUs, [e]))
            }
        }
        let identity = FieldIdentity.of(report.device)
        let bands = report.policy.xnu.map(JetsamBands.init)
            ?? IOSVersion.parse(identity.osVersion).map { JetsamBands.of(iosMajor: $0.major) } ?? .modern
        let pids = Dictionary(uniqueKeysWithValues: report.apps.keys.sorted().enumerated().map { ($1, 300 + $0 * 7) })
        var names: [String: Int] = [:]
        return moments.enumerated().map { index, moment in
            let r = jetsamReport(moment.events, report: report, identity: identity, bands: bands, pids: pids,
                                 index: index)
            let stamp = compactStamp(moment.atUs)
            let count = names[stamp, default: 0] + 1
            names[stamp] = count
            // iOS 7 to 9 named the text reports LowMemory-DATE.ips; iOS 10 and later JetsamEvent-DATE.ips.
            let kind = r.format == .lowMemoryText ? "LowMemory" : "JetsamEvent"
            let name = "\(kind)-\(stamp)\(count > 1 ? "-\(count)" : "").ips"
            return File(name: name, atUs: moment.atUs, report: r)
        }
    }

    static func jetsamReport(_ events: [JetsamEvent], report: Report, identity: FieldIdentity, bands: JetsamBands,
                             pids: [String: Int], index: Int) -> JetsamReport {
        let first = events[0]
        let pageSize = first.pageSize
        let major = IOSVersion.parse(identity.osVersion)?.major ?? 99
        // The first snapshot lists everything resident at the moment; later kills of the same
        // moment add their reasons (and their process, if the first snapshot did not list it).
        var processes: [JetsamReport.Process] = []
        var reasons: [String: String] = [:]
        var listed: Set<String> = []
        for e in events {
            for p in e.processes {
                if let reason = p.reason, reasons[p.name] == nil { reasons[p.name] = reason }
                guard listed.insert(p.name).inserted else { continue }
                let words = JetsamVocabulary.iosWords(p.states, resume: major < 14)
                processes.append(JetsamReport.Process(
                    pid: p.pid ?? pids[p.name], name: p.name, states: words,
                    priority: major < 14 ? nil : (p.priority ?? bands.priority(states: words)), rpages: p.rpages,
                    lifetimeMax: max(p.rpages, lifetimePages(p.name, upTo: first.atUs, report: report, pageSize: pageSize))))
            }
        }
        for i in processes.indices {
            if let reason = reasons[processes[i].name] {
                processes[i].reason = reason
                processes[i].killDelta = 0
            }
        }
        // Up the bands, as every report of the corpus lists them, the killed in their place
        // (ios10.1.1-iphone7-2-highwater.ips: SpringBoard 121st of 134; ios14.2-…: the two killed
        // daemons among the others of their bands); in a band, the order the kernel killed them
        // in, then the largest first. Bands come from the snapshot even where they are not written.
        let killOrder = Dictionary(events.enumerated().map { ($1.killed, $0) }, uniquingKeysWith: { a, _ in a })
        let band = Dictionary(events.flatMap(\.processes).map { ($0.name, $0.priority ?? bands.priority(states: JetsamVocabulary.iosWords($0.states))) },
                              uniquingKeysWith: { a, _ in a })
        processes.sort { a, b in
            let ba = band[a.name] ?? 0, bb = band[b.name] ?? 0
            if ba != bb { return ba < bb }
            let ka = killOrder[a.name], kb = killOrder[b.name]
            if let ka, let kb { return ka < kb }
            if (ka != nil) != (kb != nil) { return ka != nil }
            if a.rpages != b.rpages { return a.rpages > b.rpages }
            return a.name < b.name
        }
        // The processes a long snapshot leaves out (``JetsamEvent/unlisted``) are resident too.
        let residentPages = processes.filter { !$0.states.contains("frozen") }.reduce(Int64(0)) { $0 + $1.rpages }
            + (first.unlisted?.rpages ?? 0)
        let stamp = dateStamp(first.atUs)
        let incident = incidentID(sha: report.run.workloadSha256, index: index, atUs: first.atUs)
        let compressorSize: Int64, uncompressed: Int64
        if let c = first.compressor {
            // The pool at the moment, as the engine's snapshot took it at the moment's first kill
            // (xnu takes its figures once, when the snapshot is begun: memorystatus_init_jetsam_snapshot_header,
            // xnu-11215.1.10 bsd/kern/kern_memorystatus.c:5137-5139).
            (compressorSize, uncompressed) = (c.pages, c.uncompressedPages)
        } else {
            // No in-RAM compressor: the flash store, counted the same both ways.
            compressorSize = lastValue(report.timeline.compressedBytes, upTo: first.atUs) / pageSize
            uncompressed = compressorSize
        }
        var status = JetsamReport.MemoryStatus(
            pageSize: pageSize, compressorSize: compressorSize, uncompressed: uncompressed,
            memoryPages: memoryPages(report, atUs: first.atUs, residentPages: residentPages,
                                     poolPages: compressorSize, pageSize: pageSize))
        if let c = first.compressor {
            // The counts so far at the moment, not the run's totals.
            status.compressions = c.compressions
            status.decompressions = c.decompressions
        }
        let largest = processes.max { a, b in a.rpages != b.rpages ? a.rpages < b.rpages : a.name > b.name }
        var out = JetsamReport(
            header: JetsamReport.Header(timestamp: stamp, osVersion: identity.osVersion, incidentID: incident),
            product: identity.product, build: identity.osVersion, incident: incident, date: stamp,
            memoryStatus: status, largestProcess: largest?.name ?? first.largestProcess, processes: processes)
        // Before iOS 10 the moment was a text LowMemory report (ios7.0.4-ipad2-5-lowmemory.txt).
        if major < 10 { out.format = .lowMemoryText }
        out.crashReporterKey = String(incidentID(sha: report.run.workloadSha256, index: -1, atUs: 0).filter(\.isHexDigit).lowercased().prefix(32))
        out.kernel = "memprof \(report.policy.name) policy"
        out.timeDelta = 0
        out.genCounter = 0
        return out
    }

    /// `memoryPages` at the moment, adding up to the device's pages with the compressor's
    /// (`free + active + wired + compressorSize`), compressed memory counted once:
    /// - `wired`: `systemReserved` (what memprof holds for the kernel and, without the built-in
    ///   population, the daemons: under it, the era's wired memory);
    /// - `active` and `anonymous`: the RAM the apps and processes hold uncompressed (`used` less
    ///   the compressor's pool; `rpages` are footprints, which count compressed pages too, and
    ///   are not summed), every page of the model being anonymous;
    /// - `free`: the rest of RAM (under `seed-2015`, whose store is on flash, `compressorSize`
    ///   is the store's pages, as before, and is taken from `free` too, so the counts still add up).
    /// `inactive`, `speculative`, `throttled`, `purgeable` and `fileBacked` are left out: the model
    /// has no page queues nor file-backed memory, and no source gives a rule to estimate them.
    static func memoryPages(_ report: Report, atUs: Microseconds, residentPages: Int64, poolPages: Int64,
                            pageSize: Bytes) -> JetsamReport.MemoryPages {
        let device = report.device
        let total = device.ram / pageSize
        let wired = (device.systemReserved + pageSize - 1) / pageSize
        let used = lastValue(report.timeline.usedBytes, upTo: atUs)
        // Without a timeline point (a report read without one), the resident pages stand for it.
        let uncompressed = report.timeline.usedBytes.isEmpty ? residentPages : max(0, (used - poolPages * pageSize) / pageSize)
        let active = min(uncompressed, max(0, total - wired - poolPages))
        var pages = JetsamReport.MemoryPages(active: active, free: max(0, total - wired - poolPages - active), wired: wired,
                                             anonymous: active, fileBacked: 0)
        pages.omitted = ["inactive", "speculative", "throttled", "purgeable", "fileBacked"]
        return pages
    }

    /// The most pages `app` was resident with up to `atUs` (report.json's `timeline.appBytes`).
    static func lifetimePages(_ app: String, upTo atUs: Microseconds, report: Report, pageSize: Bytes) -> Int64 {
        var peak: Int64 = 0
        for point in report.timeline.appBytes[app] ?? [] where point.count == 2 && point[0] <= atUs {
            peak = max(peak, point[1])
        }
        return (peak + pageSize - 1) / pageSize
    }

    static func lastValue(_ series: [[Int64]], upTo atUs: Microseconds) -> Int64 {
        var value: Int64 = 0
        for point in series where point.count == 2 {
            if point[0] > atUs { break }
            value = point[1]
        }
        return value
    }

    /// `2015-01-01 00:02:10.00 +0000` for 130 s into the run.
    static func dateStamp(_ atUs: Microseconds) -> String {
        let (d, h, m, s) = civil(atUs)
        let centis = (atUs % 1_000_000) / 10_000
        return "\(d) \(two(h)):\(two(m)):\(two(s)).\(two(centis)) +0000"
    }

    /// `2015-01-01-000210`, as iOS names the files.
    static func compactStamp(_ atUs: Microseconds) -> String {
        let (d, h, m, s) = civil(atUs)
        return "\(d)-\(two(h))\(two(m))\(two(s))"
    }

    private static func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    private static func civil(_ atUs: Microseconds) -> (date: String, h: Int64, m: Int64, s: Int64) {
        let total = epochSeconds + atUs / 1_000_000
        let days = total / 86_400
        let secs = total % 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return ("\(year)-\(two(month))-\(two(day))", secs / 3600, secs % 3600 / 60, secs % 60)
    }

    /// A UUID-shaped id that is the same for the same run and moment.
    static func incidentID(sha: String, index: Int, atUs: Microseconds) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var hash2: UInt64 = 0x8422_2325_cbf2_9ce4
        for b in Array(sha.utf8) + Array("\(index)/\(atUs)".utf8) {
            hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
            hash2 = (hash2 ^ UInt64(b)) &* 0x0000_0100_0000_01B3 &+ 1
        }
        let hex = (String(hash, radix: 16, uppercase: true).leftPadded(16) + String(hash2, radix: 16, uppercase: true).leftPadded(16))
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
