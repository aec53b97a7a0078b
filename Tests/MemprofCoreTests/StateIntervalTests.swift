import MemprofCore
import Testing

/// The run's state intervals and their causes, as the engine sets states (spec §2).
@Suite struct StateIntervalTests {
    /// `"start-end state: cause"` in seconds (ms where needed), one per interval.
    static func lines(_ r: SimulationResult, _ app: String) -> [String] {
        func t(_ us: Microseconds) -> String { us % sec == 0 ? "\(us / sec)" : "\(Double(us) / Double(sec))" }
        return (r.stateIntervals[app] ?? []).map { "\(t($0.startUs))-\(t($0.endUs)) \($0.state.rawValue): \($0.cause?.text ?? "")" }
    }

    @Test("every state change carries the engine's cause; the intervals tile the run")
    func causesFromTheEngine() {
        // Device: 100 MB for apps, warning at 80 MB; compression under 16 MB; flash read 100 MB/s.
        // a 10 MB with a 2 min background task; b 20 MB with a 2 s enter-background handler; c 70 MB.
        //   0 s open a: a inactive (launch cold), active at 1 s (didBecomeActive).
        //  60 s open b: a enters the background (didEnterBackground) and runs its task to 180 s; then
        //       it is suspended and, at 10 MB, compressed at once (the suspended state lasts no time).
        //       b launches cold, active at 61 s.
        // 300 s open c: b enters the background (didEnterBackground) for its 2 s handler. c's launch
        //       demand (20 + 70 = 90 MB ≥ 80 MB) warns b at this instant: the warning moves b nowhere.
        //       At 302 s the handler returns and b is suspended (no event names that: no cause).
        //       c launches cold, active at 301 s.
        // 400 s open a: c enters the background with nothing to run and is suspended at once
        //       (didEnterBackground). a is read back from flash (10 MB fits: 90 + 10 = 100 MB) and
        //       becomes active after 200 ms + 10 MB ÷ 100 MB/s = 300 ms (resume fromCompressed).
        // 500 s quit c: exit userQuit.
        let apps = [makeApp("a", footprint: 10 * MB,
                            task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 2 * mins), endsOnExpiration: false)),
                    makeApp("b", backgroundHandler: 2 * sec), makeApp("c", footprint: 70 * MB)]
        let r = simulate(makeWorkload(apps, duration: 600 * sec,
                                      [(0, .open(0)), (60 * sec, .open(1)), (300 * sec, .open(2)),
                                       (400 * sec, .open(0)), (500 * sec, .quit(2))]))
        #expect(Self.lines(r, "a") == [
            "0-1 inactive: launch cold", "1-60 active: applicationDidBecomeActive",
            "60-180 background: applicationDidEnterBackground", "180-400 compressed: compressed",
            "400-400.3 inactive: read back from flash", "400.3-600 active: resume fromCompressed",
        ])
        #expect(Self.lines(r, "b") == [
            "0-60 notRunning: ", "60-61 inactive: launch cold", "61-300 active: applicationDidBecomeActive",
            "300-302 background: applicationDidEnterBackground", "302-600 suspended: ",
        ])
        #expect(r.events("b", .memoryWarning).map(\.atUs) == [300 * sec])
        #expect(Self.lines(r, "c") == [
            "0-300 notRunning: ", "300-301 inactive: launch cold", "301-400 active: applicationDidBecomeActive",
            "400-500 suspended: applicationDidEnterBackground", "500-600 notRunning: exit userQuit",
        ])
        for app in ["a", "b", "c"] {
            #expect(r.stateIntervals[app]?.reduce(0) { $0 + $1.lengthUs } == r.workload.durationUs)
            for state in AppState.allCases {
                let time = r.stateIntervals[app]?.filter { $0.state == state }.reduce(0) { $0 + $1.lengthUs }
                #expect(time == r.timeIn(app, state))
            }
        }
    }

    @Test("wakes, handler ends, evictions and their causes")
    func wakesAndEvictions() {
        // a 20 MB, fetch every 2 min for 10 s; b 60 MB; c 30 MB. 100 MB for apps.
        //   0 s open a; 10 s home: a suspended (didEnterBackground).
        //  130 s: fetch wake (2 min after leaving): a in the background ("fetch started"), suspended
        //         again at 140 s ("fetch completed").
        //  200 s open b (a 20 + b 60 = 80 MB: a warning, no reclaim); 210 s open c: b suspended;
        //         c's 30 MB do not fit (80 + 30 > 100): the policy evicts a, which left the
        //         foreground first ("evicted"); its 20 MB are enough (60 + 30 = 90 MB).
        //  250 s: a's next fetch is due (2 min after the fetch at 130 s): the system launches it
        //         into the background ("launch background"); 20 MB do not fit (90 + 20 > 100), so b,
        //         suspended, is evicted. The launch ends at 251 s and the fetch runs in the state
        //         the launch set, to 261 s; then a is suspended ("fetch completed").
        let apps = [makeApp("a", modes: [.fetch],
                            fetch: FetchSpec(intervalUs: 2 * mins, handler: HandlerSpec(timeUs: 10 * sec))),
                    makeApp("b", footprint: 60 * MB), makeApp("c", footprint: 30 * MB)]
        let r = simulate(makeWorkload(apps, duration: 300 * sec,
                                      [(0, .open(0)), (10 * sec, .home), (200 * sec, .open(1)), (210 * sec, .open(2))]))
        #expect(Self.lines(r, "a") == [
            "0-1 inactive: launch cold", "1-10 active: applicationDidBecomeActive",
            "10-130 suspended: applicationDidEnterBackground", "130-140 background: fetch started",
            "140-210 suspended: fetch completed", "210-250 notRunning: evicted",
            "250-261 background: launch background", "261-300 suspended: fetch completed",
        ])
        #expect(Self.lines(r, "b") == [
            "0-200 notRunning: ", "200-201 inactive: launch cold", "201-210 active: applicationDidBecomeActive",
            "210-250 suspended: applicationDidEnterBackground", "250-300 notRunning: evicted",
        ])
    }
}
