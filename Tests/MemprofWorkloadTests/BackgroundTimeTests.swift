import MemprofCore
import Testing
@testable import MemprofWorkload

/// The background-task limit of the device's iOS under `xnu` (BackgroundTime), and the
/// reference text's 10 minutes under `seed-2015`.
@Suite struct BackgroundTimeTests {
    /// One app with a 2-minute background task that ends on expiration: opened at 0, sent home at
    /// 10 s, so its task starts at 10 s and would complete at 2 m 10 s.
    static func workload(device: String, policy: String, extraPolicy: String = "") -> String {
        """
        memprof: 1
        name: two-minute-task
        duration: 5m
        device: \(device)
        policy: \(extraPolicy.isEmpty ? policy : "{preset: \(policy), \(extraPolicy)}")
        apps:
          upload:
            launch: {footprint: 50MB}
            backgroundTask: {time: 2m, endsOnExpiration: true}
        script:
          - {at: 0s, open: upload}
          - {at: 10s, home: true}
        """
    }

    /// The app's background-task ends as `"atUs outcome"`.
    static func taskEnds(_ text: String) throws -> (ends: [String], workload: Workload) {
        let w = try parse(text)
        var simulator = Simulator(workload: w)
        let r = simulator.run()
        let ends = r.events.compactMap { e -> String? in
            guard case .handlerEnd(.backgroundTask, let outcome) = e.payload else { return nil }
            return "\(e.atUs) \(outcome.detail)"
        }
        return (ends, w)
    }

    @Test func anIPhone15OnIOS18ExpiresATwoMinuteTaskAt30Seconds() throws {
        // iOS 18: 30 s from entering the background at 10 s → expired (and ended) at 40 s.
        let (ends, w) = try Self.taskEnds(Self.workload(device: "{preset: iphone-15, osVersion: \"iOS 18.5 (22F76)\"}", policy: "xnu"))
        #expect(w.policy.backgroundTaskLimitUs == 30 * .second)
        #expect(ends == ["40000000 expiredEnded"])
        // The headroom the report shows, and the warning validate gives, use the same 30 s.
        let fit = try #require(w.apps[0].limitFits(policy: w.policy, device: w.device).first { $0.subject == .backgroundTask })
        #expect(fit.limit == 30 * .second && fit.spare == -90 * .second && !fit.fits)
    }

    @Test func anIPhone6PlusOnIOS8Gives180SecondsUnderXNUAndTenMinutesUnderSeed2015() throws {
        // iOS 8 (the preset's 8.4.1) under xnu: 180 s, more than the task's 2 m: it completes at
        // 10 s + 120 s = 130 s. A 4-minute task would expire at 10 s + 180 s = 190 s.
        let xnu = try Self.taskEnds(Self.workload(device: "iphone-6-plus", policy: "xnu"))
        #expect(xnu.workload.policy.backgroundTaskLimitUs == 180 * .second)
        #expect(xnu.ends == ["130000000 completed"])
        let longer = try Self.taskEnds(Self.workload(device: "iphone-6-plus", policy: "xnu")
            .replacingOccurrences(of: "time: 2m", with: "time: 4m"))
        #expect(longer.ends == ["190000000 expiredEnded"])
        // seed-2015 keeps 10 minutes in every era: the 4-minute task completes at 10 s + 240 s.
        let seed = try Self.taskEnds(Self.workload(device: "iphone-6-plus", policy: "seed-2015")
            .replacingOccurrences(of: "time: 2m", with: "time: 4m"))
        #expect(seed.workload.policy.backgroundTaskLimitUs == 10 * .minute)
        #expect(seed.ends == ["250000000 completed"])
        // And so on today's iPhone.
        let today = try Self.taskEnds(Self.workload(device: "{preset: iphone-15, osVersion: \"iOS 18.5\"}", policy: "seed-2015"))
        #expect(today.ends == ["130000000 completed"])
    }

    @Test func theEraIsTheDevicesIOSAndAWorkloadMayGiveItsOwn() throws {
        #expect([6, 7, 12, 13, 18, 26].map(BackgroundTime.taskLimitUs(iosMajor:))
            == [600 * .second, 180 * .second, 180 * .second, 30 * .second, 30 * .second, 30 * .second])
        // A device without a version runs the xnu preset's era (iOS 16); a Mac has no such limit.
        let custom = Device(name: "custom", platform: .ios, ram: .gigabyte, systemReserved: 0, appLimit: .gigabyte, flash: 0,
                            flashReadRate: 1, pageSize: 16 * .kilobyte, cpuScale: 1)
        #expect(BackgroundTime.taskLimitUs(on: custom) == 30 * .second)
        #expect(BackgroundTime.taskLimitUs(on: try #require(Device.preset(named: "macbook-pro-2015"))) == nil)
        // A backgroundTaskLimit the workload gives is kept under xnu.
        let own = try Self.taskEnds(Self.workload(device: "{preset: iphone-15, osVersion: \"iOS 18.5\"}", policy: "xnu",
                                                  extraPolicy: "backgroundTaskLimit: 3m"))
        #expect(own.workload.policy.backgroundTaskLimitUs == 3 * .minute)
        #expect(own.ends == ["130000000 completed"])
    }
}
