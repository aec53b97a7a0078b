import MemprofCore
import MemprofInput
import MemprofOutput
import MemprofWorkload

/// `memprof import JETSAM.ips -o workload.yaml`: a workload that reproduces the moment of a
/// device's jetsam report, so that running it under the `xnu` policy kills the processes the
/// report names, for the reasons it names, in its order.
///
/// Every process of the report is kept: apps (with their lifecycle: the `frontmost` one opened
/// last, `audio` ones playing, `background`/`continuous`/`active` ones running a background task,
/// `suspended` ones left, `frozen` ones frozen to flash), and the others as `processes:` (daemons,
/// the frontmost app's helpers and extensions, SpringBoard and the system) with their band — the
/// report's `priority`, or before iOS 14 the band the era gives their states, in the order the
/// report lists them. The report's free pages are what is left; the rest of RAM is reserved.
///
/// Kills memprof models are replayed: at the moment a process standing for the demand
/// (`memprof-demand`, in the top band, so that any app can die, the frontmost one too) allocates
/// what was free plus what every victim but the last freed, and one page more; `highwater`
/// victims carry a high-water mark one page under their resident size; a `per-process-limit` app
/// goes one page past its limit, and so does a `per-process-limit` process (the first one: it
/// gets a fatal `memoryLimit` of its resident size, and dies where the report orders it among the
/// walk's victims). Kills of other reasons (`vnode-limit`, `proc-thrashing`,
/// `fc-thrashing`, …) are carried as facts: named in the workload's comments and in the summary,
/// their processes' memory held as reserved so that the moment's pressure is the report's.
public struct JetsamImport {
    /// What the importer made of a report, for the command's summary and for tests.
    public struct Result: Sendable, Equatable {
        public var yaml: String
        /// Each kill the replay makes, in order: the name report.json gives the killed process
        /// (an app's key, a process's name) and the jetsam reason expected under `xnu`
        /// (`vm-pageshortage`, `per-process-limit`, `highwater`).
        public var expectedKills: [(app: String, reason: String)]
        /// The report's kills that are not replayed, each with its reason and why.
        public var facts: [String]
        public var notes: [String]
        /// Where the replay, run at import, does not do what the report says: a kill of the
        /// report it does not make, one it makes that the report does not list, another order.
        public var differences: [String] = []

        /// What `import` prints: the kills the replay makes, the facts not replayed and the
        /// differences from the report, a line each, the first `listed` of each list named and
        /// the rest counted, so the summary of a report of thousands of kills stays a few lines.
        public func summary(listed: Int = Result.listed) -> String {
            func more(_ n: Int, _ what: String) -> String { n > 0 ? " and \(n) more" + (what.isEmpty ? "" : " " + what) : "" }
            var out = expectedKills.isEmpty ? "no memory kill to replay"
                : "under xnu it kills " + expectedKills.prefix(listed).map { "\($0.app) (\($0.reason))" }.joined(separator: ", ")
                    + (expectedKills.count > listed ? more(expectedKills.count - listed, "(\(expectedKills.count) kills)") : "")
            for (lines, label) in [(facts, "not replayed"), (differences, "unlike the report")] {
                out += lines.prefix(listed).map { "\n  \(label): \($0)" }.joined()
                if lines.count > listed { out += "\n  \(label):" + more(lines.count - listed, "") }
            }
            return out
        }

        /// The items of each list ``summary(listed:)`` names.
        public static let listed = 20

        public static func == (a: Result, b: Result) -> Bool {
            a.yaml == b.yaml && a.notes == b.notes && a.facts == b.facts && a.differences == b.differences
                && a.expectedKills.map(\.app) == b.expectedKills.map(\.app)
                && a.expectedKills.map(\.reason) == b.expectedKills.map(\.reason)
        }
    }

    /// What a process of the report becomes.
    enum Kind: String {
        case app
        case daemon
        case `extension`
        case system
    }

    enum Role: Int, Comparable {
        case suspended = 0
        case running
        case audio
        case frontmost
        static func < (a: Role, b: Role) -> Bool { a.rawValue < b.rawValue }
    }

    struct Entry {
        var process: JetsamReport.Process
        var index: Int
        var key: String
        var kind: Kind
        var role: Role
        var frozen: Bool
        var band: Int
        var bytes: Bytes
        /// The kill of this process the replay makes, if any.
        var replayed: String?
        /// Set when the process was killed for a reason memprof carries as a fact.
        var fact: Bool = false
    }

    /// The reasons memprof replays, as xnu names them (bsd/kern/kern_memorystatus.c,
    /// `memorystatus_kill_cause_name`).
    public static let modelledReasons: Set<String> = ["vm-pageshortage", "per-process-limit", "highwater"]

    public let file: String
    /// The workload's `name`.
    public let name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    static let launchUs: Microseconds = 1_000_000
    /// The process that makes the demand.
    static let demandKey = "memprof-demand"
    static let spacingUs: Microseconds = 3_000_000
    /// Long enough for every app that left the foreground to age into the idle band (2 s under xnu).
    static let settleUs: Microseconds = 10_000_000

    /// The workload replaying `report`; refused (an error at the report's process that makes it
    /// impossible, with its key) when the moment has no app, or when its memory adds up past the
    /// largest RAM a workload describes (4096GB).
    public func workload(from report: JetsamReport) throws(IPSError) -> Result {
        let pageSize = report.memoryStatus.pageSize
        let version = report.osVersion
        let hasPriorities = report.processes.contains { $0.priority != nil }
        let bands: JetsamBands = hasPriorities
            ? ((report.processes.compactMap(\.priority).filter { $0 < 999 }.max() ?? 0) > 21 ? .modern : .legacy)
            : (version.map { JetsamBands.of(iosMajor: $0.major) } ?? .modern)
        var notes: [String] = []
        var facts: [String] = []

        // Every process, with its kind and band.
        var entries = Self.entries(of: report, bands: bands)
        guard entries.contains(where: { $0.kind == .app }) else {
            throw IPSError(file: file, line: report.processes.first?.line ?? 1, column: report.processes.first?.column ?? 1,
                           keyPath: "processes", message: "the report lists no app (\(report.processes.count) "
                               + "\(report.processes.count == 1 ? "process" : "processes"), none an app); "
                               + "a workload replays a moment of at least one app")
        }

        // Which kills are replayed.
        var (appLimitVictim, processLimitVictim) = Self.chooseReplayed(&entries, facts: &facts)
        // Band order: a process listed after the last band-walk victim survived the walk, so it
        // sits above that victim's band (reports list processes up the bands, xnu kills up them).
        if !hasPriorities, let last = entries.lastIndex(where: { $0.replayed == "vm-pageshortage" }) {
            let top = entries[last].band
            for j in entries.indices where j > last && entries[j].process.reason == nil && entries[j].kind != .app
                && entries[j].band <= top {
                entries[j].band = top + 1
            }
        }

        let kept = entries.filter { !$0.fact }
        if !kept.contains(where: { $0.kind == .app }), let app = entries.first(where: { $0.kind == .app }) {
            throw IPSError(file: file, line: app.process.line, column: app.process.column, keyPath: "processes[\(app.index)]",
                           message: "every app of the report was killed for a reason memprof carries as a fact, "
                               + "not replayed; a workload replays a moment of at least one app")
        }

        // The device.
        let product = report.product.flatMap(FieldProduct.named)
        let freeBytes = (report.memoryStatus.memoryPages?.free ?? 0) * pageSize
        let demandStart = pageSize
        let (ram, systemReserved) = try memory(of: report, entries: entries, product: product, demandStart: demandStart,
                                               notes: &notes)

        // The replay's kills, in the order the simulator makes them: highwater first (up the
        // bands), then the band walk; a per-process-limit app first of all.
        let pressureVictims = kept.filter { $0.replayed == "highwater" }.sorted { ($0.band, $0.index) < ($1.band, $1.index) }
            + kept.filter { $0.replayed == "vm-pageshortage" }.sorted { Self.walkOrder($0, $1) }
        var expected: [(app: String, reason: String)] = []
        var appLimit = product?.appLimit ?? ram
        var script: [YAMLValue] = []
        var t: Microseconds = 0
        let apps = kept.filter { $0.kind == .app }
        let frontmost = apps.first { $0.role == .frontmost }
        // Apps: the suspended ones, the running ones, and the frontmost app last; each frozen app
        // is frozen to flash as soon as it is suspended. Flash holds exactly the frozen apps, so
        // once they are frozen xnu's freezer freezes no other app on its own before the moment.
        // A band is a queue that the kill walks from its head and that a report lists in that
        // order (xnu-2782.1.97 bsd/kern/kern_memorystatus.c:2226 and :2333 both walk
        // `memorystatus_get_first_proc_locked`; :1069 a process joins the tail of its new band),
        // and freezing moves no process (:2784 only sets its state). So where frozen apps keep
        // the idle band (before iOS 12) the victims enter it first, frozen or not, in the report's
        // order, then the frozen apps that survived, then the others: the walk stops at the last
        // victim, and no app that the report has unfrozen waits suspended, ahead of a frozen one,
        // for the freezer (which takes the head of the lowest band first, :2721) to freeze it
        // instead. Where frozen apps have a band of their own, they go first of all.
        let order = apps.filter { $0.role != .frontmost }.sorted { a, b in
            func rank(_ e: Entry) -> (Int, Int, Int, Int) {
                let frozen = e.frozen && e.role == .suspended ? 0 : 1, victim = e.replayed != nil ? 0 : 1
                return bands.hasFrozenBand ? (frozen, e.role.rawValue, victim, e.index)
                    : (e.role.rawValue, victim, frozen, e.index)
            }
            return rank(a) < rank(b)
        }
        var limitVictimBytes: Bytes?
        if let v = appLimitVictim.map({ entries[$0] }) {
            appLimit = v.bytes
            limitVictimBytes = v.bytes
            notes.append("appLimit \(Format.bytes(appLimit)): \(v.process.name)'s resident pages when it was killed")
        }
        var footprints: [String: Bytes] = [:]
        for app in apps {
            var bytes = app.bytes
            if app.replayed == "per-process-limit" { bytes -= Self.limitMargin(bytes) }
            footprints[app.key] = bytes
        }
        let frozen = order.filter { $0.frozen && $0.role == .suspended }
        var toFreeze: String?
        func opened() {
            if let key = toFreeze { script.append(Self.step(t + 500_000, ("freeze", .word(key)))) }
            toFreeze = nil
        }
        for app in order {
            script.append(Self.step(t, ("open", .word(app.key))))
            opened()
            if app.role == .audio { script.append(Self.step(t + Self.launchUs + 500_000, ("play", .word(app.key)))) }
            if app.frozen && app.role == .suspended { toFreeze = app.key }
            t += Self.spacingUs
        }
        if let frontmost {
            script.append(Self.step(t, ("open", .word(frontmost.key))))
        } else if !order.isEmpty {
            script.append(Self.step(t, ("home", .bool(true))))
        }
        opened()
        let flash = frozen.reduce(Int64(0)) { $0 + footprints[$1.key]! }
        let killAt = t + Self.settleUs
        var at = killAt
        if let v = appLimitVictim.map({ entries[$0] }), let limit = limitVictimBytes {
            let margin = limit - footprints[v.key]!
            script.append(Self.step(at, ("allocate", .word(v.key)), ("size", .word(Self.size(margin + pageSize)))))
            expected.append((v.key, "per-process-limit"))
            at += 1_000_000
        }
        // A process past its fatal limit: resident a little under it, it asks for one page past it.
        let processVictim = processLimitVictim.map { entries[$0] }
        func killProcessVictim() {
            guard let v = processVictim else { return }
            script.append(Self.step(at, ("allocate", .word(v.key)), ("size", .word(Self.size(Self.limitMargin(v.bytes) + pageSize)))))
            at += 1_000_000
        }
        if pressureVictims.isEmpty, let v = processVictim {
            killProcessVictim()
            expected.append((v.process.name, "per-process-limit"))
        }
        if !pressureVictims.isEmpty {
            // Frozen apps are on flash: their memory is not in use; a process victim's margin is free.
            let frozenBytes = frozen.reduce(Int64(0)) { $0 + $1.bytes }
            var free = freeBytes + frozenBytes + (processVictim.map { Self.limitMargin($0.bytes) } ?? 0)
            // The walk below the foreground band: the demanding process asks for what is free,
            // what every victim but the last frees, and one page more.
            let last = pressureVictims.last!
            let frontVictim = last.kind == .app && last.role == .frontmost ? last : nil
            let below = frontVictim == nil ? pressureVictims : Array(pressureVictims.dropLast())
            // The process victim dies where the report puts it among the walk's victims (by
            // killDelta): the walk is split there, when the victims before it are the walk's first.
            var split = 0
            if let v = processVictim, let delta = v.process.killDelta, below.allSatisfy({ $0.process.killDelta != nil }) {
                let earlier = Set(below.filter { $0.process.killDelta! < delta }.map(\.index))
                // Not inside the highwater victims: the highwater pass would take them all at once.
                if Set(below.prefix(earlier.count).map(\.index)) == earlier,
                   !below.dropFirst(earlier.count).contains(where: { $0.replayed == "highwater" }) {
                    split = earlier.count
                }
            }
            func walk(_ part: ArraySlice<Entry>) {
                guard let tail = part.last else { return }
                let freed = part.reduce(Int64(0)) { $0 + ($1.frozen ? 0 : $1.bytes) }
                let demand = free + freed - (tail.frozen ? 0 : tail.bytes) + pageSize
                script.append(Self.step(at, ("allocate", .word(Self.demandKey)), ("size", .word(Self.size(demand)))))
                free += freed - demand
                at += 1_000_000
            }
            walk(below.prefix(split))
            if let v = processVictim {
                killProcessVictim()
                free += v.bytes - Self.limitMargin(v.bytes)
            }
            walk(below.dropFirst(split))
            // The frontmost app dies last: once nothing below its band is left to take, its own
            // next page does not fit, a page shortage (memprof's xnu kills the demanding app).
            if let v = frontVictim {
                let ask = free + pageSize
                script.append(Self.step(at, ("allocate", .word(v.key)), ("size", .word(Self.size(ask)))))
                appLimit = max(appLimit, footprints[v.key]! + ask + pageSize)
            }
            let walkStart = expected.count
            for v in pressureVictims { expected.append((v.kind == .app ? v.key : v.process.name, v.replayed!)) }
            if let v = processVictim { expected.insert((v.process.name, "per-process-limit"), at: walkStart + split) }
            if let frontmost { appLimit = max(appLimit, footprints[frontmost.key]! + pageSize) }
        }
        appLimit = max(appLimit, (apps.map { footprints[$0.key]! }.max() ?? 0) + pageSize)

        var device: [YAMLEntry] = [
            .pair("ram", .word(Self.size(ram))), .pair("systemReserved", .word(Self.size(systemReserved))),
            .pair("appLimit", .word(Self.size(appLimit))), .pair("flash", .word(Self.size(flash))),
            .pair("flashReadRate", .word("200MB/s")), .pair("pageSize", .word(Self.size(pageSize))),
        ]
        if let os = (report.build ?? report.header.osVersion).nonEmpty, IOSVersion.parse(os) != nil {
            device.append(.pair("osVersion", .text(os)))
        }
        // The hardware identifier, when it reads as one (a workload refuses anything else).
        if let p = report.product, Device.isHardwareIdentifier(p) {
            device.append(.pair("product", .text(p)))
        } else if let p = report.product {
            device.append(.comment("product: \(p)"))
        }
        var document = YAMLDocument(entries: [
            .pair("memprof", .int(1)), .pair("name", .word(name)), .pair("duration", .word(Self.seconds(at + 30_000_000))),
            .pair("device", .mapping(device)), .pair("policy", .word("xnu")),
            .pair("apps", .mapping(apps.map { app in .pair(app.key, Self.app(app, footprint: footprints[app.key]!)) })),
            .pair("processes", .mapping(kept.filter { $0.kind != .app }.map { .pair($0.key, Self.process($0, pageSize: pageSize)) }
                + [.pair(Self.demandKey, .mapping([.pair("name", .word(Self.demandKey)), .pair("kind", .word("system")),
                                                  .pair("band", .int(Int64(bands.top))),
                                                  .pair("resident", .word(Self.size(demandStart)))], flow: true))])),
            .pair("script", .sequence(script.isEmpty ? [Self.step(0, ("home", .bool(true)))] : script)),
        ])

        // The replay, run: what the workload does is what import says, whatever the plan above.
        let replayed = try replay(document.text, report: report)
        let differences = Self.differences(planned: expected, replayed: replayed)
        document.comments = ["Imported by memprof from \(file)",
                             (report.header.osVersion.isEmpty ? (report.build ?? "") : report.header.osVersion)
                                 + (report.product.map { ", \($0)" } ?? "") + ", \(report.header.timestamp)",
                             "\(report.processes.count) processes: \(apps.count) apps, \(kept.count - apps.count) other processes"]
        for (n, kill) in replayed.enumerated() { document.comments.append("replays kill \(n + 1): \(kill.app) (\(kill.reason))") }
        document.comments += facts.map { "fact: \($0)" } + differences.map { "unlike the report: \($0)" } + notes
        return Result(yaml: document.text, expectedKills: replayed, facts: facts, notes: notes, differences: differences)
    }

    /// An app of the workload: its name, launch, compression ratio and what keeps it running.
    static func app(_ app: Entry, footprint: Bytes) -> YAMLValue {
        var entries: [YAMLEntry] = [
            .pair("name", .text(app.process.name)),
            .pair("launch", .mapping([.pair("footprint", .word(size(footprint))), .pair("time", .word("1s"))], flow: true)),
            // The replay counts each process's footprint (its rpages, compressed pages included)
            // against what the report left free, which is after the compressor's pool: at a
            // ratio of 1 the pool is not taken off a second time.
            .pair("compressionRatio", .int(1)),
        ]
        switch app.role {
        case .audio: entries.append(.pair("modes", .sequence([.word("audio")], flow: true)))
        case .running:
            entries.append(.pair("backgroundTask", .mapping([.pair("time", .word("10m")), .pair("endsOnExpiration", .bool(true))],
                                                            flow: true)))
        case .suspended, .frontmost: break
        }
        return .mapping(entries)
    }

    /// A process that is not an app, on one line: its name, kind, band and memory.
    static func process(_ p: Entry, pageSize: Bytes) -> YAMLValue {
        var entries: [YAMLEntry] = [.pair("name", .text(p.process.name)), .pair("kind", .word(p.kind.rawValue)),
                                    .pair("band", .int(Int64(p.band)))]
        if p.replayed == "per-process-limit" {
            entries += [.pair("resident", .word(size(p.bytes - limitMargin(p.bytes)))), .pair("memoryLimit", .word(size(p.bytes)))]
        } else {
            entries.append(.pair("resident", .word(size(p.bytes))))
        }
        if p.replayed == "highwater" { entries.append(.pair("highWaterMark", .word(size(p.bytes - pageSize)))) }
        return .mapping(entries, flow: true)
    }

    /// A step of the script: `{at: 3s, open: mail}`, and more keys after the action's.
    static func step(_ at: Microseconds, _ action: (String, YAMLValue), _ more: (String, YAMLValue)...) -> YAMLValue {
        .mapping([.pair("at", .word(seconds(at))), .pair(action.0, action.1)] + more.map { .pair($0.0, $0.1) }, flow: true)
    }

    /// The device's RAM and the memory reserved for the system (the report's memory status and
    /// product, and what its processes hold), each step said in `notes`; refused when the moment
    /// needs more RAM than a workload describes.
    func memory(of report: JetsamReport, entries: [Entry], product: FieldProduct?, demandStart: Bytes,
                notes: inout [String]) throws(IPSError) -> (ram: Bytes, systemReserved: Bytes) {
        let pageSize = report.memoryStatus.pageSize
        let listed = entries.reduce(Int64(0)) { $0 + $1.bytes }
        let freeBytes = (report.memoryStatus.memoryPages?.free ?? 0) * pageSize
        let factBytes = entries.filter(\.fact).reduce(Int64(0)) { $0 + $1.bytes }
        var ram: Bytes
        if let product {
            ram = product.ram
            notes.append("RAM \(Format.bytes(ram)): \(product.model) (\(product.product))")
        } else {
            let physical = report.memoryStatus.memoryPages.map { ($0.physical + (report.memoryStatus.compressorSize ?? 0)) * pageSize }
                ?? (listed + freeBytes)
            ram = Self.roundUp(max(physical, 1), to: 512 * .megabyte)
            notes.append("RAM \(Format.bytes(ram)): the report's memory pages (\(Format.bytes(physical))) rounded up to 512 MB"
                + (report.product.map { "; product \($0) is not in memprof's table" } ?? ""))
        }
        // Resident pages count shared memory once per process, so they can add up past RAM.
        let minimumReserve: Bytes = 64 * .megabyte
        if listed + freeBytes + minimumReserve > ram {
            let grown = Self.roundUp(listed + freeBytes + minimumReserve, to: 512 * .megabyte)
            notes.append("RAM \(Format.bytes(grown)): the processes' resident pages (\(Format.bytes(listed))) and the free "
                + "pages add up past \(Format.bytes(ram)) (shared pages are counted once per process)")
            ram = grown
        }
        // Jetsam kills while available memory is at or under its critical threshold, a fraction
        // of RAM (PolicySettings.levelBytes): the apps share that much more than what the report
        // shows resident and free, so that a demand fails where the report's memory ran out.
        let osText = (report.build ?? report.header.osVersion).nonEmpty.flatMap { IOSVersion.parse($0) != nil ? $0 : nil }
        func criticalReserve(_ ram: Bytes) -> Bytes {
            let device = Device(name: "", platform: .ios, ram: ram, systemReserved: 0, appLimit: ram, flash: 0,
                                flashReadRate: 0, pageSize: pageSize, cpuScale: 1, osVersion: osText)
            var policy = PolicySettings.xnu
            policy.xnu = .forDevice(device)
            return ram - policy.levelBytes(on: device).limit
        }
        func tooMuch(_ ram: Bytes) -> IPSError {
            let largest = entries.indices.max { entries[$0].bytes < entries[$1].bytes }!
            let p = entries[largest].process
            return IPSError(file: file, line: p.line, column: p.column, keyPath: "processes[\(largest)].rpages",
                            message: "the processes' resident pages (\(Format.bytes(listed))) and the free pages "
                                + "need \(Format.bytes(ram)) of RAM, more than the \(Format.bytes(Quantity.maxBytes)) "
                                + "a workload describes (the largest, \(p.name), has \(p.rpages) pages)")
        }
        guard ram <= Quantity.maxBytes else { throw tooMuch(ram) }
        var systemReserved = ram - listed - freeBytes + factBytes - demandStart - criticalReserve(ram)
        if systemReserved < 0 {
            while systemReserved < 0 {
                ram += 512 * .megabyte
                guard ram <= Quantity.maxBytes else { throw tooMuch(ram) }
                systemReserved = ram - listed - freeBytes + factBytes - demandStart - criticalReserve(ram)
            }
            notes.append("RAM \(Format.bytes(ram)): room for jetsam's critical threshold")
        }
        notes.append("reserved \(Format.bytes(systemReserved)) for the kernel, wired memory and kills not replayed, "
            + "less jetsam's critical threshold (\(Format.bytes(criticalReserve(ram))) of available memory)")

        return (ram, systemReserved)
    }

    /// Every process of the report, with its kind, role and band (the report's `processes`).
    static func entries(of report: JetsamReport, bands: JetsamBands) -> [Entry] {
        let pageSize = report.memoryStatus.pageSize
        var entries: [Entry] = []
        var usedKeys: Set<String> = [Self.demandKey]
        var previousBand = bands.idle
        var previousKind = Kind.system
        var frontmostSeen = false
        for (i, p) in report.processes.enumerated() {
            var kind = Self.kind(of: p, bands: bands)
            var role: Role = .suspended
            if kind == .app {
                role = Self.role(of: p, bands: bands)
                if role == .frontmost {
                    // One app is in front; another frontmost one is a helper of it.
                    if frontmostSeen { kind = .extension } else { frontmostSeen = true }
                }
            }
            let band = p.priority.map { max(0, $0) }
                ?? Self.band(of: p, kind: kind, role: role, bands: bands, previous: previousBand, previousKind: previousKind)
            previousBand = band
            previousKind = kind
            let key = Self.uniqueKey(for: p.name, taken: &usedKeys)
            entries.append(Entry(process: p, index: i, key: key, kind: kind, role: role,
                                 frozen: kind == .app && p.states.contains("frozen"), band: band,
                                 bytes: max(2, p.rpages) * pageSize))
        }
        return entries
    }

    /// Which kills of the report the replay makes (the processes' `reason`s, in the order of their
    /// `killDelta`): marks them `replayed`, and the others as facts, said in `facts`. Returns the
    /// app and the other process replayed past their per-process limit, if any.
    static func chooseReplayed(_ entries: inout [Entry], facts: inout [String]) -> (app: Int?, process: Int?) {
        let killOrder = entries.indices.filter { entries[$0].process.reason != nil }.sorted { a, b in
            let da = entries[a].process.killDelta, db = entries[b].process.killDelta
            if let da, let db, da != db { return da < db }
            return a < b
        }
        var appLimitVictim: Int?
        var processLimitVictim: Int?
        for j in killOrder {
            let p = entries[j].process
            let reason = p.reason!
            let what = "\(p.name) killed for \(reason)"
            switch reason {
            case "vm-pageshortage":
                entries[j].replayed = reason
            case "highwater" where entries[j].kind != .app:
                entries[j].replayed = reason
                if entries[j].kind == .system { entries[j].kind = .daemon }
            case "per-process-limit" where entries[j].kind == .app && entries[j].role != .suspended && appLimitVictim == nil:
                appLimitVictim = j
                entries[j].replayed = reason
            case "per-process-limit" where entries[j].kind != .app && processLimitVictim == nil:
                // A daemon, extension or system process past its fatal limit (`memoryLimit`).
                processLimitVictim = j
                entries[j].replayed = reason
            case "per-process-limit":
                entries[j].fact = true
                facts.append("\(what): memprof replays the per-process limit of one running app and one other "
                    + "process per moment, not of \(entries[j].kind == .app ? "this app" : "a second \(entries[j].kind.rawValue)")")
            case "highwater":
                entries[j].fact = true
                facts.append("\(what): memprof gives high-water marks to processes that are not apps")
            default:
                entries[j].fact = true
                facts.append("\(what): not a reason memprof models")
            }
        }
        if let v = appLimitVictim, let big = entries.first(where: { $0.kind == .app && $0.index != v && $0.bytes >= entries[v].bytes }) {
            entries[v].replayed = nil
            entries[v].fact = true
            appLimitVictim = nil
            facts.append("\(entries[v].process.name) killed for per-process-limit: \(big.process.name) is resident with more "
                + "than its limit, and memprof has one app limit per device")
        }

        return (appLimitVictim, processLimitVictim)
    }

    /// Runs the workload `yaml` and returns its memory kills in order: the name report.json gives
    /// each killed process and its jetsam reason. A workload `run` would refuse is refused here.
    func replay(_ yaml: String, report: JetsamReport) throws(IPSError) -> [(app: String, reason: String)] {
        let workload: Workload
        do {
            workload = try WorkloadParser(file: "\(name).yaml").parse(yaml)
        } catch {
            let first = report.processes.first
            throw IPSError(file: file, line: first?.line ?? 1, column: first?.column ?? 1, keyPath: "processes",
                           message: "memprof cannot replay this moment: the workload it makes is refused (\(error))")
        }
        let kills = KillRecorder()
        var simulator = Simulator(workload: workload, options: Simulator.Options(sink: kills))
        _ = simulator.run()
        let names = workload.jetsamNames
        return kills.kills.map { (names[$0.killed], $0.reason.jetsamReason ?? $0.reason.rawValue) }
    }

    /// What the replay does that the report does not say, in words: each kill of the plan the
    /// replay does not make, each kill it makes beyond the plan, and an order that differs.
    static func differences(planned: [(app: String, reason: String)], replayed: [(app: String, reason: String)]) -> [String] {
        func key(_ k: (app: String, reason: String)) -> String { "\(k.app) (\(k.reason))" }
        var out: [String] = []
        var left = Dictionary(replayed.map { (key($0), 1) }, uniquingKeysWith: +)
        for kill in planned.map(key) {
            if let n = left[kill], n > 0 { left[kill] = n - 1 } else { out.append("the replay does not kill \(kill)") }
        }
        var extra = Dictionary(planned.map { (key($0), 1) }, uniquingKeysWith: +)
        for kill in replayed.map(key) {
            if let n = extra[kill], n > 0 { extra[kill] = n - 1 } else { out.append("the replay also kills \(kill)") }
        }
        let plannedKeys = Set(planned.map(key)), replayedKeys = Set(replayed.map(key))
        let common = planned.map(key).filter(replayedKeys.contains)
        if common != replayed.map(key).filter(plannedKeys.contains) {
            let listed = replayed.prefix(Result.listed).map(key).joined(separator: ", ")
            out.append("the replay kills in another order: " + listed
                       + (replayed.count > Result.listed ? " and \(replayed.count - Result.listed) more" : ""))
        }
        return out
    }

    /// How far under its limit a `per-process-limit` victim starts: a megabyte, or half of it when
    /// it is smaller.
    static func limitMargin(_ bytes: Bytes) -> Bytes { min(.megabyte, bytes / 2) }

    /// The order of xnu's band walk (memprof's `xnu` policy): up the bands; in a band, processes
    /// (resident from the start) before apps, each in the report's order.
    static func walkOrder(_ a: Entry, _ b: Entry) -> Bool {
        if a.band != b.band { return a.band < b.band }
        if (a.kind == .app) != (b.kind == .app) { return b.kind == .app }
        return a.index < b.index
    }

    /// Daemons say so; a process without states, or above the audio band, is the system
    /// (SpringBoard, backboardd); reverse-DNS names and `…Extension` are helpers and extensions.
    static func kind(of p: JetsamReport.Process, bands: JetsamBands) -> Kind {
        if p.states.contains("daemon") { return .daemon }
        if p.states.isEmpty || p.name == "SpringBoard" || (p.priority ?? 0) > bands.audio { return .system }
        if p.name.contains(".") || p.name.hasSuffix("Extension") || p.name.hasSuffix("Service") { return .extension }
        return .app
    }

    static func role(of p: JetsamReport.Process, bands: JetsamBands) -> Role {
        let s = p.states
        if s.contains("frontmost") { return .frontmost }
        if s.contains("audio") || (p.priority ?? -1) == bands.audio { return .audio }
        if s.contains("suspended") || s.contains("frozen") { return .suspended }
        if s.contains("active") || s.contains("background") || s.contains("continuous") { return .running }
        return .suspended
    }

    /// The band of a process in a report without `priority`: the era's band for its states. A
    /// daemon that is not idle, or a helper, has no band the report tells; it sits where the report
    /// lists it (reports list the processes up the bands): in the band of the process before it,
    /// or one above when that is an app, since memprof's walk takes a band's processes before its
    /// apps (`ios7.0.4-…`: MobileMail, continuous, then the daemons tccd and kbd, were killed in
    /// that order).
    static func band(of p: JetsamReport.Process, kind: Kind, role: Role, bands: JetsamBands, previous: Int,
                     previousKind: Kind) -> Int {
        switch kind {
        case .app:
            switch role {
            case .frontmost: return bands.foreground
            case .audio: return bands.audio
            case .running: return bands.background
            case .suspended: return p.states.contains("frozen") ? bands.frozen : bands.idle
            }
        case .system:
            return p.name == "SpringBoard" ? bands.home : max(previous, bands.home)
        case .daemon, .extension:
            if p.states.contains("idle") { return bands.idle }
            if p.states.contains("frontmost") { return bands.foreground }
            return previousKind == .app ? previous + 1 : previous
        }
    }

    /// An app key from a process name: lowercase letters, digits and '-', unique in the workload.
    static func uniqueKey(for name: String, taken: inout Set<String>) -> String {
        var key = ""
        for c in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(c) || ("0"..."9").contains(c) {
                key.unicodeScalars.append(c)
            } else if !key.isEmpty, !key.hasSuffix("-") {
                key += "-"
            }
        }
        while key.hasSuffix("-") { key.removeLast() }
        if key.isEmpty || !("a"..."z").contains(key.unicodeScalars.first!) { key = "app-" + key }
        if key.hasSuffix("-") { key.removeLast() }
        if key.count > 48 { key = String(key.prefix(48)) }
        while key.hasSuffix("-") { key.removeLast() }
        var candidate = key
        var n = 2
        while taken.contains(candidate) {
            candidate = "\(key)-\(n)"
            n += 1
        }
        taken.insert(candidate)
        return candidate
    }

    static func roundUp(_ bytes: Bytes, to step: Bytes) -> Bytes { (bytes + step - 1) / step * step }

    static func size(_ bytes: Bytes) -> String {
        bytes % 1024 == 0 ? "\(bytes / 1024)KB" : "\(bytes)B"
    }

    static func seconds(_ us: Microseconds) -> String {
        us % 1_000_000 == 0 ? "\(us / 1_000_000)s" : "\(us / 1000)ms"
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// The memory kills of a run as the engine takes their snapshots: the killed process's index
/// and the reason, nothing else kept (a replay of thousands of kills holds a few bytes each).
final class KillRecorder: SimulationSink {
    var kills: [(killed: Int, reason: ExitReason)] = []

    func record(_ event: consuming SimEvent, app: Int?) {}

    func record(_ snapshot: consuming JetsamSnapshot) {
        kills.append((snapshot.killed, snapshot.exitReason))
    }

    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes,
                       compressorBytes: Bytes) {}
}
