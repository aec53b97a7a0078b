import MemprofCore
import MemprofInput
import Testing
@testable import MemprofWorkload

/// The built-in day on today's iPhone.
struct PhoneDay2026Tests {
    @Test func parsesAsAnIPhone15OnIOS18UnderXNU() throws {
        let w = try WorkloadLoader.load("phone-day-2026").workload
        let preset = try #require(Device.preset(named: "iphone-15"))
        #expect(w.device.name == "iphone-15 (modified)")
        #expect(w.device.osVersion == "iOS 18.5 (22F76)" && w.device.osMajor == 18)
        #expect(w.device.ram == preset.ram && w.device.appLimit == preset.appLimit && w.device.pageSize == 16 * .kilobyte)
        #expect(w.policy.name == "xnu")
        #expect(Set(w.apps.map(\.id)).isSuperset(of: ["messages", "maps", "music", "safari", "game", "camera"]))
        #expect(w.script.contains { if case .interrupt(.call, _, _) = $0.action { true } else { false } })
    }

    @Test func runsTheSameTwice() throws {
        let w = try WorkloadLoader.load("phone-day-2026").workload
        var a = Simulator(workload: w), b = Simulator(workload: w)
        let first = a.run(), second = b.run()
        #expect(first.summary == second.summary)
        #expect(first.apps == second.apps)
        #expect(first.events == second.events)
        #expect(first.jetsamEvents.count == second.jetsamEvents.count)
        // iOS 18's freezer writes until its 2 GB daily budget is spent; the in-RAM compressor holds
        // the other suspended apps, so what jetsam takes are suspended apps (evictions).
        #expect(first.summary.compressions > 0)
        #expect((first.summary.compressor?.peakBytes ?? 0) > 0)
        let freezer = try #require(first.summary.freezer)
        #expect(freezer.dailyBudgetBytes == 2048 * .megabyte && freezer.budgetExhaustions == 1)
        #expect(freezer.bytesWritten == freezer.dailyBudgetBytes)
        // Every app killed was suspended (an eviction); the other kills are the population's.
        let appKills = first.apps.map { $0.exits.filter { $0.key != "userQuit" }.values.reduce(0, +) }.reduce(0, +)
        #expect(appKills == first.summary.evictions)
    }

    /// The rest of the phone (SystemPopulation): 384 daemons, extensions and SpringBoard of the
    /// iOS 14.2 report, on the 0–210 scale, with the iOS 18.5 report's reservation (93,404 of
    /// 393,216 pages, of the iPhone 15's 6 GB: 93,404 pages of 16 KB, rounded up).
    @Test func hasTheRestOfThePhone() throws {
        let w = try WorkloadLoader.load("phone-day-2026").workload
        #expect(w.processes.count == 384)
        #expect(w.processes.filter { $0.kind == .daemon }.count == 358)
        #expect(w.processes.first { $0.displayName == "SpringBoard" }?.band == 160)
        #expect(w.processes.first { $0.displayName == "cfprefsd" }?.band == 140)
        #expect(w.device.systemReserved == 93_404 * 16 * .kilobyte)
        let without = try WorkloadLoader.load(
            "phone-day-2026", overrides: [WorkloadOverride(keyPath: "population", value: "none", origin: .init(file: "--set"))]).workload
        #expect(without.processes.isEmpty)
        #expect(without.device.systemReserved == Device.preset(named: "iphone-15")!.systemReserved)
    }

    /// Idle daemons die before any app, and the phone spends time above normal pressure.
    @Test func killsIdleDaemonsBeforeAppsAndMeetsPressure() throws {
        let w = try WorkloadLoader.load("phone-day-2026").workload
        var simulator = Simulator(workload: w)
        let r = simulator.run()
        let kills = r.events.filter {
            switch $0.payload {
            case .processExit: true
            case .exit(let reason, _): reason != .userQuit
            default: false
            }
        }
        let firstApp = try #require(kills.firstIndex { if case .exit = $0.payload { true } else { false } })
        #expect(firstApp > 0)
        #expect(kills[..<firstApp].allSatisfy {
            if case .processExit(_, .daemon, 0, _) = $0.payload { true } else if case .processExit(_, _, 0, _) = $0.payload { true } else { false }
        })
        #expect(r.summary.terminations["idleExit", default: 0] > 0 && r.summary.terminations["memoryPressure", default: 0] == 0)
        #expect(r.summary.timeAtPressureUs[.warning] > 0)
    }

    @Test func theSameDayOnAnIPhone6PlusKillsTheGameAtItsLimit() throws {
        // --device keeps the day's iOS 18.5, which the iPhone 6 Plus cannot run: the run names one it runs.
        let overrides = [WorkloadOverride(keyPath: "device", value: "iphone-6-plus", origin: .init(file: "--device")),
                         WorkloadOverride(keyPath: "policy", value: "seed-2015", origin: .init(file: "--policy")),
                         try WorkloadOverride.parse(assignment: "device.osVersion=iOS 12.5.8")]
        #expect(throws: WorkloadError.self) { try WorkloadLoader.load("phone-day-2026", overrides: Array(overrides.prefix(2))) }
        let w = try WorkloadLoader.load("phone-day-2026", overrides: overrides).workload
        #expect(w.device.name == "iphone-6-plus (modified)" && w.device.osVersion == "iOS 12.5.8")
        var simulator = Simulator(workload: w)
        let r = simulator.run()
        let game = r.apps[try #require(w.apps.firstIndex { $0.id == "game" })]
        // 1800 MB at launch against a 645 MB limit: every open of the game ends in memoryLimit.
        #expect(game.exits["memoryLimit", default: 0] > 0)
        #expect(r.summary.evictions > 0)
    }
}
