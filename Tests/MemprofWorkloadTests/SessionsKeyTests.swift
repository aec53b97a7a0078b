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
            + "(perDay × length below the duration)")
        #expect(try error(Self.day("sessions: {perDay: 3}")).hasPrefix("s.yaml:7:15: apps.news.sessions: "))
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m, often: 2}")).contains("unknown key 'often'"))
        #expect(try error(Self.day("sessions: {perDay: 3, length: 4m}", generate: "generate: {switchEvery: 5m, weights: {news: 2}}"))
            == "s.yaml:12:45: generate.weights.news: 'news' states its use with apps.news.sessions; give it weight 0 here or leave it out")
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
}
