/// Objects and the notification center that can be looked into (spec §7).
///
/// An instance holds its object's `size` (a demand when shown) and registers one observer per
/// name in `observes`. Dismissing it unregisters (memory and observers go), leaks (`block`
/// without unregistering: the block keeps the object alive and observing) or dangles (`selector`
/// without unregistering: the memory goes, the observer stays; the next post of its notification
/// crashes the app with `badAccess`). Everything goes with the app when it ends.
extension Simulator {
    /// `show: app, object: Name`.
    mutating func show(_ i: Int, _ o: Int, _ action: ScriptAction) {
        guard apps[i].state.runsCode else {
            return ignored(action, .runsNoCode(apps[i].state))
        }
        let spec = apps[i].spec.objects[o]
        guard demand(i, spec.size) else { return }
        setFootprint(i, apps[i].footprint + spec.size)
        let number = (apps[i].objects.shown[o] ?? 0) + 1
        apps[i].objects.shown[o] = number
        var instance = ObjectInstance(object: o, number: number, observers: [])
        for name in spec.observes {
            let r = apps[i].objects.records.count
            apps[i].objects.records.append(ObserverRecord(
                object: spec.name, instance: number, notification: name, style: spec.style,
                registeredAtUs: now, removedAtUs: nil, status: .registered, dismissedAtUs: nil,
                deliveries: 0, crashedAtUs: nil))
            apps[i].objects.registered.append(r)
            instance.observers.append(r)
        }
        apps[i].objects.instances.append(instance)
        observersChanged(i)
        record(.objectShown(object: "\(spec.name)#\(number)", bytes: spec.size), i)
    }

    /// `dismiss: app, object: Name`: the most recently shown instance that is still on screen.
    mutating func dismiss(_ i: Int, _ o: Int, _ action: ScriptAction) {
        guard apps[i].state.runsCode else {
            return ignored(action, .runsNoCode(apps[i].state))
        }
        let spec = apps[i].spec.objects[o]
        guard let k = apps[i].objects.instances.lastIndex(where: { $0.object == o && !$0.leaked }) else {
            return ignored(action, .noObjectShown(spec.name))
        }
        let instance = apps[i].objects.instances[k]
        let outcome: DismissalOutcome
        if spec.unregisters || spec.observes.isEmpty {
            outcome = .unregistered
            for r in instance.observers {
                apps[i].objects.records[r].removedAtUs = now
            }
            let gone = Set(instance.observers)
            apps[i].objects.registered.removeAll { gone.contains($0) }
        } else {
            outcome = spec.style == .block ? .leaked : .dangling
        }
        for r in instance.observers {
            apps[i].objects.records[r].status = outcome.status
            apps[i].objects.records[r].dismissedAtUs = now
        }
        if outcome == .leaked {
            apps[i].objects.instances[k].leaked = true
            apps[i].objects.leakCounts[o, default: 0] += 1
        } else {
            apps[i].objects.instances.remove(at: k)
            setFootprint(i, apps[i].footprint - min(spec.size, apps[i].footprint))
        }
        observersChanged(i)
        record(.objectDismissed(object: "\(spec.name)#\(instance.number)", outcome: outcome, bytes: spec.size), i)
    }

    /// Posts `name` to app `i`'s registered observers, in the order they registered. A post to a
    /// dangling observer crashes the app: the crash comes at this same instant, once the step
    /// that posted is over, and nothing more is delivered to the app meanwhile.
    mutating func postToObservers(_ i: Int, _ name: String) {
        guard !apps[i].objects.registered.isEmpty, apps[i].objects.pendingCrash == nil else { return }
        for r in apps[i].objects.registered where apps[i].objects.records[r].notification == name {
            let observer = apps[i].objects.records[r]
            apps[i].objects.records[r].deliveries += 1
            apps[i].objects.deliveries[name, default: 0] += 1
            let dangling = observer.status == .dangling
            let to: DeliveredObserver = dangling ? .dangling : observer.status == .leaked ? .leaked : .registered
            record(.notificationDelivery(notification: name, object: "\(observer.object)#\(observer.instance)",
                                         observer: to), i)
            if dangling {
                apps[i].objects.records[r].crashedAtUs = now
                apps[i].objects.pendingCrash = r
                schedule(at: now, .observerCrash(app: i, lifeToken: apps[i].lifeToken))
                return
            }
        }
    }

    /// The crash a post to a dangling observer caused.
    mutating func observerCrash(_ i: Int, _ token: UInt64) {
        guard apps[i].lifeToken == token, apps[i].state != .notRunning,
              apps[i].objects.pendingCrash != nil else { return }
        kill(i, .badAccess, requested: nil)
    }

    /// An app that ends loses every instance and observer.
    mutating func endObjects(_ i: Int) {
        apps[i].objects.pendingCrash = nil
        guard !apps[i].objects.registered.isEmpty || !apps[i].objects.instances.isEmpty else { return }
        for r in apps[i].objects.registered {
            apps[i].objects.records[r].removedAtUs = now
            if apps[i].objects.records[r].status == .registered {
                apps[i].objects.records[r].status = .appEnded
            }
        }
        apps[i].objects.registered.removeAll()
        apps[i].objects.instances.removeAll()
        observersChanged(i)
    }

    mutating func observersChanged(_ i: Int) {
        apps[i].objects.series.record(now, Int64(apps[i].objects.registered.count))
    }

    /// The report of an app's notification center; nil for apps that declare no objects.
    func observerReport(_ i: Int) -> ObserverReport? {
        let spec = apps[i].spec
        guard !spec.objects.isEmpty else { return nil }
        let objects = apps[i].objects
        var overTime = objects.series.pairs
        if overTime.first?.first != 0 { overTime.insert([0, 0], at: 0) }
        var leaks: [LeakRecord] = []
        for (o, object) in spec.objects.enumerated() {
            guard let count = objects.leakCounts[o], count > 0 else { continue }
            leaks.append(LeakRecord(object: object.name, count: count, bytes: Bytes(count) * object.size,
                                    observes: object.observes, style: object.style))
        }
        let dangling = objects.records.filter { $0.status == .dangling }.map {
            DanglingRecord(object: $0.object, instance: $0.instance, notification: $0.notification,
                           danglingSinceUs: $0.dismissedAtUs ?? 0, crashedAtUs: $0.crashedAtUs,
                           crash: $0.crashedAtUs == nil ? nil : .badAccess)
        }
        return ObserverReport(observers: objects.records, deliveries: objects.deliveries,
                              observersOverTime: overTime, leakedObjects: leaks.reduce(0) { $0 + $1.count },
                              leakedBytes: leaks.reduce(0) { $0 + $1.bytes }, leaks: leaks, dangling: dangling)
    }
}
