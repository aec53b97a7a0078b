import MemprofCore
import Testing

/// Spec §2 and §2.1: launches, resumes, leaving the foreground, interruptions, quits.
/// Every expected number is worked out by hand in the comment above it.
@Suite("Foreground lifecycle (spec §2.1)")
struct ForegroundLifecycleTests {
    @Test("cold launch: inactive at once, active after the launch time, callbacks in order")
    func coldLaunch() {
        // a: 20 MB, launch 1 s. open at 0.
        // t=0: notRunning → inactive (demands 20 MB). t=1 s: didFinishLaunching, didBecomeActive,
        // inactive → active. Duration 10 s: inactive 1 s, active 9 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 10 * sec, [(0, .open(0))]))
        #expect(r.transitions("a") == ["0 notRunning>inactive", "1000000 inactive>active"])
        #expect(r.callbacks("a") == ["1000000 applicationDidFinishLaunching",
                                     "1000000 applicationDidBecomeActive"])
        #expect(r.timeIn("a", .inactive) == 1 * sec)
        #expect(r.timeIn("a", .active) == 9 * sec)
        #expect(r.timeIn("a", .notRunning) == 0)
        #expect(r.summary.coldLaunches == 1)
        #expect(r.stats("a").launches.cold == 1)
        #expect(r.events("a", .launch).map(\.fields.detail) == ["cold"])
        // Each callback posts its notification once.
        #expect(r.notificationsPosted["a"]?["UIApplicationDidFinishLaunchingNotification"] == 1)
        #expect(r.notificationsPosted["a"]?["UIApplicationDidBecomeActiveNotification"] == 1)
        // Resident from t=0: [[0, 20 MB]].
        #expect(r.appBytes("a") == [[0, 20 * MB]])
        #expect(r.timeline.usedBytes == [[0, 20 * MB]])
    }

    @Test("warm resume: willEnterForeground, inactive, active after the resume time")
    func warmResume() {
        // a: 20 MB (≥ 16 MB, so suspended in RAM, not compressed), resume 300 ms.
        // 0 open a; 2 s open b (a: resign, enterBackground, suspended at 2 s); 4 s open a:
        // willEnterForeground, suspended → inactive at 4 s; active at 4 s + 300 ms = 4.3 s.
        let w = makeWorkload([makeApp("a", resume: 300 * ms), makeApp("b")], duration: 10 * sec,
                             [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(0))])
        let r = simulate(w)
        #expect(r.transitions("a") == [
            "0 notRunning>inactive", "1000000 inactive>active",
            "2000000 active>inactive", "2000000 inactive>background", "2000000 background>suspended",
            "4000000 suspended>inactive", "4300000 inactive>active",
        ])
        #expect(r.callbacks("a") == [
            "1000000 applicationDidFinishLaunching", "1000000 applicationDidBecomeActive",
            "2000000 applicationWillResignActive", "2000000 applicationDidEnterBackground",
            "4000000 applicationWillEnterForeground", "4300000 applicationDidBecomeActive",
        ])
        #expect(r.events("a", .resume).map(\.fields.latencyUs) == [300_000])
        #expect(r.events("a", .resume).map(\.fields.detail) == ["warm"])
        #expect(r.summary.warmResumes == 1)
        #expect(r.summary.compressedResumes == 0)
        #expect(r.stats("a").launches.warm == 1)
        #expect(r.stats("a").resumeLatencyUs.p50 == 300_000)
        #expect(r.stats("a").resumeLatencyUs.max == 300_000)
    }

    @Test("compressed resume: latency = resumeTime + footprint ÷ flashReadRate, flash freed")
    func compressedResume() {
        // a: 10 MB (< 16 MB), resume 200 ms; flash read rate 40 MB/s.
        // 0 open a; 2 s open b: a suspended and compressed at 2 s (compressedUsed 10 MB).
        // 5 s open a: demands 10 MB back (used 20 + 10 = 30 MB), flash freed (compressedUsed 0),
        // latency = 200 000 + 10 MB × 10⁶ / 40 MB = 200 000 + 250 000 = 450 000 µs → active at 5.45 s.
        let w = makeWorkload([makeApp("a", footprint: 10 * MB), makeApp("b")], duration: 10 * sec,
                             device: testDevice(flashReadRate: 40 * MB),
                             [(0, .open(0)), (2 * sec, .open(1)), (5 * sec, .open(0))])
        let r = simulate(w)
        #expect(r.transitions("a").suffix(4) == [
            "2000000 background>suspended", "2000000 suspended>compressed",
            "5000000 compressed>inactive", "5450000 inactive>active",
        ])
        #expect(r.events("a", .decompression).map(\.fields.bytes) == [10 * MB])
        #expect(r.events("a", .resume).map(\.fields.latencyUs) == [450_000])
        #expect(r.events("a", .resume).map(\.fields.detail) == ["fromCompressed"])
        #expect(r.summary.compressedResumes == 1)
        #expect(r.summary.warmResumes == 0)
        #expect(r.stats("a").launches.fromCompressed == 1)
        // Flash: 0 → 10 MB at 2 s → 0 at 5 s. RAM: a 10 MB, b 20 MB after 2 s, both from 5 s.
        #expect(r.timeline.compressedBytes == [[0, 0], [2 * sec, 10 * MB], [5 * sec, 0]])
        #expect(r.timeline.usedBytes == [[0, 10 * MB], [2 * sec, 20 * MB], [5 * sec, 30 * MB]])
        #expect(r.appBytes("a") == [[0, 10 * MB], [2 * sec, 0], [5 * sec, 10 * MB]])
        #expect(r.summary.peakCompressedBytes == 10 * MB)
    }

    @Test("open of the foreground app is ignored")
    func openForegroundIgnored() {
        // 0 open a; 0.5 s open a (still launching, inactive: in the foreground); 3 s open a (active).
        // Both later opens are ignored: two `ignored` events, one cold launch, two transitions.
        let r = simulate(makeWorkload([makeApp("a")], duration: 5 * sec,
                                      [(0, .open(0)), (500 * ms, .open(0)), (3 * sec, .open(0))]))
        let ignored = r.events("a", .ignored)
        #expect(ignored.map(\.atUs) == [500 * ms, 3 * sec])
        #expect(ignored.allSatisfy { $0.fields.action == "open" })
        #expect(r.transitions("a") == ["0 notRunning>inactive", "1000000 inactive>active"])
        #expect(r.summary.coldLaunches == 1)
    }

    @Test("leaving the foreground: resign then enter background, release, suspension after the handler")
    func leavingForeground() {
        // a: 30 MB, releases 5 MB on background, enter-background handler 3 s.
        // b: 20 MB, no handler.
        // 0 open a; 2 s open b: a resigns and enters the background at 2 s, drops to 25 MB, stays
        // `background` while its handler runs, suspended at 2 s + 3 s = 5 s.
        // 4 s home: b leaves, no handler, so suspended at 4 s. 6 s home: nothing in the foreground.
        let a = makeApp("a", footprint: 30 * MB, backgroundRelease: 5 * MB, backgroundHandler: 3 * sec)
        let w = makeWorkload([a, makeApp("b")], duration: 10 * sec,
                             [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .home), (6 * sec, .home)])
        let r = simulate(w)
        #expect(r.transitions("a") == [
            "0 notRunning>inactive", "1000000 inactive>active",
            "2000000 active>inactive", "2000000 inactive>background", "5000000 background>suspended",
        ])
        #expect(r.callbacks("a").suffix(2) == ["2000000 applicationWillResignActive",
                                               "2000000 applicationDidEnterBackground"])
        #expect(r.appBytes("a") == [[0, 30 * MB], [2 * sec, 25 * MB]])
        // a: inactive 1 s, active 1 s, background 3 s, suspended 5 s.
        #expect(r.timeIn("a", .background) == 3 * sec)
        #expect(r.timeIn("a", .suspended) == 5 * sec)
        #expect(r.transitions("b").suffix(3) == ["4000000 active>inactive", "4000000 inactive>background",
                                                 "4000000 background>suspended"])
        // The second home at 6 s changes nothing.
        let ignored = r.events.filter { $0.kind == .ignored }
        #expect(ignored.map(\.atUs) == [6 * sec])
        #expect(ignored.map(\.fields.action) == ["home"])
    }

    @Test("leaving before the launch completes: didFinishLaunching still comes first, at the launch's end")
    func leavingDuringLaunch() {
        // a: launch 2 s, releases 2 MB on background. 0 open a; 1 s open b: a leaves while still
        // launching → `background` at 1 s with no callback yet; at 2 s didFinishLaunching, then
        // didEnterBackground, the release (20 → 18 MB, still ≥ 16 MB: not compressed), suspension.
        // c: launch 3 s. 10 s open c; 11 s open b (c leaves, launch ends at 13 s); 12 s open c:
        // back in the foreground (inactive) still launching → at 13 s didFinishLaunching,
        // didBecomeActive, active. No warm resume for c; cold launches a, b, c = 3.
        let a = makeApp("a", launch: 2 * sec, backgroundRelease: 2 * MB)
        let c = makeApp("c", launch: 3 * sec)
        let w = makeWorkload([a, makeApp("b"), c], duration: 20 * sec,
                             [(0, .open(0)), (1 * sec, .open(1)), (10 * sec, .open(2)), (11 * sec, .open(1)),
                              (12 * sec, .open(2))])
        let r = simulate(w)
        #expect(r.transitions("a") == ["0 notRunning>inactive", "1000000 inactive>background",
                                       "2000000 background>suspended"])
        #expect(r.callbacks("a") == ["2000000 applicationDidFinishLaunching", "2000000 applicationDidEnterBackground"])
        #expect(r.appBytes("a") == [[0, 20 * MB], [2 * sec, 18 * MB]])
        #expect(r.transitions("c") == ["10000000 notRunning>inactive", "11000000 inactive>background",
                                       "12000000 background>inactive", "13000000 inactive>active"])
        #expect(r.callbacks("c") == ["13000000 applicationDidFinishLaunching", "13000000 applicationDidBecomeActive"])
        #expect(r.stats("c").launches.warm == 0)
        #expect(r.summary.coldLaunches == 3)
    }

    @Test("enter-background handler over 5 s: watchdog at exactly 5 s; exactly 5 s is fine")
    func enterBackgroundWatchdog() {
        // a: handler 6 s > 5 s. Leaves at 2 s → killed at 2 + 5 = 7 s with `watchdog`, no callback.
        // b: handler exactly 5 s. Leaves at 4 s → suspended at 9 s, not killed.
        let w = makeWorkload([makeApp("a", backgroundHandler: 6 * sec), makeApp("b", backgroundHandler: 5 * sec)],
                             duration: 20 * sec, [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .home)])
        let r = simulate(w)
        #expect(r.exits("a") == ["7000000 watchdog"])
        #expect(!r.callbacks("a").contains { $0.hasSuffix("applicationWillTerminate") })
        #expect(r.timeIn("a", .background) == 5 * sec)
        #expect(r.finalState("a") == .notRunning)
        #expect(r.exits("b") == [])
        #expect(r.transitions("b").last == "9000000 background>suspended")
        #expect(r.timeIn("b", .background) == 5 * sec)
        #expect(r.terminations(.watchdog) == 1)
    }

    @Test("interrupt: inactive for its length, then active again")
    func interrupt() {
        // 0 open a (active at 1 s); 5 s notification centre for 3 s: resign, inactive 5 s – 8 s,
        // didBecomeActive at 8 s. Inactive 1 s (launch) + 3 s = 4 s; active 4 s + 2 s = 6 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 10 * sec,
                                      [(0, .open(0)), (5 * sec, .interrupt(.notificationCenter, lengthUs: 3 * sec, answer: false))]))
        #expect(r.transitions("a") == ["0 notRunning>inactive", "1000000 inactive>active",
                                       "5000000 active>inactive", "8000000 inactive>active"])
        #expect(r.callbacks("a").suffix(2) == ["5000000 applicationWillResignActive",
                                               "8000000 applicationDidBecomeActive"])
        #expect(r.timeIn("a", .inactive) == 4 * sec)
        #expect(r.timeIn("a", .active) == 6 * sec)
    }

    @Test("answered call: background at once, opened again when the call ends")
    func answeredCall() {
        // 0 open a; 5 s answered call of 45 s: resign + enter background at 5 s, suspended at 5 s
        // (20 MB, not compressed). At 50 s a is opened again: warm resume, active at 50.2 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 60 * sec,
                                      [(0, .open(0)), (5 * sec, .interrupt(.call, lengthUs: 45 * sec, answer: true))]))
        #expect(r.transitions("a") == [
            "0 notRunning>inactive", "1000000 inactive>active",
            "5000000 active>inactive", "5000000 inactive>background", "5000000 background>suspended",
            "50000000 suspended>inactive", "50200000 inactive>active",
        ])
        #expect(r.callbacks("a").suffix(4) == [
            "5000000 applicationWillResignActive", "5000000 applicationDidEnterBackground",
            "50000000 applicationWillEnterForeground", "50200000 applicationDidBecomeActive",
        ])
        #expect(r.summary.warmResumes == 1)
    }

    @Test("answered call while inactive: the app still goes to the background (spec §2.1)")
    func answeredCallWhileInactive() {
        // 0 open a (active at 1 s); 5 s notification centre for 10 s: resign, inactive.
        // 7 s answered call of 45 s: the phone app takes the screen from the inactive app, which
        // enters the background at 7 s (no second resign) and suspends (20 MB, not compressed).
        // The notification centre's end at 15 s belongs to the old foreground period: nothing.
        // 52 s the call ends with the home screen showing: warm resume, active at 52.2 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 60 * sec,
                                      [(0, .open(0)),
                                       (5 * sec, .interrupt(.notificationCenter, lengthUs: 10 * sec, answer: false)),
                                       (7 * sec, .interrupt(.call, lengthUs: 45 * sec, answer: true))]))
        #expect(r.transitions("a") == [
            "0 notRunning>inactive", "1000000 inactive>active", "5000000 active>inactive",
            "7000000 inactive>background", "7000000 background>suspended",
            "52000000 suspended>inactive", "52200000 inactive>active",
        ])
        #expect(r.callbacks("a").suffix(4) == [
            "5000000 applicationWillResignActive", "7000000 applicationDidEnterBackground",
            "52000000 applicationWillEnterForeground", "52200000 applicationDidBecomeActive",
        ])
        #expect(r.events("a", .ignored).isEmpty)
    }

    @Test("interruption while already inactive: inactive until the later end (spec §2.1)")
    func interruptionWhileInactive() {
        // 0 open a (active at 1 s); 5 s notification centre for 10 s (ends 15 s); 8 s an
        // unanswered call for 20 s (ends 28 s). a resigns once at 5 s and becomes active only at
        // 28 s: inactive 1 s (launch) + 23 s = 24 s; active 4 s + 32 s = 36 s of 60 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 60 * sec,
                                      [(0, .open(0)),
                                       (5 * sec, .interrupt(.notificationCenter, lengthUs: 10 * sec, answer: false)),
                                       (8 * sec, .interrupt(.call, lengthUs: 20 * sec, answer: false))]))
        #expect(r.transitions("a") == ["0 notRunning>inactive", "1000000 inactive>active",
                                       "5000000 active>inactive", "28000000 inactive>active"])
        #expect(r.callbacks("a").suffix(2) == ["5000000 applicationWillResignActive",
                                               "28000000 applicationDidBecomeActive"])
        #expect(r.timeIn("a", .inactive) == 24 * sec)
        #expect(r.timeIn("a", .active) == 36 * sec)
        // The shorter interruption ends first and changes nothing; a later, shorter one inside a
        // longer one does not shorten it either.
        #expect(r.events("a", .ignored).isEmpty)
    }

    @Test("interruption during a launch: didFinishLaunching at the launch's end, active at the interruption's end")
    func interruptionDuringLaunch() {
        // 0 open a (launch 1 s, inactive); 0.5 s notification centre for 2 s (ends 2.5 s).
        // 1 s: didFinishLaunching, but the interruption is still on screen: inactive.
        // 2.5 s: didBecomeActive, active. Inactive 2.5 s, active 7.5 s of 10 s.
        // And the other way round: b's interruption (0.2 s for 0.3 s, ends 0.5 s) ends before
        // its 1 s launch does, so b is active at 1 s.
        let r = simulate(makeWorkload([makeApp("a")], duration: 10 * sec,
                                      [(0, .open(0)),
                                       (500 * ms, .interrupt(.notificationCenter, lengthUs: 2 * sec, answer: false))]))
        #expect(r.transitions("a") == ["0 notRunning>inactive", "2500000 inactive>active"])
        #expect(r.callbacks("a") == ["1000000 applicationDidFinishLaunching", "2500000 applicationDidBecomeActive"])
        #expect(r.timeIn("a", .inactive) == 2500 * ms)
        let short = simulate(makeWorkload([makeApp("b")], duration: 10 * sec,
                                          [(0, .open(0)),
                                           (200 * ms, .interrupt(.notificationCenter, lengthUs: 300 * ms, answer: false))]))
        #expect(short.transitions("b") == ["0 notRunning>inactive", "1000000 inactive>active"])
        #expect(short.callbacks("b") == ["1000000 applicationDidFinishLaunching", "1000000 applicationDidBecomeActive"])
    }

    @Test("quitting the foreground app starts no background work and sends applicationWillTerminate")
    func quitForegroundStartsNoBackgroundWork() {
        // a: 12 MB (under the 16 MB threshold), releases 4 MB on entering the background, a 2 s
        // enter-background handler and a 3 m background task. 0 open a; 1 m quit a: resign,
        // didEnterBackground, willTerminate, exit userQuit at 1 m — no release (footprint stays
        // 12 MB until the exit), no handler or task, no compression.
        let a = makeApp("a", footprint: 12 * MB, backgroundRelease: 4 * MB, backgroundHandler: 2 * sec,
                        task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 3 * mins)))
        let r = simulate(makeWorkload([a], duration: 5 * mins, [(0, .open(0)), (1 * mins, .quit(0))]))
        #expect(r.callbacks("a").suffix(3) == ["60000000 applicationWillResignActive",
                                               "60000000 applicationDidEnterBackground",
                                               "60000000 applicationWillTerminate"])
        #expect(r.exits("a") == ["60000000 userQuit"])
        #expect(r.handlers("a").isEmpty)
        #expect(r.summary.backgroundTasks.started == 0)
        #expect(r.summary.compressions == 0)
        #expect(r.appBytes("a") == [[0, 12 * MB], [1 * mins, 0]])
    }

    @Test("quit: a running app gets applicationWillTerminate, a suspended one does not")
    func quit() {
        // 0 open b; 1 m open c; 2 m open a. b suspended at 1 m. c has a 10-minute task, so it is
        // `background` from 2 m. 3 m quit b (suspended: no callback), quit c (background:
        // willTerminate), 4 m quit a (foreground: resign, enter background, willTerminate).
        // 4.5 m quit a again: not running, ignored. Three userQuit exits.
        let c = makeApp("c", task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 10 * mins)))
        let w = makeWorkload([makeApp("a"), makeApp("b"), c], duration: 5 * mins,
                             [(0, .open(1)), (1 * mins, .open(2)), (2 * mins, .open(0)),
                              (3 * mins, .quit(1)), (3 * mins, .quit(2)), (4 * mins, .quit(0)),
                              (270 * sec, .quit(0))])
        let r = simulate(w)
        #expect(r.exits("b") == ["180000000 userQuit"])
        #expect(!r.callbacks("b").contains { $0.hasSuffix("applicationWillTerminate") })
        #expect(r.transitions("b").last == "180000000 suspended>notRunning")
        #expect(r.exits("c") == ["180000000 userQuit"])
        #expect(r.callbacks("c").last == "180000000 applicationWillTerminate")
        #expect(r.exits("a") == ["240000000 userQuit"])
        #expect(r.callbacks("a").suffix(3) == ["240000000 applicationWillResignActive",
                                               "240000000 applicationDidEnterBackground",
                                               "240000000 applicationWillTerminate"])
        #expect(r.events("a", .ignored).map(\.atUs) == [270 * sec])
        #expect(r.terminations(.userQuit) == 3)
        #expect(r.timeline.usedBytes.last == [4 * mins, 0])
    }

    @Test("time in states adds up to the duration for every app")
    func timeInStatesAddUp() {
        // A mix of every kind of stay: launched, resumed, compressed, background, killed, never run.
        // Whatever happens, each app's six state times add up to the 20-minute duration.
        let apps = [
            makeApp("small", footprint: 8 * MB),
            makeApp("task", task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 12 * mins))),
            makeApp("fetcher", modes: [.fetch], fetch: FetchSpec(intervalUs: 3 * mins, handler: HandlerSpec(timeUs: 5 * sec))),
            makeApp("big", footprint: 70 * MB),
            makeApp("idle"),
        ]
        let w = makeWorkload(apps, duration: 20 * mins,
                             [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .open(2)), (3 * mins, .open(3)),
                              (4 * mins, .open(0)), (5 * mins, .interrupt(.taskSwitcher, lengthUs: 10 * sec, answer: false)),
                              (6 * mins, .home), (7 * mins, .open(1)), (8 * mins, .quit(3))])
        let r = simulate(w)
        for app in r.apps {
            #expect(app.timeInStateUs.values.reduce(0, +) == 20 * mins, "\(app.name)")
            #expect(app.timeInStateUs.count == AppState.allCases.count)
        }
        #expect(r.timeIn("idle", .notRunning) == 20 * mins)
        #expect(r.invariantViolations == [])
    }
}
