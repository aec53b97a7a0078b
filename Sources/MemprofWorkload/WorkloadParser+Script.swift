import MemprofCore

extension WorkloadParser {
    static let actionKeys = ["open", "home", "interrupt", "quit", "push", "allocate", "free", "memoryWarning",
                             "play", "stop", "track", "untrack", "voipCall", "show", "dismiss"]
    static let scriptKeys = ["at"] + actionKeys + ["answer", "length", "size", "object"]

    func parseScript(_ node: NodeReader, apps: [AppSpec], ids: [String], duration: Microseconds) throws -> [ScriptEntry] {
        var entries: [ScriptEntry] = []
        var previous: Microseconds = 0
        for item in try node.sequence() {
            let m = try item.mapping(allowed: Self.scriptKeys)
            let atNode = try m.required("at")
            let at = try atNode.duration()
            guard at >= previous else {
                throw atNode.error("script times must not go backwards: this is before the previous entry")
            }
            guard at <= duration else { throw atNode.error("this is past the workload's duration") }
            previous = at
            entries.append(ScriptEntry(atUs: at, action: try parseAction(m, item, apps: apps, ids: ids)))
        }
        return entries
    }

    func parseAction(_ m: Mapping, _ item: NodeReader, apps: [AppSpec], ids: [String]) throws -> ScriptAction {
        let present = m.keys.filter { Self.actionKeys.contains($0) }
        guard present.count == 1, let key = present.first, let value = m[key] else {
            let found = present.isEmpty ? "none" : present.joined(separator: ", ")
            throw item.error("a script entry needs exactly one action (\(Self.actionKeys.joined(separator: ", "))); found \(found)")
        }
        let allowedExtras: [String: [String]] = [
            "interrupt": ["answer", "length"], "allocate": ["size"], "free": ["size"], "voipCall": ["length"],
            "show": ["object"], "dismiss": ["object"],
        ]
        for extra in m.keys where extra != "at" && extra != key && !(allowedExtras[key] ?? []).contains(extra) {
            throw m[extra]!.error("'\(extra)' does not go with '\(key)'")
        }
        func app() throws -> Int {
            let name = try value.string()
            guard let index = ids.firstIndex(of: name) else {
                var message = "no app named '\(name)' in apps"
                if let near = suggestion(for: name, among: ids) { message += " (did you mean '\(near)'?)" }
                throw value.error(message)
            }
            return index
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
        case "allocate": return .allocate(try app(), try m.required("size").size())
        case "free": return .free(try app(), try m.required("size").size())
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

    func parseGenerate(_ node: NodeReader, ids: [String]) throws -> GenerateSpec {
        let m = try node.mapping(allowed: ["switchEvery", "weights", "homeEvery"])
        let every = try m.required("switchEvery").positiveDuration()
        var weights: [(app: Int, weight: Int)] = ids.indices.map { ($0, 1) }
        if let w = m["weights"] {
            weights = try w.namedEntries().map { name, value in
                guard let index = ids.firstIndex(of: name) else {
                    var message = "no app named '\(name)' in apps"
                    if let near = suggestion(for: name, among: ids) { message += " (did you mean '\(near)'?)" }
                    throw value.error(message)
                }
                return (index, try value.nonNegativeInt(max: 1_000_000))
            }
        }
        return GenerateSpec(switchEveryUs: every, weights: weights,
                            homeEveryUs: try m["homeEvery"].map { try $0.positiveDuration() })
    }
}
