import MemprofCore
import MemprofInput
import MemprofTestSupport
import Testing
@testable import MemprofWorkload

/// BGTaskScheduler under `xnu` from iOS 13 (Scheduler.swift): app refresh and processing tasks,
/// charging, and background fetch as the system schedules it; the `charging:` key and the app
/// keys `refresh:` and `processing:`.
@Suite struct ScheduledTaskTests {
    /// `news` with a refresh and a processing request, a charger and a game
    /// (``WorkloadFixtures/scheduledTasks``).
    static let day = WorkloadFixtures.scheduledTasks

    /// `"handler start|end(outcome) at"` of the app's scheduled and fetch handlers, in order.
    static func handlers(_ text: String, app: String) throws -> [String] {
        var simulator = Simulator(workload: try parse(text), options: .init(checksInvariants: true))
        return simulator.run().events.compactMap { e -> String? in
            guard e.app == app else { return nil }
            switch e.payload {
            case .handlerStart(let a, _, _) where [.refresh, .processing, .fetch].contains(a):
                return "\(a.rawValue) start \(Format.duration(e.atUs))"
            case .handlerEnd(let a, let outcome) where [.refresh, .processing, .fetch].contains(a):
                return "\(a.rawValue) \(outcome.detail) \(Format.duration(e.atUs))"
            default: return nil
            }
        }
    }

    @Test func refreshRunsNoEarlierThanItsDateWhenThePhoneIsAwakeAndExpiresAt30Seconds() throws {
        let refresh = try Self.handlers(Self.day, app: "news").filter { $0.hasPrefix("refresh") }
        // Due at 15m10s, the phone asleep until the game opens at 20 m; resubmitted for 35 m,
        // asleep again until the charger at 1 h; then 1h15m on the charger; at 1h30m it is
        // unplugged (asleep); on the charger again at 2 h. Each 45 s handler expires at 30 s.
        #expect(refresh == [
            "refresh start 20m", "refresh expiredEnded 20m30s",
            "refresh start 1h", "refresh expiredEnded 1h30s",
            "refresh start 1h15m", "refresh expiredEnded 1h15m30s",
            "refresh start 2h", "refresh expiredEnded 2h30s",
        ])
        // The headroom the report shows, and validate's warning, use the same 30 s.
        let w = try parse(Self.day)
        let fit = try #require(w.apps[0].limitFits(policy: w.policy, device: w.device).first { $0.subject == .refresh })
        #expect(fit.limit == 30 * .second && fit.spare == -15 * .second)
        let warnings = try WorkloadParser(file: "w.yaml").parseReportingWarnings(Self.day).warnings.map(\.description)
        #expect(warnings.contains("warning: w.yaml:14:36: apps.news.refresh.time: 45s does not fit the 30s of an app refresh task: "
            + "the system expires it 15s before its handler is done"))
    }

    @Test func processingWaitsForTheChargerAndIdleAndExpiresWhenTheUserStartsOrUnplugs() throws {
        let processing = try Self.handlers(Self.day, app: "news").filter { $0.hasPrefix("processing") }
        // Due at 30m10s, it waits for the charger (1 h); the user opens the game at 1h10m and the
        // system expires it; resubmitted at its start for 1h30m, when the phone is unplugged; it
        // runs on the next charge at 2 h and expires when unplugged at 2h10m, before its 20 m.
        #expect(processing == [
            "processing start 1h", "processing expiredEnded 1h10m",
            "processing start 2h", "processing expiredEnded 2h10m",
        ])
        var simulator = Simulator(workload: try parse(Self.day))
        let r = simulator.run()
        #expect(r.summary.processingTasks == counts(started: 2, completed: 0, expired: 2))
        #expect(r.summary.refreshTasks == counts(started: 4, completed: 0, expired: 4))
        #expect(r.apps.first { $0.name == "game" }?.refreshTasks == nil)
    }

    /// Each end of a charging interval is an event of the device, recorded before the tasks it
    /// runs or expires: at 2h10m the charger comes off, then news's processing task expires.
    @Test func chargingIsAnEventOfTheDeviceBeforeWhatItStartsOrEnds() throws {
        var simulator = Simulator(workload: try parse(Self.day))
        let events = simulator.run().events
        let charging = events.compactMap { e -> String? in
            guard case .charging(let change) = e.payload else { return nil }
            return "\(change.rawValue) \(Format.duration(e.atUs))\(e.app.map { " \($0)" } ?? "")"
        }
        #expect(charging == ["pluggedIn 1h", "unplugged 1h30m", "pluggedIn 2h", "unplugged 2h10m"])
        let unplugged = events.filter { $0.atUs == 130 * .minute }.map(\.kind)
        #expect(unplugged.first == .charging && unplugged.contains(.handlerEnd))
        let pluggedIn = events.filter { $0.atUs == 60 * .minute }.map(\.kind)
        #expect(pluggedIn.first == .charging && pluggedIn.contains(.handlerStart))
        // report.json's keys: the device's, with the change as its detail, read back the same.
        let fields = SimEvent(atUs: 0, app: nil, .charging(.unplugged)).fields
        #expect(fields.kind == .charging && fields.detail == "unplugged" && fields.app == nil)
        #expect(try SimEvent(fields).payload == .charging(.unplugged))
    }

    func counts(started: Int, completed: Int, expired: Int) -> ScheduledTaskCounts {
        var c = ScheduledTaskCounts()
        c.started = started
        c.completed = completed
        c.expired = expired
        return c
    }

    /// A mail app fetching every 30 m, sent home at 10 s; the user opens the game at 2 h.
    static func fetchDay(device: String, policy: String) -> String {
        """
        memprof: 1
        name: fetching
        duration: 2h5m
        device: \(device)
        policy: \(policy)
        population: none
        apps:
          mail:
            launch: {footprint: 120MB}
            modes: [fetch]
            fetch: {interval: 30m, time: 5s, allocates: 8MB}
          game:
            launch: {footprint: 300MB}
        script:
          - {at: 0s, open: mail}
          - {at: 10s, home: true}
          - {at: 2h, open: game}
        """
    }

    @Test func fetchFromIOS13IsCoalescedIntoTheTimesThePhoneIsAwake() throws {
        let exact = ["fetch start 30m10s", "fetch completed 30m15s", "fetch start 1h10s", "fetch completed 1h15s",
                     "fetch start 1h30m10s", "fetch completed 1h30m15s", "fetch start 2h10s", "fetch completed 2h15s"]
        // seed-2015: the reference text's exact intervals, on any iOS.
        #expect(try Self.handlers(Self.fetchDay(device: "{preset: iphone-15, osVersion: \"iOS 18.5\"}", policy: "seed-2015"),
                                  app: "mail") == exact)
        // xnu on iOS 12: before BGTaskScheduler, exact as well.
        #expect(try Self.handlers(Self.fetchDay(device: "{preset: iphone-xs, osVersion: \"iOS 12.1\"}", policy: "xnu"),
                                  app: "mail") == exact)
        // xnu on iOS 18: no earlier than 30m10s, and only once the phone is awake (the game at 2 h).
        #expect(try Self.handlers(Self.fetchDay(device: "{preset: iphone-15, osVersion: \"iOS 18.5\"}", policy: "xnu"),
                                  app: "mail") == ["fetch start 2h", "fetch completed 2h5s"])
    }

    @Test func nothingIsScheduledUnderSeed2015OrBeforeIOS13() throws {
        let seed = Self.day.replacingOccurrences(of: "policy: xnu", with: "policy: seed-2015")
        #expect(try Self.handlers(seed, app: "news").isEmpty)
        let iOS12 = Self.day.replacingOccurrences(of: "{preset: iphone-15, osVersion: \"iOS 18.5 (22F76)\"}",
                                                  with: "{preset: iphone-xs, osVersion: \"iOS 12.1\"}")
        #expect(try Self.handlers(iOS12, app: "news").isEmpty)
        #expect(!BackgroundTime.schedulesTasks(on: try #require(Device.preset(named: "iphone-15")), policy: .seed2015))
    }

    func error(_ text: String) throws -> String {
        try #require(throws: WorkloadError.self) { try parse(text, file: "w.yaml") }.description
    }

    @Test func badChargingAndTaskKeysAreLocatedErrors() throws {
        let outOfOrder = Self.day.replacingOccurrences(of: "{from: 2h, to: 2h10m}", with: "{from: 1h20m, to: 2h10m}")
        #expect(try error(outOfOrder) == "w.yaml:9:12: charging[1].from: charging intervals must be in order and apart: "
            + "this one starts at 1h20m, before the one before it ends (1h30m)")
        let backwards = Self.day.replacingOccurrences(of: "{from: 1h, to: 1h30m}", with: "{from: 1h, to: 50m}")
        #expect(try error(backwards) == "w.yaml:8:20: charging[0].to: 'to' (50m) must be after 'from' (1h)")
        let pastTheEnd = Self.day.replacingOccurrences(of: "to: 2h10m", with: "to: 4h")
        #expect(try error(pastTheEnd) == "w.yaml:9:20: charging[1].to: 'to' (4h) is past the workload's duration (3h)")
        let noMode = Self.day.replacingOccurrences(of: "modes: [fetch, processing]", with: "modes: [fetch]")
        #expect(try error(noMode) == "w.yaml:15:17: apps.news.processing: needs 'processing' in the app's modes")
        let noDate = Self.day.replacingOccurrences(of: "earliest: 15m, ", with: "")
        #expect(try error(noDate).hasPrefix("w.yaml:14:14: apps.news.refresh: missing key 'earliest'"))
    }

    @Test func theM1IPadsSwapFromIPadOS16() throws {
        for name in ["ipad-pro-11-3", "ipad-air-5"] {
            #expect(Device.preset(named: name)?.virtualMemorySwap == 16 * .gigabyte)
            let older = try parse("""
                memprof: 1
                name: older
                duration: 1m
                device: {preset: \(name), osVersion: "iPadOS 15.7"}
                apps: {a: {launch: {footprint: 10MB}}}
                """)
            #expect(older.device.virtualMemorySwap == nil)
        }
        // No published statement of swap for the A-series iPads, the iPhones or the later M-series presets.
        for name in ["ipad-air-2", "ipad-10", "iphone-15", "ipad-pro-11-4", "ipad-pro-11-m4"] {
            #expect(Device.preset(named: name)?.virtualMemorySwap == nil)
        }
    }
}
