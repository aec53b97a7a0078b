import MemprofCore
import MemprofInput
import MemprofYAMLReader

/// Says why the program at a path (as a workload wrote it) cannot be run as work, or nil.
public typealias ProgramCheck = @Sendable (_ path: String) -> String?

/// Reads a workload file (YAML, or JSON, which is the same structure) into a validated
/// ``Workload`` (spec §9). Every problem is a `WorkloadError` naming file, line, column and key.
public struct WorkloadParser {
    /// The file name used in error messages.
    public var file: String
    /// Names of work kernels that exist; `nil` accepts any name.
    public var knownKernels: Set<String>?
    /// Checks the program of `work: {command: ...}`: returns why it cannot run, or nil. `nil`
    /// accepts any program.
    public var checkProgram: ProgramCheck?
    /// Whether the common script entry is read by its shortcut (``plainEntry(_:_:appIndex:)``);
    /// the tests turn it off to hold it to the general reading.
    var readsPlainEntries = true

    public init(file: String, knownKernels: Set<String>? = nil, checkProgram: ProgramCheck? = nil) {
        self.file = file
        self.knownKernels = knownKernels
        self.checkProgram = checkProgram
    }

    static let topKeys = ["memprof", "name", "seed", "duration", "device", "policy", "apps", "processes", "population",
                          "script", "generate", "charging"]

    public func parse(_ text: String) throws -> Workload {
        try parseReportingWarnings(text).workload
    }

    /// Parses `text` with `overrides` applied to its keys first (``WorkloadOverride``): validated
    /// as if the file said them, with errors about them located where they were written.
    public func parse(_ text: String, overrides: [WorkloadOverride]) throws -> Workload {
        try parseReportingWarnings(text, overrides: overrides).workload
    }

    /// Parses `text` (with `overrides` applied first) and also says, as located warnings, where a
    /// declared handler time or footprint cannot fit its limit (the run goes on: the limit decides).
    public func parseReportingWarnings(_ text: String, overrides: [WorkloadOverride] = []) throws
        -> (workload: Workload, warnings: [WorkloadWarning])
    {
        // Overrides edit the composed tree into a changed copy, read as the file's own tree is.
        let root = try YAMLText.composeTree(text, file: file)
        guard !overrides.isEmpty else { return try parse(root: root) }
        let changed = try OverrideApplier.apply(overrides, to: root)
        do {
            return try parse(root: changed)
        } catch let error as WorkloadError {
            throw OverrideApplier.relocate(error, overrides)
        }
    }

    func parse(root: NodeReader) throws -> (workload: Workload, warnings: [WorkloadWarning]) {
        let top = try root.mapping(allowed: Self.topKeys)
        let version = try top.required("memprof")
        guard try version.int() == 1 else {
            throw version.error("this memprof reads format version 1, not \(try version.int())")
        }
        let nameNode = try top.required("name")
        let name = try nameNode.string()
        guard !name.isEmpty, name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw nameNode.error("'\(name)' is not a valid name; use lowercase letters, digits and '-'")
        }
        guard name.utf8.count <= Workload.maxNameLength else {
            throw nameNode.error("the name is \(name.utf8.count) characters long; a workload's name is at most "
                + "\(Workload.maxNameLength) (its report folder and the staging folder beside it are named after it)")
        }
        let seed = try top["seed"].map { UInt64(try $0.nonNegativeInt()) } ?? 0
        let duration = try top.required("duration").positiveDuration()
        var device = DeviceModel.swapOnItsOS(try top["device"].map(parseDevice) ?? Device.preset(named: "iphone-6-plus")!)
        var policy = try top["policy"].map(parsePolicy) ?? .seed2015
        // The xnu policy uses the numbers of the kernel the device's iOS version runs, and that
        // version's background-task limit unless the workload gives its own.
        let ownTaskLimit = try top["policy"].map { $0.isScalar ? false : try $0.mapping(allowed: Self.policyKeys)["backgroundTaskLimit"] != nil }
        policy.adoptEra(of: device, keepingTaskLimit: ownTaskLimit ?? false)
        let deviceKeys = try top["device"].map { $0.isScalar ? [] : try $0.mapping(allowed: Self.deviceKeys).keys } ?? []
        if policy.xnu != nil, !deviceKeys.contains("appLimit"), !deviceKeys.contains("increasedAppLimit"),
           let model = DeviceModel.named(device.name) {
            // The limit of the preset's model on the device's iOS, where an OS release changed it.
            device.appLimit = model.appLimit(on: device.osVersion).limit
        }
        // The rest of the phone (SystemPopulation): by default under xnu on iOS 14 and later,
        // unless the workload gives its own processes or says `population: none`.
        let populationNode = try top["population"].map { try $0.choice(["builtin", "none"], what: "population") }
        let withPopulation = populationNode != "none" && top["processes"] == nil
            && SystemPopulation.applies(to: device, policy: policy)
        if withPopulation, let xnu = policy.xnu, !deviceKeys.contains("systemReserved") {
            device = SystemPopulation.device(device, xnu: xnu)
        }
        if let node = top["policy"], !node.isScalar { try parseFreezerBudget(node, into: &policy) }
        let appsNode = try top.required("apps")
        let appEntries = try appsNode.namedEntries()
        guard !appEntries.isEmpty else { throw appsNode.error("a workload needs at least one app") }
        let ids = appEntries.map(\.0)
        let apps = try appEntries.map { try parseApp(id: $0.0, $0.1, policy: policy, platform: device.platform, device: device) }
        if policy.xnu != nil, device.increasedAppLimit == nil, apps.contains(where: \.increasedMemoryLimit) {
            // The entitlement as the device's model and iOS have it (IncreasedMemoryLimit).
            device.increasedAppLimit = IncreasedMemoryLimit.limit(on: device)
        }
        var processes = try top["processes"].map { try parseProcesses($0, appIDs: ids, device: device) } ?? []
        if withPopulation, let xnu = policy.xnu {
            processes = SystemPopulation.processes(for: xnu)
            if let clash = processes.first(where: { ids.contains($0.id) }) {
                throw appsNode.error("app key '\(clash.id)' is the key of a process of the built-in population; "
                    + "rename the app or say `population: none`")
            }
        }
        let script = try top["script"].map {
            try parseScript($0, apps: apps, ids: ids, processIDs: processes.map(\.id), duration: duration)
        } ?? []
        let sessions = try parseSessions(appEntries, duration: duration)
        var generate = try top["generate"].map { try parseGenerate($0, ids: ids, sessions: sessions) }
        if generate == nil && !sessions.isEmpty {
            generate = GenerateSpec(switchEveryUs: 0, weights: [], homeEveryUs: nil, sessions: sessions)
        }
        let charging = try top["charging"].map { try parseCharging($0, duration: duration) } ?? []
        let workload = Workload(name: name, seed: seed, durationUs: duration, device: device, policy: policy,
                                apps: apps, processes: processes, script: script, generate: generate, charging: charging)
        let appNodes = appEntries.map(\.1)
        try checkReleases(workload, appNodes: appNodes)
        return (workload, limitWarnings(workload, appNodes: appNodes))
    }

    static let deviceKeys = ["preset", "platform", "ram", "systemReserved", "appLimit", "flash", "flashReadRate",
                             "pageSize", "cpuScale", "osVersion", "product", "increasedAppLimit"]

    func parseDevice(_ node: NodeReader) throws -> Device {
        let names = Device.presets.map(\.name)
        if node.isScalar {
            return Device.preset(named: try node.choice(names, what: "device"))!
        }
        let m = try node.mapping(allowed: Self.deviceKeys)
        var device: Device
        if let preset = m["preset"] {
            device = Device.preset(named: try preset.choice(names, what: "device"))!
        } else {
            for key in ["ram", "systemReserved", "appLimit", "flash", "flashReadRate"] where m[key] == nil {
                throw node.error("missing key '\(key)' (or name a 'preset' to start from)")
            }
            device = Device(name: "custom", platform: .ios, ram: 0, systemReserved: 0, appLimit: 0, flash: 0,
                            flashReadRate: 0, pageSize: 16 * .kilobyte, cpuScale: 1)
        }
        if let v = m["platform"] {
            device.platform = Platform(rawValue: try v.choice(Platform.allCases.map(\.rawValue), what: "platform"))!
        }
        if let v = m["ram"] { device.ram = try v.size() }
        if let v = m["systemReserved"] { device.systemReserved = try v.size() }
        if let v = m["appLimit"] { device.appLimit = try v.size() }
        if let v = m["flash"] { device.flash = try v.size() }
        if let v = m["flashReadRate"] {
            let rate = try v.rate()
            device.flashReadRate = Bytes(rate.bytesPerSecond.rounded())
        }
        if let v = m["pageSize"] { device.pageSize = try v.size() }
        if let v = m["cpuScale"] { device.cpuScale = try v.positiveNumber(max: 1000) }
        if let v = m["osVersion"] {
            let text = try v.string()
            guard Device.version(text) != nil else {
                throw v.error("'\(text)' names no version; write it as 'iOS 9.3' or 'iOS 10.2.1 (14D27)'")
            }
            device.osVersion = text
            try checkRuns(text, on: device, node: v)
        }
        if let v = m["product"] {
            let text = try v.string()
            guard Device.isHardwareIdentifier(text) else {
                throw v.error("'\(text)' is not a hardware identifier; write it as a report does, such as 'iPhone12,1'")
            }
            device.product = text
        }
        if m.keys.contains(where: { $0 != "preset" }) && m["preset"] != nil {
            device.name = "\(device.name) (modified)"
        }
        guard device.ram > 0 else { throw (m["ram"] ?? node).error("ram must be above 0") }
        guard device.systemReserved < device.ram else {
            throw (m["systemReserved"] ?? node).error("systemReserved must be less than ram")
        }
        guard device.appLimit > 0 else { throw (m["appLimit"] ?? node).error("appLimit must be above 0") }
        // A page size jetsam reports carry (JetsamReportReader reads 512 B to 1 MB, a power of two),
        // so that `export --format jetsam` writes what `import` reads.
        guard device.pageSize >= 512, device.pageSize <= .megabyte, device.pageSize & (device.pageSize - 1) == 0 else {
            throw (m["pageSize"] ?? node).error("pageSize \(Format.bytes(device.pageSize)) is not a power of two from "
                + "512B to 1MB; iOS pages are 4KB or 16KB")
        }
        if let v = m["increasedAppLimit"] {
            let limit = try v.size()
            guard limit >= device.appLimit, limit <= device.ram else {
                throw v.error("increasedAppLimit (\(Format.bytes(limit))) must be at least appLimit "
                    + "(\(Format.bytes(device.appLimit))) and at most ram (\(Format.bytes(device.ram)))")
            }
            device.increasedAppLimit = limit
        }
        guard device.flashReadRate > 0 else {
            throw (m["flashReadRate"] ?? node).error("flashReadRate must be above 0")
        }
        return device
    }

    /// A preset's `osVersion` must be one the model runs, from the iOS it shipped with to its
    /// latest (`memprof list devices`); a device described without a preset runs any.
    func checkRuns(_ text: String, on device: Device, node: NodeReader) throws {
        guard let major = Device.version(text)?.major else { return }
        if DeviceModel.skippedMajors.contains(major) {
            throw node.error("'\(text)' names no released iOS: after iOS 18 came iOS 26")
        }
        guard let model = DeviceModel.named(device.name), let runs = model.supportedMajors, !runs.contains(major) else { return }
        throw node.error("the \(model.model) runs \(model.shippedOS) to \(model.latestOS), not '\(text)'; "
            + "for another era's numbers on this hardware, describe the device without a preset")
    }

    static let policyKeys = ["preset", "compressionThreshold", "evictionOrder", "warningLevel", "criticalLevel",
                             "enterBackgroundLimit", "backgroundTaskLimit", "fetchWindow", "pushWindow",
                             "voipMinKeepalive", "freezeDailyBudget"]

    func parsePolicy(_ node: NodeReader) throws -> PolicySettings {
        let names = PolicySettings.presets.map(\.name)
        if node.isScalar {
            return PolicySettings.preset(named: try node.choice(names, what: "policy"))!
        }
        let m = try node.mapping(allowed: Self.policyKeys)
        var policy = try m["preset"].map { PolicySettings.preset(named: try $0.choice(names, what: "policy"))! }
            ?? .seed2015
        if let v = m["compressionThreshold"] { policy.compressionThreshold = try v.size() }
        if let v = m["evictionOrder"] {
            policy.evictionOrder = EvictionOrder(
                rawValue: try v.choice(EvictionOrder.allCases.map(\.rawValue), what: "eviction order"))!
        }
        if let v = m["warningLevel"] { policy.warningLevel = try v.fraction() }
        if let v = m["criticalLevel"] { policy.criticalLevel = try v.fraction() }
        if let v = m["enterBackgroundLimit"] { policy.enterBackgroundLimitUs = try v.positiveDuration() }
        if let v = m["backgroundTaskLimit"] { policy.backgroundTaskLimitUs = try v.positiveDuration() }
        if let v = m["fetchWindow"] { policy.fetchWindowUs = try v.positiveDuration() }
        if let v = m["pushWindow"] { policy.pushWindowUs = try v.positiveDuration() }
        if let v = m["voipMinKeepalive"] { policy.voipMinKeepaliveUs = try v.positiveDuration() }
        guard policy.warningLevel < policy.criticalLevel else {
            throw (m["warningLevel"] ?? m["criticalLevel"] ?? node).error(
                "warningLevel (\(policy.warningLevel)) must be below criticalLevel (\(policy.criticalLevel))")
        }
        return policy
    }
}
