import MemprofCore

extension WorkloadParser {
    static let appKeys = ["name", "launch", "resumeTime", "growth", "maxFootprint", "onBackground",
                          "onMemoryWarning", "modes", "fetch", "push", "backgroundTask", "voip", "objects"]
    static let handlerKeys = ["time", "allocates", "work", "timing"]

    func parseApp(id: String, _ node: NodeReader, policy: PolicySettings) throws -> AppSpec {
        let m = try node.mapping(allowed: Self.appKeys)
        if let objects = m["objects"] {
            throw objects.error("objects and their observers (spec §7) are not supported by this version of memprof yet")
        }
        let launch = try m.required("launch").mapping(allowed: ["footprint", "time"])
        var app = AppSpec(id: id, launchFootprint: try launch.required("footprint").size())
        if let v = m["name"] { app.displayName = try v.string() }
        if let v = launch["time"] { app.launchTimeUs = try v.duration() }
        if let v = m["resumeTime"] { app.resumeTimeUs = try v.duration() }
        if let v = m["growth"] { app.growth = try v.rate() }
        if let v = m["maxFootprint"] { app.maxFootprint = try v.size() }
        if let v = m["onBackground"] {
            let b = try v.mapping(allowed: ["release", "time"])
            if let r = b["release"] { app.backgroundRelease = try r.size() }
            if let t = b["time"] { app.backgroundHandlerTimeUs = try t.duration() }
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
        if let v = m["push"] {
            try require(.remoteNotification, in: app, for: v)
            app.push = try parseHandler(try v.mapping(allowed: Self.handlerKeys))
        }
        if let v = m["backgroundTask"] {
            let t = try v.mapping(allowed: ["endsOnExpiration"] + Self.handlerKeys)
            app.backgroundTask = BackgroundTaskSpec(handler: try parseHandler(t),
                                                    endsOnExpiration: try t["endsOnExpiration"]?.bool() ?? false)
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
        return app
    }

    func require(_ mode: AppMode, in app: AppSpec, for node: NodeReader) throws {
        guard app.modes.contains(mode) else {
            throw node.error("needs '\(mode.rawValue)' in the app's modes")
        }
    }

    func parseHandler(_ m: Mapping) throws -> HandlerSpec {
        var handler = HandlerSpec()
        if let v = m["time"] { handler.timeUs = try v.duration() }
        if let v = m["allocates"] { handler.allocates = try v.size() }
        if let v = m["work"] {
            let w = try v.mapping(allowed: ["kernel", "size"])
            let kernelNode = try w.required("kernel")
            let kernel: String
            if let known = knownKernels {
                kernel = try kernelNode.choice(known.sorted(), what: "work kernel")
            } else {
                kernel = try kernelNode.string()
            }
            handler.work = WorkSpec(kernel: kernel, sizeBytes: try w.required("size").size())
        }
        if let v = m["timing"] {
            handler.timing = WorkTiming(rawValue: try v.choice(["declared", "measured"], what: "timing"))!
            if handler.timing == .measured && handler.work == nil {
                throw v.error("'timing: measured' needs 'work' to measure")
            }
        }
        return handler
    }
}
