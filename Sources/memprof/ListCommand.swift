import ArgumentParser
import MemprofCore
import MemprofOutput
import MemprofReport
import MemprofWorkload

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the built-in devices, policies or workloads.")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case devices, policies, workloads
    }

    @Argument(help: "devices, policies or workloads")
    var kind: Kind

    @Option(help: "With workloads: print this built-in workload's YAML, to copy and edit.")
    var yaml: String?

    func validate() throws {
        guard let yaml else { return }
        guard kind == .workloads else { throw ValidationError("--yaml goes with 'list workloads'") }
        guard BuiltinWorkloads.all.contains(where: { $0.name == yaml }) else {
            throw ValidationError("no built-in workload named '\(yaml)'; built-in: "
                + BuiltinWorkloads.all.map(\.name).joined(separator: ", "))
        }
    }

    func run() {
        switch kind {
        case .devices:
            let rows = [["device", "platform", "RAM", "app memory", "app limit", "flash store", "page"]]
                + Device.presets.map { d in
                    [d.name, d.platform.rawValue, Format.bytes(d.ram), Format.bytes(d.appMemory), Format.bytes(d.appLimit),
                     Format.bytes(d.flash), Format.bytes(d.pageSize)]
                }
            TextTable.render(rows, rightAligned: [2, 3, 4, 5, 6]).forEach { print($0) }
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
                    + "highwater kills under \(Int(x.pressureThreshold * 100))% of RAM available; " + levels]
            }
            TextTable.render(rows).forEach { print($0) }
        case .workloads:
            if let yaml, let entry = BuiltinWorkloads.all.first(where: { $0.name == yaml }) {
                print(entry.yaml)
                return
            }
            let rows = BuiltinWorkloads.all.map { w in
                [w.name + (w.name == BuiltinWorkloads.defaultName ? " (default)" : ""), w.summary]
            }
            TextTable.render(rows).forEach { print($0) }
        }
    }
}
