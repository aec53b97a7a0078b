import ArgumentParser
import MemprofCore
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

    func run() {
        switch kind {
        case .devices:
            for d in Device.presets {
                print("\(d.name)  \(d.platform.rawValue), RAM \(Format.bytes(d.ram)), app memory "
                    + "\(Format.bytes(d.appMemory)), app limit \(Format.bytes(d.appLimit)), "
                    + "flash store \(Format.bytes(d.flash))")
            }
        case .policies:
            for p in PolicySettings.presets {
                print("\(p.name)  compress under \(Format.bytes(p.compressionThreshold)), evict \(p.evictionOrder.rawValue), "
                    + "warning at \(p.warningLevel), critical at \(p.criticalLevel)")
            }
        case .workloads:
            for w in BuiltinWorkloads.all {
                let mark = w.name == BuiltinWorkloads.defaultName ? " (default)" : ""
                print("\(w.name)\(mark)  \(w.summary)")
            }
        }
    }
}
