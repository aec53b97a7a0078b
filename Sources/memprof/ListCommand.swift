import ArgumentParser
import MemprofCore
import MemprofFleet
import MemprofOutput
import MemprofReport
import MemprofWorkload

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the built-in devices, policies, workloads and sweeps.",
        discussion: "Without a kind, lists all four, each under its name.")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case devices, policies, workloads, sweeps
    }

    @Argument(help: "devices, policies, workloads or sweeps (default: all four).")
    var kind: Kind?

    @Option(help: "Print this built-in workload's (or, with 'list sweeps', sweep's) YAML, to copy and edit.")
    var yaml: String?

    @Flag(help: "With 'list devices': where each device's numbers come from, a source per number.")
    var sources = false

    func validate() throws {
        if sources, kind != .devices { throw ValidationError("--sources goes with 'list devices'") }
        guard let yaml else { return }
        guard kind == nil || kind == .workloads || kind == .sweeps else {
            throw ValidationError("--yaml goes with 'list workloads' or 'list sweeps'")
        }
        if kind == .sweeps {
            guard BuiltinSweeps.all.contains(where: { $0.name == yaml }) else {
                throw ValidationError("no built-in sweep named '\(yaml)'; built-in: " + BuiltinSweeps.all.map(\.name).joined(separator: ", "))
            }
        } else if !BuiltinWorkloads.all.contains(where: { $0.name == yaml }) {
            let sweep = BuiltinSweeps.all.contains { $0.name == yaml } ? " ('\(yaml)' is a built-in sweep: memprof list sweeps --yaml \(yaml))" : ""
            throw ValidationError("no built-in workload named '\(yaml)'; built-in: "
                + BuiltinWorkloads.all.map(\.name).joined(separator: ", ") + sweep)
        }
    }

    func run() throws {
        if let yaml, kind == .sweeps, let entry = BuiltinSweeps.all.first(where: { $0.name == yaml }) {
            return try StandardStream.out(entry.yaml + "\n")
        }
        if let yaml, let entry = BuiltinWorkloads.all.first(where: { $0.name == yaml }) {
            return try StandardStream.out(entry.yaml + "\n")
        }
        if sources { return try StandardStream.out(Self.deviceSources().map { $0 + "\n" }.joined()) }
        guard let kind else {
            let sections = Kind.allCases.map { "\($0.rawValue):\n" + Self.lines($0).map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined() }
            return try StandardStream.out(sections.joined(separator: "\n"))
        }
        try StandardStream.out(Self.lines(kind).map { $0 + "\n" }.joined())
    }

    /// The table of one kind, a line per row.
    static func lines(_ kind: Kind) -> [String] {
        switch kind {
        case .devices:
            let rows = [["device", "platform", "RAM", "app memory", "app limit", "flash store", "limit from",
                         "shipped", "latest", "osVersion", "page"]]
                + Device.presets.map { d in
                    let model = DeviceModel.named(d.name)
                    return [d.name, d.platform.rawValue, Format.bytes(d.ram), Format.bytes(d.appMemory),
                            Self.megabytes(d.appLimit), Format.bytes(d.flash), model.map { Self.limitFrom($0.limit) } ?? "all of RAM",
                            model?.shippedOS ?? "-", model?.latestOS ?? "-", d.osVersion ?? "-", Format.bytes(d.pageSize)]
                }
            return TextTable.render(rows, rightAligned: [2, 3, 4, 5, 10])
                + ["", "Where each number comes from: memprof list devices --sources"]
        case .policies:
            let rows = PolicySettings.presets.map { p -> [String] in
                let levels = "warning at \(p.warningLevel), critical at \(p.criticalLevel)"
                guard let x = p.xnu else {
                    return [p.name, "compress under \(Format.bytes(p.compressionThreshold)), evict \(p.evictionOrder.rawValue), " + levels]
                }
                let aging = x.appsAge ? "aging \(x.agingBand ?? x.idleBand) for \(Format.duration(x.agingUs))" : "no aging band"
                return [p.name, "jetsam bands (\(x.xnuTag ?? "xnu"); a device's iOS version picks its era) idle \(x.idleBand), "
                    + "\(aging), background \(x.backgroundBand), frozen \(x.frozenBand.map(String.init) ?? "in their band"), "
                    + "foreground \(x.foregroundBand), audio \(x.audioBand); freezer: suspended apps ≥ "
                    + "\(Format.bytes(x.freezeMinFootprint)) while available < \(Int(x.freezeThreshold * 100))% of RAM and > "
                    + "\(x.freezeSuspendedThreshold) unfrozen, at most \(x.frozenProcessesMax.map(String.init) ?? "any number of") frozen; "
                    + "highwater kills under \(Int(x.pressureThreshold * 100))% of RAM available; on a phone suspended apps "
                    + "compress in RAM (\(Format.ratio(AppSpec.defaultCompressionRatio)) unless an app says), warning under "
                    + "\(Self.percent(x.pressureThreshold)) of RAM available, critical under \(Self.percent(x.criticalThreshold)), "
                    + Self.freezerBudgets() + "; on a Mac " + levels]
            }
            return TextTable.render(rows)
        case .workloads:
            let rows = BuiltinWorkloads.all.map { w in
                [w.name + (w.name == BuiltinWorkloads.defaultName ? " (default)" : ""), w.summary]
            }
            return TextTable.render(rows)
        case .sweeps:
            return TextTable.render(BuiltinSweeps.all.map { [$0.name, $0.summary] })
        }
    }

    /// The `xnu` freezer's daily budget of writes to flash era by era, as runs write it in
    /// `summary.freezer.dailyBudgetBytes` (the device's iOS version picks the era): `freezer
    /// budget a day: none to iOS 11, 1024 MB iOS 12 to 17 (xnu-4903.221.2 to xnu-10002.1.13), ...`.
    static func freezerBudgets() -> String {
        let last = 18  // era(iosMajor:) gives every major from 18 on the same era
        var spans: [(from: Int, to: Int, mb: Int?, tags: [String])] = []
        for major in 7...last {
            let era = XNUSettings.era(iosMajor: major)
            if let span = spans.last, span.mb == era.freezeDailyBudgetMB {
                spans[spans.count - 1].to = major
                if let tag = era.xnuTag, spans[spans.count - 1].tags.last != tag { spans[spans.count - 1].tags.append(tag) }
            } else {
                spans.append((major, major, era.freezeDailyBudgetMB, era.xnuTag.map { [$0] } ?? []))
            }
        }
        return "freezer budget a day (summary.freezer.dailyBudgetBytes): " + spans.map { span in
            let majors = span.to == last ? "from iOS \(span.from)" : span.from == 7 ? "to iOS \(span.to)"
                : span.from == span.to ? "iOS \(span.from)" : "iOS \(span.from) to \(span.to)"
            guard let mb = span.mb else { return "none \(majors)" }
            let tags = span.tags.count > 1 ? "\(span.tags[0]) to \(span.tags[span.tags.count - 1])" : span.tags.first ?? "xnu"
            return "\(mb) MB \(majors) (\(tags))"
        }.joined(separator: ", ")
    }

    /// Each device with the source of each of its numbers: a heading line, then one line per
    /// number (what it is, then its source).
    static func deviceSources() -> [String] {
        Device.presets.flatMap { d -> [String] in
            guard let m = DeviceModel.named(d.name) else {
                return ["\(d.name): RAM \(Format.bytes(d.ram)), app limit \(megabytes(d.appLimit)), page \(Format.bytes(d.pageSize))",
                        "  every number: \(cite(DeviceSources.referenceText))", ""]
            }
            let limit = provenance(m.limit)
            let page = m.ramSource == DeviceSources.referenceText ? cite(DeviceSources.referenceText)
                : d.pageSize == 16 * .kilobyte ? cite(DeviceSources.pageSize16K)
                : "the A8's, as the iPhone 6 Plus has it: \(cite(DeviceSources.referenceText))"
            let family = m.latestOS.split(separator: " ").first.map(String.init) ?? "iOS"
            let earlier = m.earlierLimits.map { e in
                "  app limit before \(e.endsAt(family)) (xnu): \(megabytes(e.limit)): \(Self.provenance(e.provenance))"
            }
            return ["\(d.name): \(m.model) (\(m.products.joined(separator: ", "))), \(m.year), \(m.chip)",
                    "  RAM \(Format.bytes(d.ram)): \(cite(m.ramSource))",
                    "  app limit \(megabytes(d.appLimit)): \(limit)"] + earlier
                + (d.virtualMemorySwap.map { ["  virtual memory swap from iPadOS \(DeviceModel.swapFromMajor), apps up to "
                    + "\(Format.bytes($0)): \(cite(DeviceSources.iPadOS16Swap))"] } ?? [])
                + ["  increased-memory-limit on \(d.osVersion ?? m.latestOS) (xnu): \(entitlement(d))",
                   "  page \(Format.bytes(d.pageSize)): \(page)",
                    "  shipped with \(m.shippedOS): the major release current when it came out (\(m.year))",
                    "  latest \(m.latestOS): \(cite(m.latestOSSource))",
                    "  identifiers: \(cite(DeviceSources.deviceKit))", ""]
        }
    }

    /// Where a limit comes from: its measurement, or its rule and the measurement it rests on.
    static func provenance(_ limit: LimitProvenance) -> String {
        switch limit {
        case .measured(let method, let os, let source): "measured (\(method.rawValue), \(os)): \(cite(source))"
        case .derived(let basis, let rule): "derived: \(rule); measured: \(measuredSource(basis))"
        }
    }

    /// The active limit of an app with the increased-memory-limit entitlement under `xnu` on the
    /// preset, and why (IncreasedMemoryLimit).
    static func entitlement(_ d: Device) -> String {
        let limit = megabytes(IncreasedMemoryLimit.limit(on: d))
        return switch IncreasedMemoryLimit.basis(on: d) {
        case .beforeIOS15: "no raise, the entitlement exists from iOS 15: \(cite(DeviceSources.increasedMemoryLimitDocs))"
        case .underMinimumRAM: "no raise under 4 GB of RAM (none published; an iPhone 8 on iOS 15.2 got none): "
            + cite(DeviceSources.iPhone8NoRaise)
        case .published(let model, let r): "\(limit), the app limit × \(r.with) ÷ \(r.without) as published for \(model): \(cite(r.source))"
        case .defaultRatio: "\(limit), the app limit × 420 ÷ 312 (the iPhone 13 Pro's; none published for this model): "
            + cite(DeviceSources.pocketpalAvailableMemory)
        }
    }

    /// The measurement a derived limit rests on, through the models it is derived from.
    static func measuredSource(_ basis: String) -> String {
        switch DeviceModel.named(basis)?.limit {
        case .measured(let method, let os, let source): "\(basis) (\(method.rawValue), \(os)): \(cite(source))"
        case .derived(let next, _): measuredSource(next)
        case nil: basis
        }
    }

    static func cite(_ c: Citation) -> String { "\(c.title) <\(c.location)>" }

    /// A fraction of RAM as a whole percentage or with one decimal (`15%`, `12.5%`).
    static func percent(_ fraction: Double) -> String {
        let tenths = (fraction * 1000).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))%" : "\(tenths / 10)%"
    }

    /// A limit in whole megabytes when it is one (`1396 MB`), as the sources give it.
    static func megabytes(_ bytes: Bytes) -> String {
        bytes % .megabyte == 0 ? "\(bytes / .megabyte) MB" : Format.bytes(bytes)
    }

    /// Where a preset's limit comes from, in a few words: the method and OS of a measurement, or
    /// the model a derived limit is taken from.
    static func limitFrom(_ limit: LimitProvenance) -> String {
        switch limit {
        case .measured(let method, let os, _): "measured (\(method.rawValue), \(os))"
        case .derived(let basis, _): "derived from \(basis)"
        }
    }
}
