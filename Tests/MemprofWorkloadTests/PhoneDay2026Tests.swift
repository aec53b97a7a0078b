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
        #expect(first.summary.terminations.values.reduce(0, +) == first.summary.evictions)
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
