import MemprofCore
import Testing

/// Spec §5 `xnu`: the bounds of the compressor's pool and of the freezer's swap, and frozen apps
/// that run again (CompressorLimits.swift, FreezerBudget.swift, XNUSettings). Every expected
/// number is worked out by hand in the comment above it.
@Suite("The xnu compressor's and freezer's bounds, and thawed apps (spec §5)")
struct FreezerBoundsTests {
    static func policy(_ era: XNUSettings, budgetMB: Int? = nil) -> PolicySettings {
        var p = PolicySettings.xnu
        var x = era
        if let budgetMB { x.freezeDailyBudgetMB = budgetMB }
        p.xnu = x
        return p
    }

    @Test("the pool's bound: RAM's pages above 2 GB, twice its segments' pages up to 2 GB, low on space past 98%")
    func compressorLimits() {
        // 4 GB, 16 KB pages: 4 GiB ÷ (256 KB + 16 KB) = 15420 segments of 16 pages, × 1 = 246720,
        // under RAM's 262144 pages: 262144; 98% = 256901 (256901.12 rounded down).
        var d = testDevice()
        d.ram = 4 * Bytes.gigabyte
        #expect([CompressorLimits(device: d).pagesLimit, CompressorLimits(device: d).nearingLimitPages] == [262_144, 256_901])
        // 2 GB: 7710 segments × 16 pages × 2 = 246720 (over RAM's 131072); 98% = 241785.
        d.ram = 2 * Bytes.gigabyte
        #expect([CompressorLimits(device: d).pagesLimit, CompressorLimits(device: d).nearingLimitPages] == [246_720, 241_785])
    }

    @Test("the eras: swap of 1 file of 128 MB at xnu-4570, 5 from xnu-4903; compressor-space kills but in xnu-11215")
    func eras() {
        let mb: Bytes = 128 * MB
        #expect(XNUSettings.eras.map(\.freezerSwapBytes) == [nil, nil, nil, nil, mb] + Array(repeating: 5 * mb, count: 8))
        #expect(XNUSettings.eras.map(\.compressorSpaceKills)
            == Array(repeating: nil, count: 5) + Array(repeating: true, count: 6) + [nil, true])
    }

    @Test("an iPad with virtual memory swap swaps every app from iPadOS 16: 16 GB of swap, 36 slots, no budget")
    func appSwap() throws {
        var ipad = try #require(Device.preset(named: "ipad-pro-11-3"))
        ipad.virtualMemorySwap = 16 * Bytes.gigabyte
        ipad.osVersion = "iPadOS 18.5"
        let x = XNUSettings.forDevice(ipad)
        #expect(x.appSwap == true && x.freezerSwapBytes == 16 * Bytes.gigabyte && x.frozenProcessesMax == 36 && x.freezeDailyBudgetMB == nil)
        ipad.osVersion = "iPadOS 15.7"
        let old = XNUSettings.forDevice(ipad)
        #expect(old.appSwap == nil && old.freezerSwapBytes == 5 * 128 * MB && old.frozenProcessesMax == 20)
    }

    /// Apps opened 10 s apart: a b c 12 MB, d 8 MB, e f g h 12 MB; a 64 MB budget that never
    /// runs out; the freezer's swap `era`'s on `device`.
    static func swapRun(_ era: XNUSettings, device: Device) -> SimulationResult {
        let sizes: [(String, Bytes)] = [("a", 12), ("b", 12), ("c", 12), ("d", 8), ("e", 12), ("f", 12), ("g", 12), ("h", 12)]
        let apps = sizes.map { makeApp($0.0, footprint: $0.1 * MB, launch: 500 * ms) }
        let script: [(Microseconds, ScriptAction)] = (0..<8).map { (Microseconds($0) * 10 * sec, .open($0)) }
        return simulate(makeWorkload(apps, duration: 75 * sec, device: device, policy: Self.policy(era, budgetMB: 64), script))
    }

    /// What ``swapRun(_:device:)`` does with 13 MB of swap (13631488 bytes); the default ratio
    /// 257255 ÷ 96635 holds 12 MB in 4726644 bytes and 8 MB in 3151096.
    /// - 50 s: a to e suspended, 5: a frozen (4726644 in swap).
    /// - 60 s: 6 suspended, 1 frozen: b frozen (9453288).
    /// - 70 s: 7 and 2: band 0 first, first entered: c does not fit (14179932), d does
    ///   (12604384): d frozen; c e f g, suspended in bands 0 and 20, do not fit: no-swap-space (4).
    static func expectThirteenMegabytesOfSwap(_ r: SimulationResult) throws {
        #expect(r.invariantViolations.isEmpty)
        let f = try #require(r.summary.freezer)
        #expect(f.freezes == 3 && f.skips.noSwapSpace == 4 && f.skips.noCompressorSpace == 0)
        #expect(["a", "b", "c", "d", "e"].map { r.finalState($0) } == [.compressed, .compressed, .suspended, .compressed, .suspended])
    }

    @Test("the freezer's swap counts compressed bytes: an app that does not fit is skipped for no-swap-space")
    func noSwapSpace() throws {
        var era = XNUSettings.xnu11215
        era.freezerSwapBytes = 13 * MB
        try Self.expectThirteenMegabytesOfSwap(Self.swapRun(era, device: testDevice()))
    }

    @Test("the swap files need room on flash: a device with 13 MB of flash has 13 MB of xnu's 640 MB of swap")
    func swapBoundedByFlash() throws {
        // The same run as with a 13 MB swap: the 640 MB of five files, on a device whose flash
        // has room for 13 MB of them.
        try Self.expectThirteenMegabytesOfSwap(Self.swapRun(.xnu11215, device: testDevice(flash: 13 * MB)))
        // Room for the files: the 640 MB; an iPad that swaps every app sizes its swap itself.
        #expect(XNUSettings.xnu11215.freezerSwap(on: testDevice(flash: 1 * Bytes.gigabyte)) == 640 * MB)
        #expect(XNUSettings.xnu11215.freezerSwap(on: testDevice(flash: 0)) == 0)
        var swapping = XNUSettings.xnu11215
        swapping.appSwap = true
        swapping.freezerSwapBytes = 16 * Bytes.gigabyte
        #expect(swapping.freezerSwap(on: testDevice(flash: 0)) == 16 * Bytes.gigabyte)
        #expect(XNUSettings.xnu3789.freezerSwap(on: testDevice()) == nil)
    }

    /// 4 GB of RAM (3996 MB for apps); apps of 1600 MB (102400 pages) held at 20:1 in the pool
    /// (80 MB), opened 10 s apart; 45 s `freeze: c`. The pool is low on space past 256901 pages:
    /// three suspended apps (307200 pages), not two (204800).
    static func compressorSpaceRun(_ era: XNUSettings) -> SimulationResult {
        // Flash with room for the 640 MB of swap.
        var device = testDevice(appMemory: 3996 * MB, flash: 640 * MB)
        device.appLimit = 2 * Bytes.gigabyte
        let apps = ["a", "b", "c", "d", "e", "f"].map { id in
            var app = makeApp(id, footprint: 1600 * MB, launch: 500 * ms)
            app.compressionRatio = 20
            return app
        }
        var script: [(Microseconds, ScriptAction)] = (0..<6).map { (Microseconds($0) * 10 * sec, .open($0)) }
        script.append((45 * sec, .freeze(2)))
        script.sort { $0.0 < $1.0 }
        return simulate(makeWorkload(apps, duration: 55 * sec, device: device, policy: Self.policy(era), script))
    }

    @Test("xnu-11417 kills up the bands while the pool is low on space (vm-compressor-space-shortage)")
    func compressorSpaceKills() {
        // - 30 s (open d): a b c suspended, 307200 pages: low; a (band 0 since 12 s) is killed:
        //   204800. Available memory 3996 − 1600 − 240 = 2156 MB: no freezer (under 2048 MB it
        //   would run), no reaper (under 20% of RAM, 819 MB).
        // - 40 s (open e): b c d: low again; b is killed.
        // - 45 s (freeze c): c d, not low: c goes to flash.
        // - 50 s (open f): d e: not low.
        let r = Self.compressorSpaceRun(.xnu11417)
        #expect(r.invariantViolations.isEmpty)
        #expect(r.summary.terminations["compressorSpaceShortage"] == 2)
        let kills = r.events.compactMap { e -> String? in
            if case .exit(.compressorSpaceShortage, _) = e.payload { "\(e.app ?? "") \(e.atUs / sec)" } else { nil }
        }
        #expect(kills == ["a 30", "b 40"])
        #expect(r.finalState("c") == .compressed)
        #expect(r.summary.freezer?.skips.noCompressorSpace == 0)
    }

    @Test("xnu-11215 does not kill for the pool; low on space, the freezer and freeze: freeze nothing (no-compressor-space)")
    func compressorLowOnSpaceWithoutKills() throws {
        // - 30 s and 40 s: low, nobody killed (xnu-11215 takes the state from a flag that only a
        //   read back from swap sets).
        // - 45 s (freeze c): refused, the compressor is low on space.
        // - 50 s (open f): a to e suspended, 5; available 3996 − 1600 − 400 = 1996 MB, under half
        //   of RAM: the freezer runs, picks a (band 0 since 12 s), whose freeze fails for the
        //   compressor's space (1), and stops.
        let r = Self.compressorSpaceRun(.xnu11215)
        #expect(r.invariantViolations.isEmpty)
        #expect(r.summary.terminations["compressorSpaceShortage"] == nil)
        #expect(r.events("c").contains {
            if case .ignored("freeze", .compressorLowOnSpace) = $0.payload { $0.atUs == 45 * sec } else { false }
        })
        let f = try #require(r.summary.freezer)
        #expect(f.freezes == 0 && f.skips.noCompressorSpace == 1)
        #expect(["a", "b", "c", "d", "e"].allSatisfy { r.finalState($0) == .suspended })
    }

    @Test("a thawed app stays frozen: suspended again it sits in the frozen band, behind the idle band")
    func thawedStaysFrozen() {
        // Apps of 30 MB, their memory adding up as footprints, 100 MB for apps. 6 s freeze a
        // (suspended at 5 s); 10 s open a: read back, b suspended (band 0 from 12 s); 15 s open
        // c: a suspended again, lifted to the frozen band (75) from 15 s; 20 s c allocates 20 MB:
        // 110 MB, jetsam takes b (band 0) and a stays.
        let apps = ["a", "b", "c"].map { makeApp($0, footprint: 30 * MB, launch: 500 * ms) }
        let script: [(Microseconds, ScriptAction)] = [(0, .open(0)), (5 * sec, .open(1)), (6 * sec, .freeze(0)),
                                                      (10 * sec, .open(0)), (15 * sec, .open(2)), (20 * sec, .allocate(2, 20 * MB))]
        let r = simulate(XNUPolicyTests.plain(apps, policy: Self.policy(.xnu11215), script))
        #expect(r.invariantViolations.isEmpty)
        #expect(XNUPolicyTests.bands(r.reclaims.first) == ["b 0*", "a 75"])
        #expect(r.finalState("a") == .suspended && r.finalState("b") == .notRunning)
    }

    @Test("with its budget spent, the freezer demotes a thawed app from the frozen band to the tail of the idle band")
    func demotedWhenSpent() {
        // Eight apps of 12 MB, a to g opened 10 s apart from 0 s and h at 80 s, their memory adding
        // up as footprints (100 MB for apps), a 16 MB budget (1024 pages).
        // - 50 s: a to e suspended, 5: a frozen (256 pages left). 60 s: 6 suspended, 1 frozen: b
        //   writes the 256 left: spent.
        // - 70 s (open b): b thawed, frozen still; suspended a c d e f g 6, frozen a b 2: 4, the
        //   freezer would not run.
        // - 80 s (open h): b suspended, in the frozen band (75) from 80 s; 7 and 2: 5, the freezer
        //   would run, finds its budget spent and demotes b to the idle band, from 80 s.
        // - 90 s: h allocates 20 MB: 84 + 20 = 104 MB, over 100: jetsam takes c (band 0 since
        //   32 s); b sits at the idle band's tail, a alone in band 75.
        let apps = ["a", "b", "c", "d", "e", "f", "g", "h"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        var script: [(Microseconds, ScriptAction)] = (0..<7).map { (Microseconds($0) * 10 * sec, .open($0)) }
        script += [(70 * sec, .open(1)), (80 * sec, .open(7)), (90 * sec, .allocate(7, 20 * MB))]
        let r = simulate(XNUPolicyTests.plain(apps, duration: 95 * sec, policy: Self.policy(.xnu11215, budgetMB: 16), script))
        #expect(r.invariantViolations.isEmpty)
        #expect(XNUPolicyTests.bands(r.reclaims.first) == ["c 0*", "d 0", "e 0", "f 0", "g 0", "b 0", "a 75"])
    }

    @Test("the freezer counts thawed apps as frozen (unsigned, so the difference wraps) and refreezes them three at a time")
    func refreeze() {
        let p = XNUPolicy(xnu: .xnu11215)
        let memory = MemoryView(ram: 200 * MB, availableBytes: 10 * MB, compressedUsed: 0, flash: 640 * MB)
        func app(_ i: Int, _ state: AppState, frozen: Bool = false, eligible: Bool = false, band: Int, since: Microseconds) -> PolicyCandidate {
            var c = PolicyCandidate(index: i, state: state, footprint: 12 * MB, lastForegroundUs: 0, isPlayingAudio: false,
                                    stateSinceUs: since, band: band, bandSinceUs: since)
            c.frozen = frozen
            c.refreezeEligible = eligible
            return c
        }
        // 2 suspended, 3 frozen running: 2 − 3 wraps: the freezer runs.
        let running = (0..<3).map { app($0, .background, frozen: true, eligible: true, band: 75, since: 0) }
        #expect(p.freezerRuns(running + [app(3, .suspended, band: 0, since: 0), app(4, .suspended, band: 0, since: 0)], memory: memory))
        // 17 on flash and 3 thawed, suspended in band 75 (since 30, 10, 20 s): the 20 slots are
        // full; the new candidate in band 0 is not taken, the thawed one first in band 75 is.
        let flash = (0..<17).map { app($0, .compressed, frozen: true, band: 75, since: 0) }
        let thawed = [app(17, .suspended, frozen: true, eligible: true, band: 75, since: 30 * sec),
                      app(18, .suspended, frozen: true, eligible: true, band: 75, since: 10 * sec),
                      app(19, .suspended, frozen: true, eligible: true, band: 75, since: 20 * sec)]
        let fresh = app(20, .suspended, band: 0, since: 0)
        #expect(p.nextToFreeze(flash + thawed + [fresh], memory: memory)?.index == 18)
        // Two thawed: a slot is free and the new one is taken; without it nothing, two being
        // under the threshold.
        #expect(p.nextToFreeze(flash + thawed.prefix(2) + [fresh], memory: memory)?.index == 20)
        #expect(p.nextToFreeze(flash + thawed.prefix(2), memory: memory) == nil)
    }
}
