import MemprofCore

extension Report {
    /// Observer problems in words (spec §7): crashes first, then leaks, then dangling observers
    /// that had not crashed the app (yet); apps and objects in the workload's order. Nil when no
    /// app declares objects.
    static func findings(workload: Workload, observers: [String: ObserverReport]) -> [Finding]? {
        guard workload.apps.contains(where: { !$0.objects.isEmpty }) else { return nil }
        var crashes: [Finding] = []
        var leaks: [Finding] = []
        var dangling: [Finding] = []
        for app in workload.apps {
            guard let center = observers[app.id] else { continue }
            for d in center.dangling {
                if let at = d.crashedAtUs {
                    crashes.append(Finding(app: app.id, kind: "crash", object: d.object, text:
                        "\(d.object) crashed \(app.id) at \(Format.duration(at)) (\(ExitReason.badAccess.rawValue)): "
                        + "\(d.notification) was posted to its selector observer after it was dismissed at "
                        + "\(Format.duration(d.danglingSinceUs)) without unregistering"))
                }
            }
            for leak in center.leaks {
                let times = leak.count == 1 ? "once" : "\(leak.count) times"
                leaks.append(Finding(app: app.id, kind: "leak", object: leak.object, text:
                    "\(leak.object) leaked \(times) (\(Format.bytes(leak.bytes))): observes "
                    + "\(list(leak.observes)) with a \(leak.style.rawValue) and never unregisters"))
            }
            var uncrashed: [String: [DanglingRecord]] = [:]
            var order: [String] = []
            for d in center.dangling where d.crashedAtUs == nil {
                if uncrashed[d.object] == nil { order.append(d.object) }
                uncrashed[d.object, default: []].append(d)
            }
            for object in order {
                let records = uncrashed[object]!
                let names = records.reduce(into: [String]()) { if !$0.contains($1.notification) { $0.append($1.notification) } }
                let count = records.count == 1 ? "a dangling selector observer" : "\(records.count) dangling selector observers"
                dangling.append(Finding(app: app.id, kind: "dangling", object: object, text:
                    "\(object) left \(count) of \(list(names)) in \(app.id) (dismissed without unregistering); "
                    + "the next post would crash the app with \(ExitReason.badAccess.rawValue)"))
            }
        }
        return crashes + leaks + dangling
    }

    private static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: "nothing"
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }
}
