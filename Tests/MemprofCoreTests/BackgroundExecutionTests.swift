import MemprofCore
import Testing

/// Spec §2.2: background tasks, fetch, push, audio, location, VoIP.
/// Every expected number is worked out by hand in the comment above it.
@Suite("Background execution (spec §2.2)")
struct BackgroundExecutionTests {
    static func task(_ time: Microseconds, endsOnExpiration: Bool = false, allocates: Bytes = 0) -> BackgroundTaskSpec {
        BackgroundTaskSpec(handler: HandlerSpec(timeUs: time, allocates: allocates), endsOnExpiration: endsOnExpiration)
    }

    static func fetch(every interval: Microseconds?, time: Microseconds, allocates: Bytes = 0) -> FetchSpec {
        FetchSpec(intervalUs: interval, handler: HandlerSpec(timeUs: time, allocates: allocates))
    }

    @Test("background task: 12 min without endsOnExpiration killed at 10 min; with it, suspended; shorter ones complete")
    func backgroundTaskLimit() {
        // a: task 12 m, allocates 5 MB, killed on expiration. Leaves at 1 m → task 1 m … limit at
        //    1 + 10 = 11 m → expiredKilled, exit backgroundTaskTimeout at 11 m (it would end at 13 m).
        // b: same task, endsOnExpiration. Leaves at 2 m → at 12 m the task ends (20 MB again) and
        //    b is suspended.
        // c: task 3 m. Leaves at 4 m → completes at 7 m, suspended at 7 m.
        // Totals: started 3, completed 1, expiredEnded 1, expiredKilled 1.
        let apps = [makeApp("a", task: Self.task(12 * mins, allocates: 5 * MB)),
                    makeApp("b", task: Self.task(12 * mins, endsOnExpiration: true, allocates: 5 * MB)),
                    makeApp("c", task: Self.task(3 * mins))]
        let w = makeWorkload(apps, duration: 15 * mins,
                             [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .home),
                              (3 * mins, .open(2)), (4 * mins, .home)])
        let r = simulate(w)
        #expect(r.handlers("a") == ["60000000 start backgroundTask", "660000000 end backgroundTask expiredKilled"])
        #expect(r.exits("a") == ["660000000 backgroundTaskTimeout"])
        #expect(!r.callbacks("a").contains { $0.hasSuffix("applicationWillTerminate") })
        #expect(r.stats("a").backgroundTasks.expiredKilled == 1)
        #expect(r.appBytes("a") == [[0, 20 * MB], [1 * mins, 25 * MB], [11 * mins, 0]])

        #expect(r.handlers("b") == ["120000000 start backgroundTask", "720000000 end backgroundTask expiredEnded"])
        #expect(r.exits("b") == [])
        #expect(r.transitions("b").last == "720000000 background>suspended")
        #expect(r.appBytes("b").last == [12 * mins, 20 * MB])
        #expect(r.stats("b").backgroundTasks.expiredEnded == 1)

        #expect(r.handlers("c") == ["240000000 start backgroundTask", "420000000 end backgroundTask completed"])
        #expect(r.transitions("c").last == "420000000 background>suspended")

        let t = r.summary.backgroundTasks
        #expect([t.started, t.completed, t.expiredEnded, t.expiredKilled] == [3, 1, 1, 1])
        #expect(r.terminations(.backgroundTaskTimeout) == 1)
    }

    @Test("the background-task limit starts again in full after a return to the foreground")
    func backgroundTaskLimitRestarts() {
        // Task 20 m, killed on expiration. 0 open a; 1 m home (task starts, limit 11 m);
        // 5 m open a (the limit stops); 6 m home: the task is still running (until 21 m) so it is
        // not started again, and the new limit is 6 + 10 = 16 m: killed at 16 m, not 11 m.
        let w = makeWorkload([makeApp("a", task: Self.task(20 * mins))], duration: 20 * mins,
                             [(0, .open(0)), (1 * mins, .home), (5 * mins, .open(0)), (6 * mins, .home)])
        let r = simulate(w)
        #expect(r.exits("a") == ["960000000 backgroundTaskTimeout"])
        #expect(r.handlers("a") == ["60000000 start backgroundTask", "960000000 end backgroundTask expiredKilled"])
        #expect(r.stats("a").backgroundTasks.started == 1)
    }

    @Test("fetch wakes at interval after the later of leaving the foreground and the last fetch start")
    func fetchInterval() {
        // interval 15 m, handler 4 s holding 6 MB. 0 open a; 1 m home → wakes at 16 m (1 + 15),
        // then 31 m (16 + 15). 33 m open a (no fetch in the foreground), 34 m home → the later of
        // 34 m and 31 m is 34 m → wakes at 49 m. Three fetches, each 4 s, each completed.
        let a = makeApp("a", modes: [.fetch], fetch: Self.fetch(every: 15 * mins, time: 4 * sec, allocates: 6 * MB))
        let w = makeWorkload([a], duration: 50 * mins,
                             [(0, .open(0)), (1 * mins, .home), (33 * mins, .open(0)), (34 * mins, .home)])
        let r = simulate(w)
        #expect(r.handlers("a") == [
            "960000000 start fetch", "964000000 end fetch completed",
            "1860000000 start fetch", "1864000000 end fetch completed",
            "2940000000 start fetch", "2944000000 end fetch completed",
        ])
        // Woken from suspension into the background, 26 MB while fetching, suspended after.
        #expect(r.state("a", at: 16 * mins) == .background)
        #expect(r.state("a", at: 16 * mins + 4 * sec) == .suspended)
        #expect(r.appBytes("a").contains([16 * mins, 26 * MB]))
        #expect(r.appBytes("a").contains([16 * mins + 4 * sec, 20 * MB]))
        let f = r.stats("a").fetches
        #expect([f.started, f.completed, f.timedOut] == [3, 3, 0])
    }

    @Test("fetch without an interval never wakes; a compressed app is read back into RAM first")
    func fetchCompressedAndNoInterval() {
        // a: 10 MB (compressed when suspended), interval 5 m, 2 s. Leaves at 1 m → compressed;
        // at 6 m decompressed into the background, fetch 6 m … 6 m 2 s, then compressed again.
        // b: fetch mode but no interval: never woken.
        let a = makeApp("a", footprint: 10 * MB, modes: [.fetch], fetch: Self.fetch(every: 5 * mins, time: 2 * sec))
        let b = makeApp("b", modes: [.fetch], fetch: Self.fetch(every: nil, time: 2 * sec))
        let w = makeWorkload([a, b], duration: 10 * mins, [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .home)])
        let r = simulate(w)
        #expect(Array(r.transitions("a").suffix(3)) == [
            "360000000 compressed>background", "362000000 background>suspended", "362000000 suspended>compressed",
        ])
        #expect(r.events("a", .decompression).map(\.atUs) == [6 * mins])
        #expect(r.stats("a").fetches.completed == 1)
        #expect(r.stats("b").fetches.started == 0)
    }

    @Test("a fetch running past the 30 s window is killed with fetchTimeout")
    func fetchTimeout() {
        // interval 10 m, handler 40 s > 30 s. Leaves at 1 m → woken at 11 m → killed at 11 m 30 s.
        let a = makeApp("a", modes: [.fetch], fetch: Self.fetch(every: 10 * mins, time: 40 * sec))
        let r = simulate(makeWorkload([a], duration: 12 * mins, [(0, .open(0)), (1 * mins, .home)]))
        #expect(r.handlers("a") == ["660000000 start fetch", "690000000 end fetch timedOut"])
        #expect(r.exits("a") == ["690000000 fetchTimeout"])
        let f = r.stats("a").fetches
        #expect([f.started, f.completed, f.timedOut] == [1, 0, 1])
        #expect(r.terminations(.fetchTimeout) == 1)
    }

    @Test("an evicted app is launched into the background for its fetch")
    func fetchLaunchesEvictedApp() {
        // a: 20 MB, fetch every 10 m for 2 s, launch 1 s. b: 60 MB.
        // 0 open a; 1 m open b: a suspended (20 + 60 = 80 MB used), fetch wake due at 11 m.
        // 2 m b allocates 30 MB: 80 + 30 = 110 > 100 → a (the only suspended app) is evicted.
        // 3 m b frees 40 MB → used 50 MB.
        // 11 m: a is not running, evicted by the system → background launch (50 + 20 = 70 MB fits):
        // notRunning → background at 11 m, didFinishLaunching at 11 m 1 s, fetch 11 m 1 s … 11 m 3 s,
        // suspended at 11 m 3 s.
        let a = makeApp("a", modes: [.fetch], fetch: Self.fetch(every: 10 * mins, time: 2 * sec))
        let w = makeWorkload([a, makeApp("b", footprint: 60 * MB)], duration: 15 * mins,
                             [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .allocate(1, 30 * MB)),
                              (3 * mins, .free(1, 40 * MB))])
        let r = simulate(w)
        #expect(r.events("a", .eviction).map(\.atUs) == [2 * mins])
        #expect(r.exits("a") == ["120000000 memoryPressure"])
        #expect(Array(r.transitions("a").suffix(2)) == ["660000000 notRunning>background",
                                                        "663000000 background>suspended"])
        #expect(r.events("a", .launch).map(\.fields.detail) == ["cold", "background"])
        #expect(r.callbacks("a").last == "661000000 applicationDidFinishLaunching")
        #expect(r.handlers("a") == ["661000000 start fetch", "663000000 end fetch completed"])
        #expect(r.stats("a").launches.background == 1)
        #expect(r.summary.backgroundLaunches == 1)
        #expect(r.stats("a").evictions == 1)
    }

    @Test("an app killed in the foreground stays eligible and is launched into the background for its fetch")
    func fetchAfterForegroundKill() {
        // a: 20 MB, fetch every 10 m for 2 s; app limit 50 MB. 0 open a (active at 1 s).
        // 1 m a allocates 40 MB: 60 MB > 50 MB limit → killed with memoryLimit in the foreground.
        // The kill counts as leaving the foreground (spec §2.2): the fetch wake is due at 11 m, and
        // a, ended by the system, is launched into the background for it: notRunning → background
        // at 11 m, didFinishLaunching at 11 m 1 s, fetch 11 m 1 s … 11 m 3 s, suspended after.
        let a = makeApp("a", modes: [.fetch], fetch: Self.fetch(every: 10 * mins, time: 2 * sec))
        let w = makeWorkload([a], duration: 15 * mins, device: testDevice(appLimit: 50 * MB),
                             [(0, .open(0)), (1 * mins, .allocate(0, 40 * MB))])
        let r = simulate(w)
        #expect(r.exits("a") == ["60000000 memoryLimit"])
        #expect(Array(r.transitions("a").suffix(3)) == ["60000000 active>notRunning",
                                                        "660000000 notRunning>background",
                                                        "663000000 background>suspended"])
        #expect(r.events("a", .launch).map(\.fields.detail) == ["cold", "background"])
        #expect(r.handlers("a") == ["661000000 start fetch", "663000000 end fetch completed"])
        #expect(r.stats("a").launches.background == 1)
    }

    @Test("a push while the app's push handler runs is coalesced: recorded as ignored with the reason")
    func pushCoalesced() {
        // a: push 10 s. 0 open a; 1 m home (suspended). 2 m push: woken, handler 2 m … 2 m 10 s.
        // 2 m 5 s push again: the handler still runs → ignored, one handler run in all.
        let a = makeApp("a", modes: [.remoteNotification], push: HandlerSpec(timeUs: 10 * sec))
        let r = simulate(makeWorkload([a], duration: 5 * mins,
                                      [(0, .open(0)), (1 * mins, .home), (2 * mins, .push(0)),
                                       (2 * mins + 5 * sec, .push(0))]))
        #expect(r.handlers("a") == ["120000000 start push", "130000000 end push completed"])
        #expect(r.events("a", .ignored).map(\.fields.detail) == ["a push handler is already running"])
        #expect(r.events("a", .ignored).map(\.fields.action) == ["push"])
        #expect(r.stats("a").pushes.started == 1)
    }

    @Test("an app the user quit is not woken for fetch or push until it is opened again")
    func userQuitNotWoken() {
        // a: fetch every 10 m (2 s), remote notifications (push 1 s).
        // 0 open a; 1 m home (fetch due 11 m); 2 m quit a. 11 m: no fetch, no launch.
        // 20 m push a: delivered to the user only. 21 m open a (cold), 22 m home → fetch at 32 m.
        let a = makeApp("a", modes: [.fetch, .remoteNotification],
                        fetch: Self.fetch(every: 10 * mins, time: 2 * sec), push: HandlerSpec(timeUs: 1 * sec))
        let w = makeWorkload([a], duration: 35 * mins,
                             [(0, .open(0)), (1 * mins, .home), (2 * mins, .quit(0)), (20 * mins, .push(0)),
                              (21 * mins, .open(0)), (22 * mins, .home)])
        let r = simulate(w)
        #expect(r.state("a", at: 19 * mins) == .notRunning)
        #expect(r.events("a", .pushDelivered).map(\.atUs) == [20 * mins])
        #expect(r.stats("a").pushes.started == 0)
        #expect(r.stats("a").launches.background == 0)
        #expect(r.stats("a").launches.cold == 2)
        #expect(r.handlers("a") == ["1920000000 start fetch", "1922000000 end fetch completed"])
    }

    @Test("push: without remote-notification delivered to the user only; woken otherwise; in place in the foreground")
    func push() {
        // a: no remote-notification mode. b: push 2 s holding 4 MB. c: push 40 s (> 30 s window).
        // 0 open a; 1 m open b; 2 m open c; 3 m home — all three suspended (20 MB each).
        // 5 m push a → pushDelivered, a stays suspended.
        // 6 m push b → background 6 m … 6 m 2 s (24 MB), suspended again.
        // 7 m push c → woken, killed at 7 m 30 s with pushTimeout.
        // 9 m open c (cold, active at 9 m 1 s); 10 m push c → runs in place, no timeout: ends
        // completed at 10 m 40 s while c stays active; 12 m home.
        let apps = [makeApp("a"),
                    makeApp("b", modes: [.remoteNotification], push: HandlerSpec(timeUs: 2 * sec, allocates: 4 * MB)),
                    makeApp("c", modes: [.remoteNotification], push: HandlerSpec(timeUs: 40 * sec))]
        let w = makeWorkload(apps, duration: 15 * mins,
                             [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .open(2)), (3 * mins, .home),
                              (5 * mins, .push(0)), (6 * mins, .push(1)), (7 * mins, .push(2)),
                              (9 * mins, .open(2)), (10 * mins, .push(2)), (12 * mins, .home)])
        let r = simulate(w)
        #expect(r.events("a", .pushDelivered).map(\.atUs) == [5 * mins])
        #expect(r.transitions("a").last == "60000000 background>suspended")
        #expect(r.stats("a").pushes.started == 0)

        #expect(r.handlers("b") == ["360000000 start push", "362000000 end push completed"])
        #expect(Array(r.transitions("b").suffix(2)) == ["360000000 suspended>background", "362000000 background>suspended"])
        #expect(r.appBytes("b").contains([6 * mins, 24 * MB]))

        #expect(r.handlers("c") == ["420000000 start push", "450000000 end push timedOut",
                                    "600000000 start push", "640000000 end push completed"])
        #expect(r.exits("c") == ["450000000 pushTimeout"])
        #expect(r.events("c", .handlerStart).last?.fields.detail == "in the foreground")
        #expect(r.state("c", at: 10 * mins + 20 * sec) == .active)
        #expect(r.state("c", at: 11 * mins) == .active)
        let p = r.stats("c").pushes
        #expect([p.started, p.completed, p.timedOut] == [2, 1, 1])
        #expect(r.terminations(.pushTimeout) == 1)
    }

    @Test("audio keeps an app from suspending; a second player stops the first")
    func audio() {
        // 0 open m; 1 s play m; 10 s home: m stays `background`. 20 s open n; 21 s play n: m stops
        // and is suspended at 21 s (background 10 s … 21 s = 11 s). 30 s home: n keeps playing.
        let w = makeWorkload([makeApp("m", modes: [.audio]), makeApp("n", modes: [.audio])], duration: 40 * sec,
                             [(0, .open(0)), (1 * sec, .play(0)), (10 * sec, .home), (20 * sec, .open(1)),
                              (21 * sec, .play(1)), (30 * sec, .home)])
        let r = simulate(w)
        #expect(r.handlers("m") == ["1000000 start audio", "21000000 end audio interrupted by n"])
        #expect(Array(r.transitions("m").suffix(2)) == ["10000000 inactive>background", "21000000 background>suspended"])
        #expect(r.timeIn("m", .background) == 11 * sec)
        #expect(r.finalState("n") == .background)
        #expect(r.timeIn("n", .background) == 10 * sec)
    }

    @Test("location tracking keeps an app from suspending until untrack")
    func location() {
        // 0 open l; 1 s track; 10 s home → background; 20 s untrack → suspended at 20 s.
        let w = makeWorkload([makeApp("l", modes: [.location])], duration: 30 * sec,
                             [(0, .open(0)), (1 * sec, .track(0)), (10 * sec, .home), (20 * sec, .untrack(0))])
        let r = simulate(w)
        #expect(Array(r.transitions("l").suffix(2)) == ["10000000 inactive>background", "20000000 background>suspended"])
        #expect(r.timeIn("l", .background) == 10 * sec)
        #expect(r.handlers("l") == ["1000000 start location", "20000000 end location completed"])
    }

    @Test("VoIP: keep-alive every interval from launch, and no suspension during a call")
    func voip() {
        // keepalive 10 m, handler 1 s, launched at 0 → keep-alives at 10 m, 20 m, 30 m.
        // 1 m home → suspended. Each keep-alive: background for 1 s, then suspended.
        // 25 m call of 4 m: background 25 m … 29 m.
        // Background: 3 × 1 s + 4 m = 243 s.
        let v = makeApp("v", modes: [.voip], voip: VoIPSpec(keepaliveUs: 10 * mins, timeUs: 1 * sec))
        let w = makeWorkload([v], duration: 35 * mins,
                             [(0, .open(0)), (1 * mins, .home), (25 * mins, .voipCall(0, lengthUs: 4 * mins))])
        let r = simulate(w)
        #expect(Array(r.transitions("v").dropFirst(5)) == [
            "600000000 suspended>background", "601000000 background>suspended",
            "1200000000 suspended>background", "1201000000 background>suspended",
            "1500000000 suspended>background", "1740000000 background>suspended",
            "1800000000 suspended>background", "1801000000 background>suspended",
        ])
        #expect(r.handlers("v").filter { $0.contains("voipCall") } == ["1500000000 start voipCall",
                                                                      "1740000000 end voipCall completed"])
        #expect(r.timeIn("v", .background) == 243 * sec)
    }

    @Test("VoIP keep-alive is never more often than the policy's 10-minute minimum")
    func voipKeepaliveMinimum() {
        // A workload built in code asks for a 3 m keep-alive; seed-2015 allows no less than 10 m.
        // Launched at 0 → keep-alives at 10 m and 20 m only (not 3, 6, 9, … m).
        let v = makeApp("v", modes: [.voip], voip: VoIPSpec(keepaliveUs: 3 * mins, timeUs: 1 * sec))
        let r = simulate(makeWorkload([v], duration: 25 * mins, [(0, .open(0)), (1 * mins, .home)]))
        #expect(r.handlers("v").filter { $0.contains("start") } == ["600000000 start voipKeepalive",
                                                                   "1200000000 start voipKeepalive"])
    }
}
