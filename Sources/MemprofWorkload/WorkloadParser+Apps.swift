import Foundation
import MemprofCore
import MemprofInput
import MemprofYAMLReader

extension WorkloadParser {
    static let appKeys = ["name", "launch", "resumeTime", "growth", "maxFootprint", "minFootprint", "onBackground",
                          "onMemoryWarning", "modes", "fetch", "push", "backgroundTask", "voip", "objects",
                          "increasedMemoryLimit", "inactiveLimit", "compressionRatio", "averageSuspendedMemory",
                          "peakMemoryUsage", "refresh", "processing", "sessions"]
    static let handlerKeys = ["time", "allocates", "work", "timing", "locksFile", "cpu"]

    func parseApp(id: String, _ node: NodeReader, policy: PolicySettings, platform: Platform = .ios,
                  device: Device? = nil) throws -> AppSpec {
        let m = try node.mapping(allowed: Self.appKeys)
        // `peakMemoryUsage` (MetricKit's name) is the foreground cap; the launch footprint then
        // defaults to it.
        let peakNode = m["peakMemoryUsage"]
        let peak = try peakNode.map { try $0.size() }
        let launch = try (peak == nil ? try m.required("launch") : m["launch"])?.mapping(allowed: ["footprint", "time"])
        let footprintNode = peak == nil ? try launch?.required("footprint") : launch?["footprint"]
        var app = AppSpec(id: id, launchFootprint: try footprintNode?.size() ?? peak ?? 0)
        if let v = m["name"] { app.displayName = try v.string() }
        if let v = launch?["time"] { app.launchTimeUs = try v.duration() }
        if let v = m["resumeTime"] { app.resumeTimeUs = try v.duration() }
        if let v = m["growth"] { app.growth = try v.rate() }
        if let v = m["maxFootprint"] { app.maxFootprint = try v.size() }
        if let peak, let peakNode { try applyPeak(peak, peakNode, to: &app, m, launchFootprint: footprintNode) }
        if let v = m["minFootprint"] {
            let floor = try v.size()
            guard floor <= app.launchFootprint else {
                throw v.error("minFootprint (\(Format.bytes(floor))) must not exceed the launch footprint "
                    + "(\(Format.bytes(app.launchFootprint)))")
            }
            app.minFootprint = floor
        }
        if let v = m["compressionRatio"] {
            // At least 1 (a compressed page is never larger than the page); at most 16, past
            // what any published report shows (2.66× to 3.87×, AppSpec.defaultCompressionRatio).
            let ratio = try v.positiveNumber(max: 16)
            guard ratio >= 1 else { throw v.error("compressionRatio \(ratio) is below 1 (uncompressed ÷ compressed)") }
            app.compressionRatio = ratio
        }
        if let v = m["onBackground"] {
            let b = try v.mapping(allowed: ["release", "time"])
            if let r = b["release"] { app.backgroundRelease = try r.size() }
            if let t = b["time"] { app.backgroundHandlerTimeUs = try t.duration() }
        }
        if let v = m["averageSuspendedMemory"] {
            if let release = m["onBackground"]?.descendant(["release"]) {
                throw release.error("averageSuspendedMemory states what the app releases on leaving the foreground "
                    + "(what it holds above it); give one of the two")
            }
            let suspended = try v.size()
            guard suspended >= app.footprintFloor else {
                throw v.error("averageSuspendedMemory (\(Format.bytes(suspended))) is under the app's floor of "
                    + "\(Format.bytes(app.footprintFloor)) (minFootprint\(app.minFootprint == nil ? "; by default the smaller of 5 MB and the launch footprint" : ""))")
            }
            app.suspendedFootprint = suspended
        }
        if let v = m["onMemoryWarning"] {
            let w = try v.mapping(allowed: ["release"])
            if let r = w["release"] { app.memoryWarningRelease = try r.size() }
        }
        if let v = m["modes"] {
            for item in try v.sequence() {
                let mode = try item.choice(AppMode.allCases.map(\.rawValue), what: "background mode")
                app.modes.insert(AppMode(rawValue: mode)!)
            }
        }
        if let v = m["fetch"] {
            try require(.fetch, in: app, for: v)
            let f = try v.mapping(allowed: ["interval"] + Self.handlerKeys)
            app.fetch = FetchSpec(intervalUs: try f["interval"].map { try $0.positiveDuration() },
                                  handler: try parseHandler(f))
        }
        if let v = m["refresh"] {
            try require(.fetch, in: app, for: v)
            let r = try v.mapping(allowed: ["earliest"] + Self.handlerKeys)
            app.refresh = ScheduledTaskSpec(earliestUs: try r.required("earliest").duration(), handler: try parseHandler(r))
        }
        if let v = m["processing"] {
            try require(.processing, in: app, for: v)
            let p = try v.mapping(allowed: ["earliest", "requiresExternalPower"] + Self.handlerKeys)
            app.processing = ScheduledTaskSpec(earliestUs: try p.required("earliest").duration(), handler: try parseHandler(p),
                                               requiresExternalPower: try p["requiresExternalPower"]?.bool() ?? false)
        }
        if let v = m["push"] {
            try require(.remoteNotification, in: app, for: v)
            app.push = try parseHandler(try v.mapping(allowed: Self.handlerKeys))
        }
        if let v = m["backgroundTask"] {
            let t = try v.mapping(allowed: ["endsOnExpiration"] + Self.handlerKeys)
            app.backgroundTask = BackgroundTaskSpec(handler: try parseHandler(t),
                                                    endsOnExpiration: try t["endsOnExpiration"]?.bool() ?? false)
        }
        if let task = try sessionBackgroundTask(m, platform: platform, declared: app.backgroundTask != nil) {
            app.backgroundTask = task
        }
        if let v = m["voip"] {
            try require(.voip, in: app, for: v)
            let p = try v.mapping(allowed: ["keepalive", "time"])
            let keepaliveNode = try p.required("keepalive")
            let keepalive = try keepaliveNode.positiveDuration()
            guard keepalive >= policy.voipMinKeepaliveUs else {
                throw keepaliveNode.error("the keep-alive interval must be at least \(policy.voipMinKeepaliveUs / .minute)m")
            }
            app.voip = VoIPSpec(keepaliveUs: keepalive, timeUs: try p["time"]?.duration() ?? 0)
        }
        if let v = m["objects"] { app.objects = try parseObjects(v, platform: platform) }
        if let v = m["increasedMemoryLimit"] { app.increasedMemoryLimit = try v.bool() }
        if let v = m["inactiveLimit"] {
            let limit = try v.size()
            guard limit > 0 else { throw v.error("inactiveLimit must be above 0") }
            if let ram = device?.ram, limit > ram {
                throw v.error("inactiveLimit (\(Format.bytes(limit))) is more than the device's RAM (\(Format.bytes(ram)))")
            }
            app.inactiveLimit = limit
        }
        return app
    }

    /// `peakMemoryUsage`: the footprint the app reaches in the foreground, its `maxFootprint`. An
    /// app launching under it needs `growth` to get there.
    func applyPeak(_ peak: Bytes, _ node: NodeReader, to app: inout AppSpec, _ m: Mapping,
                   launchFootprint: NodeReader?) throws {
        guard peak > 0 else { throw node.error("peakMemoryUsage must be above 0") }
        if let v = m["maxFootprint"] {
            throw v.error("peakMemoryUsage states the cap maxFootprint would (the most the app holds in the foreground); give one of the two")
        }
        if app.launchFootprint > peak {
            throw (launchFootprint ?? node).error("the launch footprint (\(Format.bytes(app.launchFootprint))) is over "
                + "peakMemoryUsage (\(Format.bytes(peak)))")
        }
        if app.launchFootprint < peak && app.growth == nil {
            throw node.error("\(app.id) launches at \(Format.bytes(app.launchFootprint)) and never grows, so it never "
                + "reaches peakMemoryUsage (\(Format.bytes(peak))): give it growth, or leave launch.footprint out to launch at the peak")
        }
        app.maxFootprint = peak
    }

    static let objectKeys = ["size", "observes", "style", "unregisters"]

    /// `objects` (spec §7): name → size, observed notification names, style, unregisters.
    /// Defaults: size 0, no observers, style block, unregisters true.
    func parseObjects(_ node: NodeReader, platform: Platform) throws -> [ObjectSpec] {
        let known = LifecycleCallback.notificationNames(on: platform)
        return try node.namedEntries().map { name, value in
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw value.error("'\(name)' is not a valid object name; use letters, digits, '_' and '-'")
            }
            let o = try value.mapping(allowed: Self.objectKeys)
            var object = ObjectSpec(name: name)
            if let v = o["size"] { object.size = try v.size() }
            if let v = o["observes"] {
                for item in try v.sequence() {
                    let observed = try item.choice(known, what: "\(platform.rawValue) lifecycle notification")
                    if object.observes.contains(observed) {
                        throw item.error("'\(observed)' is listed twice")
                    }
                    object.observes.append(observed)
                }
            }
            if let v = o["style"] {
                object.style = ObserverStyle(rawValue: try v.choice(ObserverStyle.allCases.map(\.rawValue),
                                                                    what: "observer style"))!
            }
            if let v = o["unregisters"] { object.unregisters = try v.bool() }
            return object
        }
    }

    /// `sessions.background: 20s`: after each session the app keeps running in the background
    /// about that long, as a background task it begins on leaving the front and ends when done
    /// (or at the era's limit, from its expiration handler), then it is suspended. Nil without
    /// the key or with 0. Refused beside a declared `backgroundTask` (an app has one task here) and
    /// on a Mac (its apps go on running behind the front app: no suspension to wait for).
    func sessionBackgroundTask(_ m: Mapping, platform: Platform, declared: Bool) throws -> BackgroundTaskSpec? {
        guard let sessions = m["sessions"], !sessions.isScalar,
              let node = try sessions.mapping(allowed: Self.sessionKeys)["background"] else { return nil }
        let time = try node.duration()
        guard time > 0 else { return nil }
        guard platform == .ios else {
            throw node.error("a Mac app goes on running behind the front app and is not suspended; "
                + "background time after a session is an iOS measure (give the device an iOS platform or leave the key out)")
        }
        guard !declared else {
            throw node.error("the app declares its own backgroundTask; its background time after a session is that "
                + "task's time: state one or the other")
        }
        return BackgroundTaskSpec(handler: HandlerSpec(timeUs: time), endsOnExpiration: true)
    }

    func require(_ mode: AppMode, in app: AppSpec, for node: NodeReader) throws {
        guard app.modes.contains(mode) else {
            throw node.error("needs '\(mode.rawValue)' in the app's modes")
        }
    }

    func parseHandler(_ m: Mapping) throws -> HandlerSpec {
        var handler = HandlerSpec()
        if let v = m["time"] { handler.timeUs = try v.duration() }
        if let v = m["allocates"] {
            if v.scalarText == "measured" {
                handler.allocatesMeasured = true
            } else {
                handler.allocates = try v.size()
            }
        }
        if let v = m["work"] { handler.work = try parseWork(v) }
        if let v = m["locksFile"] { handler.locksFile = try v.bool() }
        if let v = m["cpu"] { handler.cpu = try v.percentage() }
        if let v = m["timing"] {
            handler.timing = WorkTiming(rawValue: try v.choice(["declared", "measured"], what: "timing"))!
            if handler.timing == .measured && handler.work == nil {
                throw v.error("'timing: measured' needs 'work' to measure")
            }
        }
        if handler.allocatesMeasured && handler.work?.program == nil, let v = m["allocates"] {
            throw v.error("'allocates: measured' needs 'work: {command: [...]}': the program's peak in use is what is measured")
        }
        return handler
    }

    /// The variables memprof gives a program it runs (the preload library and its channel, in
    /// ../CProfilingChannel/include/memprof_channel.h): `work.env` may not set them.
    static let recorderVariables: Set<String> = ["LD_PRELOAD", "MEMPROF_CHANNEL_FD", "MEMPROF_SAMPLE_HZ"]

    /// `work: {kernel: NAME, size: SIZE}` or `work: {command: [PATH, ARG...], env: {...}, cwd: DIR}`.
    func parseWork(_ v: NodeReader) throws -> WorkSpec {
        let w = try v.mapping(allowed: ["kernel", "size", "command", "env", "cwd"])
        if w["command"] == nil {
            for key in ["env", "cwd"] where w[key] != nil {
                throw w[key]!.error("'\(key)' goes with 'command'; a kernel takes 'kernel' and 'size'")
            }
            let kernelNode = try w.required("kernel")
            let kernel: String
            if let known = knownKernels {
                kernel = try kernelNode.choice(known.sorted(), what: "work kernel")
            } else {
                kernel = try kernelNode.string()
            }
            return WorkSpec(kernel: kernel, sizeBytes: try w.required("size").size())
        }
        let commandNode = try w.required("command")
        for key in ["kernel", "size"] where w[key] != nil {
            throw w[key]!.error("'\(key)' goes with a kernel; work has either 'command' or 'kernel'")
        }
        let parts = try commandNode.sequence()
        guard let first = parts.first else { throw commandNode.error("a command needs at least the program's path") }
        let command = try parts.map { try $0.string() }
        guard !command[0].isEmpty else { throw first.error("the program's path is empty") }
        var environment: [String: String] = [:]
        if let envNode = w["env"] {
            for (name, value) in try envNode.namedEntries() {
                guard !name.isEmpty, !name.contains("=") else {
                    throw value.error("'\(name)' is not an environment variable name")
                }
                guard !Self.recorderVariables.contains(name) else {
                    throw value.error("'\(name)' is set by memprof for its recorder in the program; "
                        + "a value here would stop the recording (set it outside memprof's work, or use another name)")
                }
                environment[name] = try value.string()
            }
        }
        let directory = try w["cwd"].map { node -> String in
            let path = try node.string()
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw node.error("'\(path)' is not a directory")
            }
            return path
        }
        if let checkProgram, let problem = checkProgram(command[0]) {
            throw first.error(problem)
        }
        return WorkSpec(program: ProgramSpec(command: command, environment: environment, directory: directory))
    }
}
