import MemprofCore
import Testing

/// Spec §7: objects, their observers, leaks and dangling observers.
/// Every expected number is worked out by hand in the comment above it.
@Suite("Observers (spec §7)")
struct ObserverTests {
    static let didEnterBackground = "UIApplicationDidEnterBackgroundNotification"

    func app(_ objects: [ObjectSpec]) -> AppSpec {
        var a = makeApp("a")
        a.objects = objects
        return a
    }

    func center(_ r: SimulationResult, _ app: String = "a") -> ObserverReport {
        r.observers[app]!
    }

    @Test("a block observer that never unregisters leaks exactly N × its size and keeps receiving")
    func blockObserverLeaks() {
        // a: 20 MB; Inbox: 3 MB, observes didEnterBackground, block, never unregisters.
        // Shown at 2, 4, 6 s and dismissed at 3, 5, 7 s: each dismiss leaks one (3 MB stays).
        // Footprint 20 → 23 (2 s) → 26 (4 s) → 29 MB (6 s): 3 × 3 MB = 9 MB leaked.
        // 8 s home: didEnterBackground reaches the 3 leaked observers (3 deliveries); a suspends
        // at 29 MB (over 16 MB: stays in RAM).
        let inbox = ObjectSpec(name: "Inbox", size: 3 * MB, observes: [Self.didEnterBackground],
                               style: .block, unregisters: false)
        var script: [(Microseconds, ScriptAction)] = [(0, .open(0))]
        for k in 0..<3 {
            let t = Microseconds(2 + 2 * k) * sec
            script += [(t, .show(0, object: 0)), (t + sec, .dismiss(0, object: 0))]
        }
        script.append((8 * sec, .home))
        let r = simulate(makeWorkload([app([inbox])], duration: 10 * sec, script))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.appBytes("a") == [[0, 20 * MB], [2 * sec, 23 * MB], [4 * sec, 26 * MB], [6 * sec, 29 * MB]])
        let c = center(r)
        #expect(c.leakedObjects == 3)
        #expect(c.leakedBytes == 9 * MB)
        #expect(c.leaks == [LeakRecord(object: "Inbox", count: 3, bytes: 9 * MB,
                                       observes: [Self.didEnterBackground], style: .block)])
        #expect(c.deliveries == [Self.didEnterBackground: 3])
        #expect(c.observers.map(\.status.rawValue) == ["leaked", "leaked", "leaked"])
        #expect(c.observers.map(\.registeredAtUs) == [2 * sec, 4 * sec, 6 * sec])
        #expect(c.observers.map(\.dismissedAtUs) == [3 * sec, 5 * sec, 7 * sec])
        #expect(c.observers.map(\.removedAtUs) == [nil, nil, nil])
        #expect(c.observers.map(\.deliveries) == [1, 1, 1])
        #expect(c.observersOverTime == [[0, 0], [2 * sec, 1], [4 * sec, 2], [6 * sec, 3]])
        #expect(c.dangling.isEmpty)
        #expect(r.events("a", .notificationDelivery).map(\.fields.object) == ["Inbox#1", "Inbox#2", "Inbox#3"])
        #expect(r.events("a", .objectDismissed).map(\.fields.detail) == ["leaked", "leaked", "leaked"])
        #expect(r.finalState("a") == .suspended)
    }

    @Test("a selector observer left registered crashes the app on the next matching post, not before")
    func selectorObserverDangles() {
        // Compose: 5 MB, observes didEnterBackground, selector, never unregisters.
        // 2 s show (25 MB); 3 s dismiss: memory freed (20 MB), the observer stays (dangling).
        // 4 s interrupt for 1 s: willResignActive at 4 s, didBecomeActive at 5 s: not its
        // notification, nothing happens. 6 s home: willResignActive, then didEnterBackground is
        // posted to the deallocated observer: the app crashes with badAccess at 6 s, from
        // `background` (it is not suspended first).
        let compose = ObjectSpec(name: "Compose", size: 5 * MB, observes: [Self.didEnterBackground],
                                 style: .selector, unregisters: false)
        let r = simulate(makeWorkload([app([compose])], duration: 10 * sec, [
            (0, .open(0)), (2 * sec, .show(0, object: 0)), (3 * sec, .dismiss(0, object: 0)),
            (4 * sec, .interrupt(.notificationCenter, lengthUs: sec, answer: false)), (6 * sec, .home),
        ]))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.exits("a") == ["6000000 badAccess"])
        #expect(r.state("a", at: 5_999_999) == .active)
        #expect(r.appBytes("a") == [[0, 20 * MB], [2 * sec, 25 * MB], [3 * sec, 20 * MB], [6 * sec, 0]])
        #expect(r.transitions("a").suffix(3) == ["6000000 active>inactive", "6000000 inactive>background",
                                                 "6000000 background>notRunning"])
        #expect(r.terminations(.badAccess) == 1)
        let c = center(r)
        #expect(c.dangling == [DanglingRecord(object: "Compose", instance: 1, notification: Self.didEnterBackground,
                                              danglingSinceUs: 3 * sec, crashedAtUs: 6 * sec, crash: .badAccess)])
        #expect(c.observers.map(\.status.rawValue) == ["dangling"])
        #expect(c.observers.map(\.removedAtUs) == [6 * sec])
        #expect(c.leakedObjects == 0)
        #expect(c.observersOverTime == [[0, 0], [2 * sec, 1], [6 * sec, 0]])
        let deliveries = r.events("a", .notificationDelivery)
        #expect(deliveries.map(\.atUs) == [6 * sec])
        #expect(deliveries.map(\.fields.detail) == ["sent to a deallocated observer"])
    }

    @Test("an observer removed in time causes nothing")
    func unregisteredInTime() {
        // Same as the crash above, but Compose unregisters: at 3 s its memory and observer go;
        // the post at 6 s reaches nobody; the app suspends at 20 MB and lives on.
        let compose = ObjectSpec(name: "Compose", size: 5 * MB, observes: [Self.didEnterBackground],
                                 style: .selector, unregisters: true)
        let r = simulate(makeWorkload([app([compose])], duration: 10 * sec, [
            (0, .open(0)), (2 * sec, .show(0, object: 0)), (3 * sec, .dismiss(0, object: 0)), (6 * sec, .home),
        ]))
        #expect(r.exits("a").isEmpty)
        #expect(r.finalState("a") == .suspended)
        #expect(r.appBytes("a") == [[0, 20 * MB], [2 * sec, 25 * MB], [3 * sec, 20 * MB]])
        let c = center(r)
        #expect(c.observers.map(\.status.rawValue) == ["unregistered"])
        #expect(c.observers.map(\.removedAtUs) == [3 * sec])
        #expect(c.deliveries.isEmpty)
        #expect(c.leakedObjects == 0 && c.leakedBytes == 0)
        #expect(c.dangling.isEmpty)
        #expect(r.events("a", .notificationDelivery).isEmpty)
    }

    @Test("instances and observers go with their app")
    func instancesDieWithTheirApp() {
        // Inbox (3 MB, block, never unregisters) shown at 2 and 4 s, dismissed at 3 and 5 s:
        // two leaked; a third shown at 6 s stays on screen. 8 s quit: leaving the foreground posts
        // didEnterBackground to all three (3 deliveries), then the app ends and the center is
        // emptied. 10 s open: a new life at 20 MB. 12 s home: didEnterBackground reaches nobody.
        let inbox = ObjectSpec(name: "Inbox", size: 3 * MB, observes: [Self.didEnterBackground],
                               style: .block, unregisters: false)
        let r = simulate(makeWorkload([app([inbox])], duration: 14 * sec, [
            (0, .open(0)), (2 * sec, .show(0, object: 0)), (3 * sec, .dismiss(0, object: 0)),
            (4 * sec, .show(0, object: 0)), (5 * sec, .dismiss(0, object: 0)), (6 * sec, .show(0, object: 0)),
            (8 * sec, .quit(0)), (10 * sec, .open(0)), (12 * sec, .home),
        ]))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.exits("a") == ["8000000 userQuit"])
        #expect(r.appBytes("a") == [[0, 20 * MB], [2 * sec, 23 * MB], [4 * sec, 26 * MB], [6 * sec, 29 * MB],
                                    [8 * sec, 0], [10 * sec, 20 * MB]])
        let c = center(r)
        #expect(c.observers.map(\.status.rawValue) == ["leaked", "leaked", "appEnded"])
        #expect(c.observers.map(\.removedAtUs) == [8 * sec, 8 * sec, 8 * sec])
        #expect(c.deliveries == [Self.didEnterBackground: 3])
        #expect(c.observersOverTime == [[0, 0], [2 * sec, 1], [4 * sec, 2], [6 * sec, 3], [8 * sec, 0]])
        #expect(c.leakedObjects == 2)
        #expect(c.leakedBytes == 6 * MB)
    }

    @Test("show and dismiss need a running app and a shown instance")
    func ignoredActions() {
        // 0 s show before launch: ignored. 2 s dismiss with nothing shown: ignored.
        let inbox = ObjectSpec(name: "Inbox", size: 3 * MB, observes: [], style: .block, unregisters: false)
        let r = simulate(makeWorkload([app([inbox])], duration: 5 * sec, [
            (0, .show(0, object: 0)), (sec, .open(0)), (2 * sec, .dismiss(0, object: 0)),
        ]))
        #expect(r.events("a", .ignored).map(\.fields.detail) == ["the app runs no code while notRunning",
                                                          "no Inbox is shown"])
        #expect(center(r).observers.isEmpty)
        #expect(center(r).observersOverTime == [[0, 0]])
    }

    @Test("apps without objects have no notification center in the result")
    func noObjectsNoCenter() {
        let r = simulate(makeWorkload([makeApp("a")], duration: 5 * sec, [(0, .open(0))]))
        #expect(r.observers.isEmpty)
    }
}
