import MemprofCore
import MemprofInput
import MemprofYAMLReader

extension WorkloadParser {
    static let actionKeys = ["open", "home", "interrupt", "quit", "push", "allocate", "free", "memoryWarning",
                             "play", "stop", "track", "untrack", "voipCall", "show", "dismiss", "freeze"]
    static let scriptKeys = ["at"] + actionKeys + ["answer", "length", "size", "object"]
    static let actionKeySet = Set(actionKeys)
    /// Keys that may go with an action besides `at`.
    static let allowedExtras: [String: [String]] = [
        "interrupt": ["answer", "length"], "allocate": ["size"], "free": ["size"], "voipCall": ["length"],
        "show": ["object"], "dismiss": ["object"],
    ]

    func parseScript(_ node: NodeReader, apps: [AppSpec], ids: [String], processIDs: [String] = [],
                     duration: Microseconds) throws -> [ScriptEntry] {
        var entries: [ScriptEntry] = []
        var previous: Microseconds = 0
        // App keys are unique (a mapping's keys), so the first index of a name is its only one.
        let appIndex = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let processIndex = Dictionary(processIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let count = try node.sequenceCount()
        entries.reserveCapacity(count)
        for n in 0..<count {
            if readsPlainEntries, let (at, action) = plainEntry(node, n, appIndex: appIndex), at >= previous, at <= duration {
                previous = at
                entries.append(ScriptEntry(atUs: at, action: action))
                continue
            }
            let item = node.item(n)
            let m = try item.mapping(allowed: Self.scriptKeys)
            let atNode = try m.required("at")
            let at = try atNode.duration()
            guard at >= previous else {
                throw atNode.error("script times must not go backwards: this is before the previous entry")
            }
            guard at <= duration else { throw atNode.error("this is past the workload's duration") }
            previous = at
            entries.append(ScriptEntry(atUs: at, action: try parseAction(m, item, apps: apps, ids: ids, appIndex: appIndex,
                                                                         processIndex: processIndex)))
        }
        return entries
    }

    /// The common script entry, `{at: TIME, open: APP}` (or `quit`, `push`, `home: true`), read
    /// straight from a composed tree: nil for any other entry, and for one the general reading
    /// below would refuse, which then reads it and says why. What it returns is what that reading
    /// returns (`YAMLTreeTests` checks both on every built-in workload).
    func plainEntry(_ script: NodeReader, _ n: Int, appIndex: [String: Int]) -> (Microseconds, ScriptAction)? {
        let (tree, list) = (script.tree, script.index)
        let item = tree.child(list, n)
        guard tree.entry(item).kind == .mapping, tree.entry(item).count == 4 else { return nil }
        var at: Int32 = -1
        var key: Int32 = -1
        var value: Int32 = -1
        for pair in [0, 2] {
            let (k, v) = (tree.child(item, pair), tree.child(item, pair + 1))
            guard tree.entry(k).kind == .scalar, tree.entry(v).kind == .scalar else { return nil }
            if tree.scalar(k, is: "at") { at = v } else { (key, value) = (k, v) }
        }
        guard at >= 0, key >= 0, case .success(let time) = Quantity.duration(tree.string(at)) else { return nil }
        if tree.scalar(key, is: "home") {
            guard tree.isPlain(value), NodeReader.booleans[tree.string(value).lowercased()] == true else {
                return nil
            }
            return (time, .home)
        }
        guard let app = appIndex[tree.string(value)] else { return nil }
        if tree.scalar(key, is: "open") { return (time, .open(app)) }
        if tree.scalar(key, is: "quit") { return (time, .quit(app)) }
        if tree.scalar(key, is: "push") { return (time, .push(app)) }
        return nil
    }

    func parseAction(_ m: Mapping, _ item: NodeReader, apps: [AppSpec], ids: [String],
                     appIndex: [String: Int], processIndex: [String: Int] = [:]) throws -> ScriptAction {
        var actions = 0
        var action: (key: String, value: NodeReader)?
        for (key, value) in m.entries where Self.actionKeySet.contains(key) {
            actions += 1
            action = (key, value)
        }
        guard actions == 1, let (key, value) = action else {
            let present = m.keys.filter { Self.actionKeys.contains($0) }
            let found = present.isEmpty ? "none" : present.joined(separator: ", ")
            throw item.error("a script entry needs exactly one action (\(Self.actionKeys.joined(separator: ", "))); found \(found)")
        }
        if m.entries.count > 2 {
            for extra in m.keys where extra != "at" && extra != key && !(Self.allowedExtras[key] ?? []).contains(extra) {
                throw m[extra]!.error("'\(extra)' does not go with '\(key)'")
            }
        }
        func app() throws -> Int {
            let name = try value.string()
            guard let index = appIndex[name] else {
                var message = "no app named '\(name)' in apps"
                if let near = suggestion(for: name, among: ids) { message += " (did you mean '\(near)'?)" }
                throw value.error(message)
            }
            return index
        }
        /// `allocate`/`free` name an app or a process (spec §5): the app's index, or the process's.
        func appOrProcess() throws -> (app: Int?, process: Int?) {
            let name = try value.string()
            if let index = appIndex[name] { return (index, nil) }
            if let index = processIndex[name] { return (nil, index) }
            var message = "no app or process named '\(name)'"
            if let near = suggestion(for: name, among: ids + processIndex.keys.sorted()) { message += " (did you mean '\(near)'?)" }
            throw value.error(message)
        }
        func needs(_ mode: AppMode, _ index: Int) throws {
            guard apps[index].modes.contains(mode) else {
                throw value.error("'\(ids[index])' has no '\(mode.rawValue)' in its modes, so it cannot \(key)")
            }
        }
        func flag() throws {
            guard try value.bool() else { throw value.error("write '\(key): true'") }
        }
        switch key {
        case "open": return .open(try app())
        case "home": try flag(); return .home
        case "quit": return .quit(try app())
        case "push": return .push(try app())
        case "memoryWarning": try flag(); return .memoryWarning
        case "allocate", "free":
            let (app, process) = try appOrProcess()
            let size = try m.required("size").size()
            if let app { return key == "allocate" ? .allocate(app, size) : .free(app, size) }
            return key == "allocate" ? .allocateProcess(process!, size) : .freeProcess(process!, size)
        case "freeze": return .freeze(try app())
        case "play": let i = try app(); try needs(.audio, i); return .play(i)
        case "stop": let i = try app(); try needs(.audio, i); return .stop(i)
        case "track": let i = try app(); try needs(.location, i); return .track(i)
        case "untrack": let i = try app(); try needs(.location, i); return .untrack(i)
        case "voipCall":
            let i = try app()
            try needs(.voip, i)
            return .voipCall(i, lengthUs: try m.required("length").positiveDuration())
        case "interrupt":
            let kind = InterruptionKind(rawValue: try value.choice(InterruptionKind.allCases.map(\.rawValue),
                                                                   what: "interruption"))!
            let answer = try m["answer"]?.bool() ?? false
            if answer && kind != .call { throw m["answer"]!.error("only a call can be answered") }
            return .interrupt(kind, lengthUs: try m.required("length").positiveDuration(), answer: answer)
        case "show", "dismiss":
            let i = try app()
            let objectNode = try m.required("object")
            let name = try objectNode.string()
            let names = apps[i].objects.map(\.name)
            guard let o = names.firstIndex(of: name) else {
                var message = "'\(ids[i])' has no object named '\(name)'"
                if let near = suggestion(for: name, among: names) {
                    message += " (did you mean '\(near)'?)"
                } else if names.isEmpty {
                    message += "; it declares no objects"
                } else {
                    message += "; its objects: \(names.joined(separator: ", "))"
                }
                throw objectNode.error(message)
            }
            return key == "show" ? .show(i, object: o) : .dismiss(i, object: o)
        default:
            throw value.error("unknown action '\(key)'")
        }
    }

    /// The most sessions a day an app may state.
    static let maxSessionsPerDay = 100_000.0
    static let sessionKeys = ["perDay", "length", "background"]

    /// Each app's `sessions: {perDay: 12, length: 3m, background: 20s}`: how often a day (a run)
    /// the user opens it, how long it stays in front and how long it runs in the background after
    /// each (`sessionBackgroundTask`), as a field measures them. Sessions must fit in the run with
    /// time between them: perDay × (length + background) below the workload's duration, so that
    /// the mean gap from one session's end to the next (duration ÷ perDay − length, in whole
    /// microseconds) is above the background time (at a gap of 0 a run would have no session).
    func parseSessions(_ apps: [(String, NodeReader)], duration: Microseconds) throws -> [GenerateSpec.Sessions] {
        try apps.enumerated().compactMap { index, entry in
            guard let node = try entry.1.mapping(allowed: Self.appKeys)["sessions"] else { return nil }
            let m = try node.mapping(allowed: Self.sessionKeys)
            let perDayNode = try m.required("perDay"), lengthNode = try m.required("length")
            let perDay = try perDayNode.positiveNumber(max: Self.maxSessionsPerDay)
            let perDayMilli = Int64((perDay * 1000).rounded())
            guard perDayMilli > 0 else { throw perDayNode.error("\(perDay) sessions a day rounds to none; the least is 0.001") }
            let length = try lengthNode.positiveDuration()
            let background = try m["background"]?.duration() ?? 0
            let sessions = GenerateSpec.Sessions(app: index, perDayMilli: perDayMilli, lengthUs: length)
            let (each, eachOverflow) = length.addingReportingOverflow(background)
            let (total, overflow) = each.multipliedReportingOverflow(by: perDayMilli)
            guard !eachOverflow, !overflow, sessions.meanGapUs(durationUs: duration) > background else {
                let count = perDay == perDay.rounded() ? String(Int64(perDay)) : String(perDay)
                let what = background > 0 ? "\(Format.duration(length)) and \(Format.duration(background)) in the background"
                    : Format.duration(length)
                throw node.error("\(count) sessions of \(what) take "
                    + "\(overflow || eachOverflow ? "more than" : Format.duration(total / 1000)) of a run of \(Format.duration(duration)); "
                    + "they must fit in it with time between them "
                    + "(perDay × \(background > 0 ? "(length + background)" : "length") below the duration)")
            }
            return sessions
        }
    }

    func parseGenerate(_ node: NodeReader, ids: [String], sessions: [GenerateSpec.Sessions] = []) throws -> GenerateSpec {
        let m = try node.mapping(allowed: ["switchEvery", "weights", "homeEvery"])
        let every = try m.required("switchEvery").positiveDuration()
        // An app whose sessions state its use is not among the switches.
        let stated = Set(sessions.map(\.app))
        var weights: [(app: Int, weight: Int)] = ids.indices.filter { !stated.contains($0) }.map { ($0, 1) }
        if let w = m["weights"] {
            weights = try w.namedEntries().map { name, value in
                guard let index = ids.firstIndex(of: name) else {
                    var message = "no app named '\(name)' in apps"
                    if let near = suggestion(for: name, among: ids) { message += " (did you mean '\(near)'?)" }
                    throw value.error(message)
                }
                if stated.contains(index), try value.nonNegativeInt(max: 1_000_000) > 0 {
                    throw value.error("'\(name)' states its use with apps.\(name).sessions; give it weight 0 here or leave it out")
                }
                return (index, try value.nonNegativeInt(max: 1_000_000))
            }
        }
        return GenerateSpec(switchEveryUs: every, weights: weights,
                            homeEveryUs: try m["homeEvery"].map { try $0.positiveDuration() }, sessions: sessions)
    }
}
