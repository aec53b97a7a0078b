import MemprofCore
import MemprofInput
import MemprofYAMLReader

extension WorkloadParser {
    static let processKeys = ["name", "kind", "band", "resident", "highWaterMark", "memoryLimit", "extensionPoint", "app", "push"]

    /// `processes:` (spec §5): key → name, kind, band, resident, highWaterMark, memoryLimit (fatal),
    /// extensionPoint (extensions only: its published limit when no memoryLimit is given). Keys are
    /// `[a-z0-9-]+` and unique among apps and processes; sizes above 0 and within the device's
    /// RAM; a process starts within its limit; together the processes fit in the apps' memory
    /// (they are resident from time 0).
    func parseProcesses(_ node: NodeReader, appIDs: [String], device: Device) throws -> [ProcessSpec] {
        let apps = Set(appIDs)
        var total: Bytes = 0
        return try node.namedEntries().map { id, value in
            guard !id.isEmpty, id.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
                throw value.error("'\(id)' is not a valid process key; use lowercase letters, digits and '-' "
                    + "(and 'name' for the name iOS writes)")
            }
            guard !apps.contains(id) else {
                throw value.error("'\(id)' is already an app; a process needs a key of its own")
            }
            let m = try value.mapping(allowed: Self.processKeys)
            let kindNode = try m.required("kind")
            let kind = ProcessKind(rawValue: try kindNode.choice(ProcessKind.allCases.map(\.rawValue), what: "process kind"))!
            let band = try m.required("band").int(in: 0...ProcessSpec.maxBand)
            func size(_ key: String, _ node: NodeReader) throws -> Bytes {
                let bytes = try node.size()
                guard bytes > 0 else { throw node.error("\(key) must be above 0") }
                guard bytes <= device.ram else {
                    throw node.error("\(key) (\(Format.bytes(bytes))) is more than the device's RAM (\(Format.bytes(device.ram)))")
                }
                return bytes
            }
            let residentNode = try m.required("resident")
            let resident = try size("resident", residentNode)
            var process = ProcessSpec(id: id, kind: kind, band: band, resident: resident)
            if let v = m["name"] {
                let name = try v.string()
                guard !name.isEmpty else { throw v.error("a process name must not be empty") }
                process.displayName = name
            }
            if let v = m["highWaterMark"] {
                guard kind.mayHaveHighWaterMark else {
                    throw v.error("a system process has no high-water mark; only daemons and extensions do")
                }
                process.highWaterMark = try size("highWaterMark", v)
            }
            if let v = m["extensionPoint"] {
                guard kind == .extension else { throw v.error("only an extension has an extensionPoint") }
                process.extensionPoint = ExtensionPoint(
                    rawValue: try v.choice(ExtensionPoint.allCases.map(\.rawValue), what: "extension point"))!
            }
            if let v = m["app"] {
                guard process.extensionPoint == .notificationService else {
                    throw v.error("only a notification service extension (extensionPoint: notificationService) is woken by an app's pushes")
                }
                let app = try v.string()
                guard apps.contains(app) else {
                    var message = "no app '\(app)' in the workload"
                    if let near = suggestion(for: app, among: appIDs) { message += " (did you mean '\(near)'?)" }
                    throw v.error(message)
                }
                guard let pushNode = m["push"] else {
                    throw value.error("missing key 'push': what each of \(app)'s pushes makes the extension do, such as {time: 3s, allocates: 8MB}")
                }
                let push = try pushNode.mapping(allowed: ["time", "allocates"])
                let time = try push.required("time").duration()
                let allocates = try push["allocates"].map { try size("push.allocates", $0) } ?? 0
                process.pushService = ProcessSpec.PushService(app: app, timeUs: time, allocates: allocates)
            } else if let v = m["push"] {
                throw v.error("push needs 'app': the app whose pushes wake the extension")
            }
            if let v = m["memoryLimit"] {
                process.memoryLimit = try size("memoryLimit", v)
            } else if let point = process.extensionPoint, let major = device.osMajor,
                      point.memoryLimit(iosMajor: major) != point.memoryLimit {
                // The limit the extension point had on the device's iOS, where it changed since.
                process.memoryLimit = point.memoryLimit(iosMajor: major)
            }
            if let limit = process.limit, resident > limit {
                throw (m["memoryLimit"] ?? m["extensionPoint"] ?? residentNode).error(
                    "resident (\(Format.bytes(resident))) is over the process's memoryLimit (\(Format.bytes(limit))): "
                    + "it could not have started")
            }
            total += resident
            guard total <= device.appMemory else {
                throw residentNode.error("the processes' resident sizes add up to \(Format.bytes(total)), more than "
                    + "the memory apps and processes share (\(Format.bytes(device.appMemory)): ram − systemReserved)")
            }
            return process
        }
    }
}
