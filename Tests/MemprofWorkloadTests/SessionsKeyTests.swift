import MemprofCore
import MemprofInput
import Testing
@testable import MemprofWorkload

/// `apps.<id>.sessions`: an app's use stated as a field measures it (sessions a day and their
/// length), what a run makes of it, and every statement that cannot hold refused with file,
/// line, column and key path.
@Suite struct SessionsKeyTests {
    static func day(_ sessions: String, generate: String = "generate: {switchEvery: 5m, homeEvery: 20m}") -> String {
        """
        memprof: 1
        name: sessions
        duration: 3h
        apps:
          news:
            launch: {footprint: 120MB}
            \(sessions)
          mail:
            launch: {footprint: 80MB}
          maps:
            launch: {footprint: 150MB}
        \(generate)
        """
    }

    func error(_ text: String) throws -> String {
        try #require(throws: WorkloadError.self) { try WorkloadParser(file: "s.yaml").parse(text) }.description
    }

    @Test func sessionsAreParsedAndLeaveTheAppOutOfTheSwitches() throws {
        let w = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 12.5, length: 4m}"))
        let g = try #require(w.generate)
        #expect(g.sessions == [GenerateSpec.Sessions(app: 0, perDayMilli: 12_500, lengthUs: 4 * 60_000_000)])
        #expect(g.weights.map(\.app) == [1, 2])
        // Without generate, the sessions alone make one.
        let alone = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 3, length: 10m}", generate: ""))
        #expect(alone.generate?.sessions.count == 1 && alone.generate?.switchEveryUs == 0)
        // Weight 0 for the app is allowed (it says the switches leave it out).
        let zero = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 3, length: 10m}",
                                                                       generate: "generate: {switchEvery: 5m, weights: {news: 0, mail: 1}}"))
        #expect(zero.generate?.weights.map(\.weight) == [0, 1])
    }

    @Test func statementsThatCannotHoldAreLocated() throws {
        #expect(try error(Self.day("sessions: {perDay: 0, length: 4m}"))
            == "s.yaml:7:24: apps.news.sessions.perDay: expected a number above 0, found '0'")
        #expect(try error(Self.day("sessions: {perDay: 30, length: 10m}"))
            == "s.yaml:7:15: apps.news.sessions: 30 sessions of 10m take 5h of a run of 3h; they must fit in it "
            + "with time between them (perDay × length below the duration)")
        // Within a microsecond of the run: 7 sessions of 1,542,857,142 µs leave a mean gap of
        // 3h ÷ 7 − length = 0 µs, and so would make no session at all.
        #expect(try error(Self.day("sessions: {perDay: 7, length: 1542857142us}"))
            == "s.yaml:7:15: apps.news.sessions: 7 sessions of 25m42s take 2h59m59s of a run of 3h; they must fit in it "
            + "with time between them (perDay × length below the duration)")
        #expect(try error(Self.day("sessions: {perDay: 12, length: 15m}")).contains("12 sessions of 15m take 3h of a run of 3h;"))
        #expect(try error(Self.day("sessions: {perDay: 3}")).hasPrefix("s.yaml:7:15: apps.news.sessions: "))
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m, often: 2}")).contains("unknown key 'often'"))
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m}", generate: "generate: {switchEvery: 5m, weights: {news: 2}}"))
            == "s.yaml:12:45: generate.weights.news: 'news' states its use with apps.news.sessions; give it weight 0 here or leave it out")
    }

    /// Sessions that leave a mean gap of one microsecond between them are accepted, and a run has
    /// them: the least gap the reader accepts is one the generator makes sessions with.
    @Test func sessionsWithTheLeastGapAreMade() throws {
        let w = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 7, length: 1542857141us}", generate: ""))
        let sessions = try #require(w.generate?.sessions.first)
        #expect(sessions.meanGapUs(durationUs: w.durationUs) == 1)
        var generator = SeededGenerator(seed: 1)
        let entries = ScriptGenerator.entries(for: try #require(w.generate), durationUs: w.durationUs, generator: &generator)
        let opens = entries.filter { if case .open(0) = $0.action { true } else { false } }
        #expect(opens.count >= 3, "\(entries.count) entries")
    }

    /// A run opens the app about perDay times, keeps it in front about perDay × length, and no
    /// generated switch or home cuts a session short.
    @Test func aRunHasTheSessionsItStates() throws {
        let w = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 12, length: 4m}"))
        var launches = 0, foreground: Microseconds = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            var workload = w
            workload.seed = seed
            var simulator = Simulator(workload: workload)
            let result = simulator.run()
            let news = try #require(result.apps.first { $0.name == "news" })
            launches += news.launches.cold + news.launches.warm + news.launches.fromCompressed
            foreground += (news.timeInStateUs["active"] ?? 0) + (news.timeInStateUs["inactive"] ?? 0)
            // Every session ends at its own home, at least half its mean length after it began (less
            // the launch before the app is active): no switch or home of the generator cuts one
            // short (before, a switch every 5m did). A session the run's end would cut has no home.
            let active = (result.stateIntervals["news"] ?? []).filter { $0.state == .active && $0.startUs + 2 * 60_000_000 < w.durationUs }
            #expect(active.count >= 8)
            for interval in active { #expect(interval.endUs - interval.startUs >= 2 * 60_000_000 - 5_000_000, "\(interval)") }
        }
        let perRun = Double(launches) / 10, minutes = Double(foreground) / 10 / 60e6
        #expect(perRun > 10 && perRun < 14, "\(perRun) sessions a run")
        #expect(minutes > 12 * 4 * 0.85 && minutes < 12 * 4 * 1.15, "\(minutes) minutes in front a run")
    }

    /// `sessions.background`: a background task the app begins on leaving and ends after that
    /// long, bounded by the era's limit (ended there, not killed); 0 states none.
    @Test func backgroundTimeIsABackgroundTaskBoundedByTheEra() throws {
        let w = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 3, length: 4m, background: 20s}"))
        #expect(w.apps[0].backgroundTask == BackgroundTaskSpec(handler: HandlerSpec(timeUs: 20_000_000), endsOnExpiration: true))
        let none = try WorkloadParser(file: "s.yaml").parse(Self.day("sessions: {perDay: 3, length: 4m, background: 0s}"))
        #expect(none.apps[0].backgroundTask == nil)
        // Longer than the era's limit (iOS 17: 30 s): a warning located at the key.
        let ios17 = Self.day("sessions: {perDay: 3, length: 4m, background: 2m}").replacingOccurrences(
            of: "duration: 3h\n", with: "duration: 3h\ndevice: {preset: iphone-15, osVersion: \"iOS 17.5 (21F79)\"}\npolicy: xnu\n")
        let warnings = try WorkloadParser(file: "s.yaml").parseReportingWarnings(ios17).warnings.map(\.description)
        #expect(warnings == ["warning: s.yaml:9:51: apps.news.sessions.background: 2m in the background after a session does not fit "
            + "the 30s background task limit: the app's task is ended at the limit and it is suspended, 1m30s sooner each session"],
            "\(warnings)")
        #expect(try WorkloadParser(file: "s.yaml").parseReportingWarnings(Self.day("sessions: {perDay: 3, length: 4m, background: 2m}"))
            .warnings.isEmpty, "seed-2015 keeps 10 minutes")
    }

    @Test func backgroundTimeThatCannotHoldIsLocated() throws {
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m, background: often}"))
            .hasPrefix("s.yaml:7:51: apps.news.sessions.background: "))
        #expect(try error(Self.day("sessions: {perDay: 20, length: 5m, background: 5m}"))
            == "s.yaml:7:15: apps.news.sessions: 20 sessions of 5m and 5m in the background take 3h20m of a run of 3h; "
            + "they must fit in it with time between them (perDay × (length + background) below the duration)")
        // Within a microsecond of the run: the mean gap (3h ÷ 7 − 20m) is the background time itself.
        #expect(try error(Self.day("sessions: {perDay: 7, length: 20m, background: 342857142us}"))
            == "s.yaml:7:15: apps.news.sessions: 7 sessions of 20m and 5m42s in the background take 2h59m59s of a run of 3h; "
            + "they must fit in it with time between them (perDay × (length + background) below the duration)")
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m, background: 20s}\n    backgroundTask: {time: 1m}"))
            == "s.yaml:7:51: apps.news.sessions.background: the app declares its own backgroundTask; its background time "
            + "after a session is that task's time: state one or the other")
        let mac = Self.day("sessions: {perDay: 3, length: 4m, background: 20s}").replacingOccurrences(
            of: "duration: 3h\n", with: "duration: 3h\ndevice: macbook-pro-2015\n")
        #expect(try error(mac).hasPrefix("s.yaml:8:51: apps.news.sessions.background: a Mac app goes on running behind the front app"))
    }

    /// A hand-computable day: one app, three sessions of 2 minutes an hour on average, each
    /// followed by 20 s in the background (seed-2015: the 10-minute limit; the gaps, 9 to 27
    /// minutes, are longer): every trip home is 20 s in `background`, then `suspended`, and the
    /// report's background time is 20 s a session. On iOS 17 under xnu a 2-minute statement runs
    /// 30 s (the era's limit), the task ended there, the app not killed.
    @Test func aRunsBackgroundTimeFollowsTheKey() throws {
        func run(_ background: String, device: String = "") throws -> (app: AppStats, background: [StateInterval], expected: (Microseconds) -> Microseconds) {
            let text = """
                memprof: 1
                name: background
                duration: 1h
                \(device)
                apps:
                  news:
                    launch: {footprint: 120MB}
                    sessions: {perDay: 3, length: 2m\(background)}
                """
            let workload = try WorkloadParser(file: "b.yaml").parse(text)
            var simulator = Simulator(workload: workload)
            let result = simulator.run()
            let intervals = result.stateIntervals["news"] ?? []
            // Each trip home: the time in the background, unless the run's end comes first.
            let homes = intervals.filter { $0.state == .active && $0.endUs < workload.durationUs }.map(\.endUs)
            #expect(homes.count >= 2)
            return (result.apps[0], intervals.filter { $0.state == .background },
                    { each in homes.reduce(0) { $0 + min(each, workload.durationUs - $1) } })
        }
        let without = try run("")
        #expect(without.app.timeInStateUs["background"] ?? 0 == 0)
        let with = try run(", background: 20s")
        #expect(with.expected(20_000_000) > 0 && with.app.timeInStateUs["background"] == with.expected(20_000_000))
        #expect(with.background.allSatisfy { $0.endUs - $0.startUs <= 20_000_000 }, "\(with.background)")
        #expect(with.app.backgroundTasks.started == with.background.count)
        #expect(with.app.exits.values.allSatisfy { $0 == 0 })
        let cut = try run(", background: 2m", device: "device: {preset: iphone-15, osVersion: \"iOS 17.5 (21F79)\"}\npolicy: xnu")
        #expect(cut.app.timeInStateUs["background"] == cut.expected(30_000_000))
        #expect(cut.app.backgroundTasks.expiredEnded >= cut.background.count - 1 && cut.app.backgroundTasks.expiredEnded > 0)
        #expect(cut.app.exits.values.allSatisfy { $0 == 0 })
    }
}
