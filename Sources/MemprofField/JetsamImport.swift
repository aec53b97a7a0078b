import MemprofCore

/// `memprof import JETSAM.ips -o workload.yaml`: a workload that reproduces the moment before a
/// device's jetsam kill, so that running it under the `xnu` policy kills the process the report
/// names for the reason it names.
///
/// The moment is rebuilt from the report: the device's RAM from its `product` (or from its
/// memory pages), every app process with its resident size and its state (the `frontmost` one
/// opened last, `audio` ones playing, `active` ones running a background task, the others
/// suspended), daemons and everything above the audio band as fixed reserved memory, and the
/// free pages as what is left. At the kill moment the app that made the demand asks for one page
/// more than the report shows free (`vm-pageshortage`), or the killed app goes one page past its
/// limit, which is its resident size in the report (`per-process-limit`).
public struct JetsamImport {
    /// What the importer made of a report, for the command's summary and for tests.
    public struct Result: Sendable, Equatable {
        public var yaml: String
        /// The workload's app key of each killed process, and the exit reason expected under `xnu`.
        public var expectedKills: [(app: String, reason: ExitReason)]
        public var notes: [String]

        public static func == (a: Result, b: Result) -> Bool {
            a.yaml == b.yaml && a.notes == b.notes
                && a.expectedKills.map(\.app) == b.expectedKills.map(\.app)
                && a.expectedKills.map(\.reason) == b.expectedKills.map(\.reason)
        }
    }

    enum Role: Int, Comparable {
        case suspended = 0
        case running
        case audio
        case frontmost
        static func < (a: Role, b: Role) -> Bool { a.rawValue < b.rawValue }
    }

    struct App {
        var process: JetsamReport.Process
        var index: Int
        var key: String
        var role: Role
        var band: Int
        var bytes: Bytes
    }

    public let file: String
    /// The workload's `name`.
    public let name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    static let launchUs: Microseconds = 1_000_000
    /// The app that makes the demand when the report shows none running.
    static let demandApp = "memprof-demand"
    static let spacingUs: Microseconds = 3_000_000
    /// Long enough for every app that left the foreground to age into the idle band (2 s under xnu).
    static let settleUs: Microseconds = 10_000_000

    public func workload(from report: JetsamReport) throws(IPSError) -> Result {
        func fail(_ p: JetsamReport.Process?, _ path: String, _ message: String) -> IPSError {
            IPSError(file: file, line: p?.line ?? 0, column: p?.column ?? 0, keyPath: path, message: message)
        }
        let pageSize = report.memoryStatus.pageSize
        let killed = report.processes.enumerated().filter { $0.element.reason != nil }
        guard !killed.isEmpty else {
            throw fail(nil, "processes", "no process has a 'reason': nothing was killed in this report, so there is no kill to replay")
        }
        let reasons = Set(killed.map { $0.element.reason! })
        for (i, p) in killed where !["vm-pageshortage", "per-process-limit"].contains(p.reason!) {
            throw fail(p, "processes[\(i)].reason",
                       "'\(p.reason!)' kills are not modelled by memprof (it replays vm-pageshortage and per-process-limit kills)")
        }
        guard reasons.count == 1 else {
            throw fail(killed[1].element, "processes[\(killed[1].offset)].reason",
                       "this moment kills for both vm-pageshortage and per-process-limit; memprof replays one kind per moment")
        }
        let reason = reasons.first!

        // Which processes are apps, and in which band.
        let version = report.osVersion
        let appPriorities = report.processes.filter { !$0.states.contains("daemon") }.compactMap(\.priority)
        // The numbers decide the era (a band over 21 exists only from xnu-8792 on); the OS version
        // only when the report has no priorities.
        let bands: JetsamBands = appPriorities.isEmpty
            ? (version.map { JetsamBands.of(iosMajor: $0.major) } ?? .modern)
            : ((appPriorities.max() ?? 0) > 21 ? .modern : .legacy)
        var apps: [App] = []
        var reservedPages: Int64 = 0
        var usedKeys: Set<String> = [Self.demandApp]
        for (i, p) in report.processes.enumerated() {
            let isApp = !p.states.contains("daemon") && (p.priority.map { $0 <= bands.audio } ?? true)
            guard isApp else {
                if p.reason != nil {
                    throw fail(p, "processes[\(i)]", "'\(p.name)' is a system process (states \(p.states), priority "
                        + "\(p.priority.map(String.init) ?? "none")); memprof replays kills of apps only")
                }
                reservedPages += p.rpages
                continue
            }
            let role: Role = p.states.contains("frontmost") ? .frontmost
                : (p.states.contains("audio") || (p.priority ?? -1) == bands.audio) ? .audio
                : (p.states.contains("active") && !p.states.contains("suspended")) ? .running : .suspended
            let key = Self.uniqueKey(for: p.name, taken: &usedKeys)
            apps.append(App(process: p, index: i, key: key, role: role, band: p.priority ?? bands.priority(states: p.states),
                            bytes: max(1, p.rpages) * pageSize))
        }
        if apps.filter({ $0.role == .frontmost }).count > 1 {
            throw fail(nil, "processes", "more than one app is frontmost; memprof replays one foreground app")
        }
        if apps.count(where: { $0.role == .audio }) > 1 {
            // One app plays at a time in memprof; the others are background apps that stay running.
            var seenAudio = false
            for j in apps.indices where apps[j].role == .audio {
                if seenAudio { apps[j].role = .running }
                seenAudio = true
            }
        }
        let appBytes = apps.reduce(Int64(0)) { $0 + $1.bytes }

        // The device.
        var notes: [String] = []
        let product = report.product.flatMap(FieldProduct.named)
        let ram: Bytes
        if let product {
            ram = product.ram
            notes.append("RAM \(Format.bytes(ram)): \(product.model) (\(product.product))")
        } else if let pages = report.memoryStatus.memoryPages {
            let physical = (pages.physical + (report.memoryStatus.compressorSize ?? 0)) * pageSize
            let step: Bytes = 512 * .megabyte
            ram = max(step, (physical + step - 1) / step * step)
            notes.append("RAM \(Format.bytes(ram)): the report's memory pages (\(Format.bytes(physical))) rounded up to 512 MB"
                + (report.product.map { "; product \($0) is not in memprof's table" } ?? ""))
        } else {
            throw fail(nil, report.product == nil ? "" : "product",
                       "cannot tell the device's RAM: "
                       + (report.product.map { "product \($0) is not in memprof's table" } ?? "the report names no product")
                       + " and the report has no memoryStatus.memoryPages")
        }
        let freeBytes = (report.memoryStatus.memoryPages?.free ?? 0) * pageSize
        let systemReserved = ram - appBytes - freeBytes
        guard systemReserved > 0 else {
            throw fail(nil, "processes", "the apps' resident pages (\(Format.bytes(appBytes))) and the free pages "
                       + "(\(Format.bytes(freeBytes))) do not fit the device's \(Format.bytes(ram)) of RAM")
        }
        notes.append("reserved \(Format.bytes(systemReserved)) for daemons and the system "
            + "(\(Format.bytes(reservedPages * pageSize)) of it listed as processes)")

        // Who is killed, and who makes the demand.
        let victims = apps.filter { $0.process.reason != nil }
        let frontmost = apps.first { $0.role == .frontmost }
        var appLimit: Bytes
        let demander: App
        let demandBytes: Bytes
        var expected: [(app: String, reason: ExitReason)] = []
        if reason == "per-process-limit" {
            guard victims.count == 1 else {
                throw fail(victims[1].process, "processes[\(victims[1].index)].reason",
                           "more than one per-process-limit kill at one moment; memprof replays one")
            }
            let v = victims[0]
            guard v.role != .suspended else {
                throw fail(v.process, "processes[\(v.index)].states",
                           "'\(v.process.name)' was suspended; a per-process-limit kill needs a running app to allocate")
            }
            // A per-process-limit victim's resident pages are its limit (real reports show the
            // limit exactly), so it starts a little under and goes one page over.
            appLimit = v.bytes
            if let big = apps.first(where: { $0.key != v.key && $0.bytes >= v.bytes }) {
                throw fail(big.process, "processes[\(big.index)].rpages",
                           "'\(big.process.name)' is resident with more than \(v.process.name)'s limit "
                           + "(\(Format.bytes(v.bytes))); memprof has one app limit per device, so this moment cannot be replayed")
            }
            let margin = min(.megabyte, v.bytes / 2)
            apps[apps.firstIndex { $0.key == v.key }!].bytes = v.bytes - margin
            demander = v
            demandBytes = margin + pageSize
            expected = [(v.key, .memoryLimit)]
            notes.append("appLimit \(Format.bytes(appLimit)): \(v.process.name)'s resident pages when it was killed")
        } else {
            // vm-pageshortage: the foreground app (else a running one) asks for one page more than
            // is free, plus what every victim but the last frees.
            // With no app running (the home screen in front), a small app launched at the moment
            // stands for whatever asked for memory; the report does not say who did.
            let source = frontmost ?? apps.first(where: { $0.role == .running }) ?? apps.first(where: { $0.role == .audio })
                ?? App(process: JetsamReport.Process(pid: nil, name: Self.demandApp, states: ["frontmost"], priority: nil,
                                                     rpages: 1),
                       index: report.processes.count, key: Self.demandApp, role: .frontmost, band: bands.foreground,
                       bytes: pageSize)
            if source.key == Self.demandApp {
                apps.append(source)
                notes.append("no app was running at the moment; '\(Self.demandApp)' opens then and makes the demand")
            }
            demander = source
            let others = victims.filter { $0.key != source.key }
            let freedBeforeLast = others.dropLast().reduce(Int64(0)) { $0 + $1.bytes }
            demandBytes = freeBytes + freedBeforeLast + pageSize
            let limit = product?.appLimit ?? ram
            appLimit = max(limit, source.bytes + demandBytes + pageSize)
            expected = victims.map { ($0.key, .memoryPressure) }
        }

        // The script: victims first (least recently used), then the rest up the bands, then the
        // foreground app; the demand once every app has aged into its band.
        var order = apps.filter { $0.role != .frontmost }
        order.sort { a, b in
            let av = a.process.reason != nil, bv = b.process.reason != nil
            if av != bv { return av }
            if a.role != b.role { return a.role < b.role }
            if a.band != b.band { return a.band < b.band }
            return a.index < b.index
        }
        var script: [String] = []
        var t: Microseconds = 0
        for app in order {
            script.append("  - {at: \(Self.seconds(t)), open: \(app.key)}")
            if app.role == .audio { script.append("  - {at: \(Self.seconds(t + Self.launchUs + 500_000)), play: \(app.key)}") }
            t += Self.spacingUs
        }
        let killAt = t + Self.settleUs
        if demander.key == Self.demandApp {
            if !order.isEmpty { script.append("  - {at: \(Self.seconds(t)), home: true}") }
            script.append("  - {at: \(Self.seconds(killAt)), open: \(demander.key)}")
        } else {
            if let frontmost {
                script.append("  - {at: \(Self.seconds(t)), open: \(frontmost.key)}")
            } else if !order.isEmpty {
                script.append("  - {at: \(Self.seconds(t)), home: true}")
            }
            script.append("  - {at: \(Self.seconds(killAt)), allocate: \(demander.key), size: \(Self.size(demandBytes))}")
        }

        var y = "# Imported by memprof from \(file)\n"
        y += "# \(report.header.osVersion.isEmpty ? (report.build ?? "") : report.header.osVersion)"
        y += report.product.map { ", \($0)" } ?? ""
        y += ", \(report.header.timestamp)\n"
        for v in victims {
            y += "# killed: \(v.process.name) (\(v.process.reason!)), \(v.process.rpages) pages of \(pageSize) bytes\n"
        }
        for n in notes { y += "# \(n)\n" }
        y += "memprof: 1\nname: \(name)\nduration: \(Self.seconds(killAt + 30_000_000))\n"
        y += "device:\n  ram: \(Self.size(ram))\n  systemReserved: \(Self.size(systemReserved))\n"
        y += "  appLimit: \(Self.size(appLimit))\n  flash: 0B\n  flashReadRate: 200MB/s\n  pageSize: \(Self.size(pageSize))\n"
        y += "policy: xnu\napps:\n"
        for app in apps.sorted(by: { $0.index < $1.index }) {
            y += "  \(app.key):\n"
            y += "    name: \(Self.yamlString(app.process.name))\n"
            let footprint = app.key == Self.demandApp ? demandBytes : app.bytes
            y += "    launch: {footprint: \(Self.size(footprint)), time: 1s}\n"
            switch app.role {
            case .audio: y += "    modes: [audio]\n"
            case .running: y += "    backgroundTask: {time: 10m, endsOnExpiration: true}\n"
            case .suspended, .frontmost: break
            }
        }
        y += "script:\n" + script.joined(separator: "\n") + "\n"
        return Result(yaml: y, expectedKills: expected, notes: notes)
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
        var candidate = key
        var n = 2
        while taken.contains(candidate) {
            candidate = "\(key)-\(n)"
            n += 1
        }
        taken.insert(candidate)
        return candidate
    }

    static func size(_ bytes: Bytes) -> String {
        bytes % 1024 == 0 ? "\(bytes / 1024)KB" : "\(bytes)B"
    }

    static func seconds(_ us: Microseconds) -> String {
        us % 1_000_000 == 0 ? "\(us / 1_000_000)s" : "\(us / 1000)ms"
    }

    /// A YAML double-quoted scalar.
    static func yamlString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
