import MemprofCore
import Testing

/// Spec §4 (memory, demands, warnings, pressure) and §5 (`seed-2015`: compression, reclaiming).
/// The test device shares 100 MB between apps: warning from 80 MB, critical from 95 MB.
/// Every expected number is worked out by hand in the comment above it.
@Suite("Memory and the seed-2015 policy (spec §4, §5)")
struct MemoryPolicyTests {
    // MARK: Compression

    @Test("an app of exactly 16 MB is not compressed; 16 MB − 1 byte is")
    func compressionThreshold() {
        // 0 open a (16 MB); 2 s open b (16 MB − 1); 4 s open c.
        // a suspended at 2 s: 16 MB is not strictly under 16 MB → stays in RAM.
        // b suspended at 4 s: 16 MB − 1 < 16 MB and fits in 64 MB of flash → compressed.
        let w = makeWorkload([makeApp("a", footprint: 16 * MB), makeApp("b", footprint: 16 * MB - 1), makeApp("c")],
                             duration: 10 * sec, [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(2))])
        let r = simulate(w)
        #expect(r.finalState("a") == .suspended)
        #expect(r.stats("a").compressions == 0)
        #expect(r.finalState("b") == .compressed)
        #expect(r.events("b", .compression).map(\.fields.bytes) == [16 * MB - 1])
        #expect(r.summary.compressions == 1)
        #expect(r.summary.peakCompressedBytes == 16 * MB - 1)
        // RAM at the end: a 16 MB + c 20 MB.
        #expect(r.timeline.usedBytes.last == [4 * sec, 36 * MB])
    }

    @Test("compression is skipped when flash is full (and done when it just fits)")
    func compressionNeedsFlash() {
        // Three 10 MB apps suspended at 2 s, 4 s, 6 s.
        // flash 25 MB: a → 10 MB, b → 20 MB, c would need 30 MB > 25 → c stays suspended in RAM.
        // flash 30 MB: c fits exactly (20 + 10 = 30 ≤ 30) → compressed.
        func run(flash: Bytes) -> SimulationResult {
            let apps = ["a", "b", "c"].map { makeApp($0, footprint: 10 * MB) } + [makeApp("d")]
            return simulate(makeWorkload(apps, duration: 10 * sec, device: testDevice(flash: flash),
                                         [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(2)), (6 * sec, .open(3))]))
        }
        let full = run(flash: 25 * MB)
        #expect(full.summary.compressions == 2)
        #expect(full.finalState("c") == .suspended)
        #expect(full.timeline.compressedBytes.last == [4 * sec, 20 * MB])
        let fits = run(flash: 30 * MB)
        #expect(fits.summary.compressions == 3)
        #expect(fits.finalState("c") == .compressed)
        #expect(fits.timeline.compressedBytes.last == [6 * sec, 30 * MB])
    }

    @Test("a compressed app is never evicted, even when the demand then fails")
    func compressedNeverEvicted() {
        // appLimit 150 MB so that only RAM, not the per-app limit, stops c.
        // 0 open a (10 MB); 2 s open b (40 MB): a compressed. 4 s open c (40 MB): b suspended,
        // used 80 MB. 6 s c allocates 65 MB: own 105 ≤ 150; 80 + 65 = 145 > 100, need 45 MB.
        // Candidates: b only (a is compressed) → b evicted, used 40 MB; 40 + 65 = 105 > 100 still →
        // c killed with memoryLimit (seed-2015, spec §4 step 4). a stays compressed throughout.
        let apps = [makeApp("a", footprint: 10 * MB), makeApp("b", footprint: 40 * MB), makeApp("c", footprint: 40 * MB)]
        let w = makeWorkload(apps, duration: 10 * sec, device: testDevice(appLimit: 150 * MB),
                             [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(2)), (6 * sec, .allocate(2, 65 * MB))])
        let r = simulate(w)
        let reclaim = r.reclaims.first
        #expect(r.reclaims.count == 1)
        #expect(reclaim?.app == "c")
        #expect(reclaim?.fields.candidates?.map(\.app) == ["b"])
        #expect(reclaim?.fields.neededBytes == 45 * MB)
        #expect(reclaim?.fields.freedBytes == 40 * MB)
        #expect(r.finalState("a") == .compressed)
        #expect(r.exits("a") == [])
        #expect(r.exits("b") == ["6000000 memoryPressure"])
        #expect(r.exits("c") == ["6000000 memoryLimit"])
        #expect(r.jetsamEvents.map(\.killed) == ["b", "c"])
        #expect(r.invariantViolations == [])
    }

    // MARK: Reclaiming

    @Test("LRU evicts the app that left the foreground first")
    func lruEviction() {
        // Four 30 MB apps. 0 open b; 10 s open a; 20 s open c; 30 s open d.
        // Left the foreground: b at 10 s, a at 20 s, c at 30 s (all suspended, 30 MB ≥ 16 MB).
        // d's launch: 90 + 30 = 120 > 100, need 20 MB → b (earliest) goes; 60 + 30 = 90 fits.
        // (Workload order would pick a; LRU picks b.)
        let apps = ["a", "b", "c", "d"].map { makeApp($0, footprint: 30 * MB) }
        let w = makeWorkload(apps, duration: 40 * sec,
                             [(0, .open(1)), (10 * sec, .open(0)), (20 * sec, .open(2)), (30 * sec, .open(3))])
        let r = simulate(w)
        #expect(r.events.filter { $0.kind == .eviction }.map(\.app) == ["b"])
        #expect(r.reclaims.first?.fields.candidates?.map(\.app) == ["b", "a", "c"])
        #expect(r.reclaims.first?.fields.candidates?.map(\.taken) == [true, false, false])
        #expect(r.reclaims.first?.fields.candidates?.map(\.lastForegroundUs) == [10 * sec, 20 * sec, 30 * sec])
        #expect(r.exits("b") == ["30000000 memoryPressure"])
        #expect(r.summary.evictions == 1)
        #expect(r.stats("b").evictions == 1)
        #expect(r.finalState("d") == .active)
    }

    @Test("`largest` evicts fewer apps when one is big enough")
    func largestEviction() {
        // s1 20 MB, s2 20 MB, big 50 MB, d 40 MB. 0 open s1; 10 s open s2; 20 s open big; 30 s open d.
        // At 30 s: used 90 MB, d needs 40 → 130 > 100, need 30 MB.
        // lru: s1 (left 10 s) → 110, s2 (20 s) → 90: 2 evictions, big survives.
        // largest: big (50 MB) → 40 + 40 = 80: 1 eviction, s1 and s2 survive.
        func run(_ order: EvictionOrder) -> SimulationResult {
            let apps = [makeApp("s1"), makeApp("s2"), makeApp("big", footprint: 50 * MB), makeApp("d", footprint: 40 * MB)]
            return simulate(makeWorkload(apps, duration: 40 * sec, policy: .seed2015 { $0.evictionOrder = order },
                                         [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .open(2)), (30 * sec, .open(3))]))
        }
        let lru = run(.lru)
        #expect(lru.summary.evictions == 2)
        #expect(lru.events.filter { $0.kind == .eviction }.map(\.app) == ["s1", "s2"])
        #expect(lru.finalState("big") == .suspended)
        let largest = run(.largest)
        #expect(largest.summary.evictions == 1)
        #expect(largest.events.filter { $0.kind == .eviction }.map(\.app) == ["big"])
        #expect(largest.reclaims.first?.fields.candidates?.map(\.app) == ["big", "s1", "s2"])
        #expect(largest.finalState("s1") == .suspended)
        #expect(largest.finalState("s2") == .suspended)
    }

    @Test("suspended apps go before background ones, audio last")
    func reclaimOrderByState() {
        // m: 30 MB, plays audio from 1 s, leaves at 10 s (background, playing).
        // t: 30 MB with a 10-minute task, leaves at 20 s (background).
        // s: 20 MB, leaves at 30 s (suspended).  d opens at 30 s.
        // By recency alone m (10 s) would go first; the order is s, t, m.
        // d = 60 MB: 80 + 60 = 140, need 40: s → 120, t → 90 fits; m keeps playing.
        // d = 80 MB: 80 + 80 = 160, need 60: s → 140, t → 110, m → 80 fits; m killed last.
        func run(d: Bytes) -> SimulationResult {
            let apps = [makeApp("m", footprint: 30 * MB, modes: [.audio]),
                        makeApp("t", footprint: 30 * MB, task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 10 * mins))),
                        makeApp("s"), makeApp("d", footprint: d)]
            return simulate(makeWorkload(apps, duration: 40 * sec,
                                         [(0, .open(0)), (1 * sec, .play(0)), (10 * sec, .open(1)),
                                          (20 * sec, .open(2)), (30 * sec, .open(3))]))
        }
        let some = run(d: 60 * MB)
        let c = some.reclaims.first?.fields.candidates
        #expect(c?.map(\.app) == ["s", "t", "m"])
        #expect(c?.map(\.state) == [.suspended, .background, .background])
        #expect(c?.map(\.taken) == [true, true, false])
        #expect(some.exits("s") == ["30000000 memoryPressure"])
        #expect(some.exits("t") == ["30000000 memoryPressure"])
        #expect(some.finalState("m") == .background)
        // Only the suspended app counts as an eviction; t was killed while running.
        #expect(some.summary.evictions == 1)
        #expect(some.terminations(.memoryPressure) == 2)
        // No callback for the kills.
        #expect(!some.callbacks("t").contains { $0.hasSuffix("applicationWillTerminate") })

        let all = run(d: 80 * MB)
        #expect(all.reclaims.first?.fields.candidates?.map(\.taken) == [true, true, true])
        #expect(all.events.filter { $0.kind == .exit }.map(\.app) == ["s", "t", "m"])
        #expect(all.finalState("d") == .active)
    }

    // MARK: Demands and limits

    @Test("a demand that cannot fit kills the demanding app with memoryLimit under seed-2015")
    func demandThatCannotFit() {
        // appLimit 150 MB. 0 open a (30 MB); 2 s a allocates 80 MB: own 110 ≤ 150, but
        // 30 + 80 = 110 > 100 and nothing else can be reclaimed → a killed, memoryLimit (spec §4
        // step 4; under xnu the same is a page-shortage kill, spec §5, see XNUPolicyTests).
        // Jetsam snapshot: a alone with what it asked for, 110 MB / 16 KB = 7040 pages, frontmost, resume.
        let w = makeWorkload([makeApp("a", footprint: 30 * MB)], duration: 5 * sec,
                             device: testDevice(appLimit: 150 * MB), [(0, .open(0)), (2 * sec, .allocate(0, 80 * MB))])
        let r = simulate(w)
        #expect(r.exits("a") == ["2000000 memoryLimit"])
        #expect(r.reclaims.first?.fields.candidates == [])
        #expect(r.reclaims.first?.fields.freedBytes == 0)
        #expect(r.reclaims.first?.fields.neededBytes == 10 * MB)
        let j = r.jetsamEvents.first
        #expect(r.jetsamEvents.count == 1)
        #expect(j?.exitReason == .memoryLimit)
        #expect(j?.processes.map(\.name) == ["a"])
        #expect(j?.processes.map(\.rpages) == [7040])
        #expect(j?.processes.map(\.states) == [["frontmost", "resume"]])
        #expect(j?.processes.map(\.reason) == ["per-process-limit"])
        #expect(j?.processes.map(\.pid) == [300])
        #expect(r.timeline.usedBytes.last == [2 * sec, 0])
    }

    @Test("an app passing appLimit is killed with memoryLimit; reaching it exactly is fine")
    func perAppLimit() {
        // appLimit 50 MB. 0 open a (30 MB); 2 s allocate 20 MB → exactly 50 MB: allowed.
        // 3 s allocate 1 byte → 50 MB + 1 > 50 MB → killed, memoryLimit, before any warning
        // (used never passes 80 MB). Snapshot: a per-process-limit victim's pages are its limit,
        // as real reports show them: 50 MB / 16 KB = 3200 pages.
        let w = makeWorkload([makeApp("a", footprint: 30 * MB)], duration: 5 * sec, device: testDevice(appLimit: 50 * MB),
                             [(0, .open(0)), (2 * sec, .allocate(0, 20 * MB)), (3 * sec, .allocate(0, 1))])
        let r = simulate(w)
        #expect(r.stats("a").peakFootprintBytes == 50 * MB)
        #expect(r.exits("a") == ["3000000 memoryLimit"])
        #expect(r.summary.memoryWarnings == 0)
        #expect(r.reclaims.isEmpty)
        #expect(r.jetsamEvents.first?.processes.first?.rpages == 3200)
        #expect(r.jetsamEvents.first?.processes.first?.reason == "per-process-limit")
    }

    // MARK: Warnings and pressure

    @Test("one memory warning per rise, re-armed at normal, only to apps running code, releases applied")
    func memoryWarnings() {
        // c 16 MB (suspended, not compressed), b 20 MB (background: 10-minute task), a 40 MB (active).
        // Warning releases: a 5 MB, b 3 MB, c 3 MB. Used 76 MB at 4 s (normal).
        // 10 s a +20 MB: 96 ≥ 80 → rise → warning to a and b (not c): a 35, b 17 → used 68,
        //      then +20 → 88 MB (warning level). a = 55 MB.
        // 15 s a +5 MB: 93, still warning → no second warning.
        // 20 s a −20 MB: 73 MB → normal, re-armed.
        // 25 s a +20 MB: 93 → rise → warning: a 40 → 35, b 17 → 14 → 65, +20 → 85 MB.
        // Two rises: summary 2; a and b received 2 each, c none.
        let apps = [makeApp("a", footprint: 40 * MB, warningRelease: 5 * MB),
                    makeApp("b", warningRelease: 3 * MB, task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 10 * mins))),
                    makeApp("c", footprint: 16 * MB, warningRelease: 3 * MB)]
        let w = makeWorkload(apps, duration: 30 * sec,
                             [(0, .open(2)), (2 * sec, .open(1)), (4 * sec, .open(0)),
                              (10 * sec, .allocate(0, 20 * MB)), (15 * sec, .allocate(0, 5 * MB)),
                              (20 * sec, .free(0, 20 * MB)), (25 * sec, .allocate(0, 20 * MB))])
        let r = simulate(w)
        #expect(r.summary.memoryWarnings == 2)
        #expect(r.stats("a").memoryWarnings == 2)
        #expect(r.stats("b").memoryWarnings == 2)
        #expect(r.stats("c").memoryWarnings == 0)
        #expect(r.events("a", .memoryWarning).map(\.atUs) == [10 * sec, 25 * sec])
        #expect(r.events("a", .memoryWarning).map(\.fields.freedBytes) == [5 * MB, 5 * MB])
        #expect(r.events("b", .memoryWarning).map(\.fields.freedBytes) == [3 * MB, 3 * MB])
        #expect(!r.callbacks("c").contains { $0.hasSuffix("applicationDidReceiveMemoryWarning") })
        #expect(r.notificationsPosted["a"]?["UIApplicationDidReceiveMemoryWarningNotification"] == 2)
        #expect(r.timeline.usedBytes.contains([10 * sec, 88 * MB]))
        #expect(r.timeline.usedBytes.contains([15 * sec, 93 * MB]))
        #expect(r.timeline.usedBytes.contains([20 * sec, 73 * MB]))
        #expect(r.timeline.usedBytes.last == [25 * sec, 85 * MB])
        #expect(r.appBytes("a").last == [25 * sec, 55 * MB])
    }

    @Test("the warning is armed again whenever the level is normal, even if the last rise never happened")
    func warningRearmedWhileNormal() {
        // 1) Releases undo the rise. a 40 MB, releases 10 MB per warning.
        //    2 s +45 MB: 85 ≥ 80 → warning; a 30, +45 → 75 MB: the level stays normal.
        //    4 s +10 MB: 85 ≥ 80 from normal → a new warning; a 65, +10 → 75 MB.  Two warnings.
        let a = makeApp("a", footprint: 40 * MB, warningRelease: 10 * MB)
        let undo = simulate(makeWorkload([a], duration: 5 * sec,
                                         [(0, .open(0)), (2 * sec, .allocate(0, 45 * MB)), (4 * sec, .allocate(0, 10 * MB))]))
        #expect(undo.summary.memoryWarnings == 2)
        #expect(undo.events("a", .memoryWarning).map(\.atUs) == [2 * sec, 4 * sec])
        #expect(undo.timeline.levels.map(\.level) == [.normal])

        // 2) The demand fails. appLimit 150 MB. b 30 MB; 2 s +80 MB: 110 → warning, cannot fit →
        //    b killed (used 0, level never left normal). 3 s open b (30 MB); 5 s +55 MB → 85 MB:
        //    a rise from normal → a second warning, which b (active) receives.
        let b = makeApp("b", footprint: 30 * MB)
        let failed = simulate(makeWorkload([b], duration: 6 * sec, device: testDevice(appLimit: 150 * MB),
                                           [(0, .open(0)), (2 * sec, .allocate(0, 80 * MB)), (3 * sec, .open(0)),
                                            (5 * sec, .allocate(0, 55 * MB))]))
        #expect(failed.exits("b") == ["2000000 memoryLimit"])
        #expect(failed.summary.memoryWarnings == 2)
        #expect(failed.events("b", .memoryWarning).map(\.atUs) == [2 * sec, 5 * sec])
        #expect(failed.timeline.levels.map(\.level) == [.normal, .warning])
    }

    @Test("a scripted memory warning reaches running apps and does not count as a rise")
    func scriptedMemoryWarning() {
        // a active (release 4 MB), b suspended: at 5 s only a is warned; a 20 → 16 MB.
        let w = makeWorkload([makeApp("a", warningRelease: 4 * MB), makeApp("b", warningRelease: 4 * MB)],
                             duration: 10 * sec, [(0, .open(1)), (1 * sec, .open(0)), (5 * sec, .memoryWarning)])
        let r = simulate(w)
        #expect(r.events("a", .memoryWarning).map(\.fields.detail) == ["script"])
        #expect(r.events("b", .memoryWarning).isEmpty)
        #expect(r.appBytes("a").last == [5 * sec, 16 * MB])
        #expect(r.summary.memoryWarnings == 0)
    }

    @Test("pressure levels change at exactly 0.80 and 0.95 of app memory; time at each level")
    func pressureLevels() {
        // Warning from 0.80 × 100 MB = 80 MB, critical from 0.95 × 100 MB = 95 MB.
        // 0 open a at 80 MB − 1 → normal. 10 s +1 → 80 MB → warning. 20 s +15 MB − 1 → 95 MB − 1:
        // still warning. 21 s +1 → 95 MB → critical. 30 s −(15 MB + 1) → 80 MB − 1 → normal.
        // Duration 40 s: normal 10 + 10 = 20 s, warning 10 → 21 = 11 s, critical 21 → 30 = 9 s.
        let w = makeWorkload([makeApp("a", footprint: 80 * MB - 1)], duration: 40 * sec,
                             [(0, .open(0)), (10 * sec, .allocate(0, 1)), (20 * sec, .allocate(0, 15 * MB - 1)),
                              (21 * sec, .allocate(0, 1)), (30 * sec, .free(0, 15 * MB + 1))])
        let r = simulate(w)
        #expect(r.timeline.levels.map { "\($0.atUs) \($0.level.rawValue)" } ==
                ["0 normal", "10000000 warning", "21000000 critical", "30000000 normal"])
        let t = r.summary.timeAtPressureUs
        #expect([t.normal, t.warning, t.critical] == [20 * sec, 11 * sec, 9 * sec])
        #expect(r.events.filter { $0.kind == .pressure }.map(\.fields.usedBytes) == [80 * MB, 95 * MB, 80 * MB - 1])
        #expect(r.summary.memoryWarnings == 1)
        #expect(r.summary.peakUsedBytes == 95 * MB)
    }

    // MARK: Jetsam

    @Test("jetsam snapshot: largestProcess, pageSize, processes with rpages and the killed one's reason")
    func jetsamSnapshot() {
        // a 35 MB, b 30 MB, c 25 MB, d 30 MB. 0 open b; 10 s open a; 20 s open c; 30 s open d.
        // d's launch: 90 + 30 = 120, need 20 → b (left first, at 10 s) evicted.
        // Snapshot at 30 s, before d is resident: a 35 MB = 2240 pages, b 30 MB = 1920,
        // c 25 MB = 1600 (16 KB pages), largest first; largestProcess a; b carries vm-pageshortage.
        let apps = [makeApp("a", footprint: 35 * MB), makeApp("b", footprint: 30 * MB),
                    makeApp("c", footprint: 25 * MB), makeApp("d", footprint: 30 * MB)]
        let w = makeWorkload(apps, duration: 40 * sec,
                             [(0, .open(1)), (10 * sec, .open(0)), (20 * sec, .open(2)), (30 * sec, .open(3))])
        let r = simulate(w)
        #expect(r.jetsamEvents.count == 1)
        let j = r.jetsamEvents[0]
        #expect(j.atUs == 30 * sec)
        #expect(j.killed == "b")
        #expect(j.exitReason == .memoryPressure)
        #expect(j.largestProcess == "a")
        #expect(j.pageSize == 16 * KB)
        #expect(j.processes.map(\.name) == ["a", "b", "c"])
        #expect(j.processes.map(\.rpages) == [2240, 1920, 1600])
        #expect(j.processes.map(\.states) == [["suspended"], ["suspended"], ["suspended"]])
        #expect(j.processes.map(\.reason) == [nil, "vm-pageshortage", nil])
        #expect(r.reclaims.first?.fields.neededBytes == 20 * MB)
        #expect(r.reclaims.first?.fields.freedBytes == 30 * MB)
    }

    @Test("jetsam snapshot past its packed sort keys: largest first, equal bytes by name")
    func jetsamSnapshotPastPackedKeys() {
        // 32,768 apps leave 30 bits for the bytes in a snapshot's packed sort key (16 for the index
        // and 16 for the name's rank): with apps of 1 GB and over, the apps are compared instead.
        // z and y (1.5 GB each, z first in the workload) tie on bytes and go by name. 0 open z,
        // 10 s y, 20 s x, 30 s w, 40 s v: 6.5 GB in use, v's 3 GB does not fit in 7 GB.
        let gigabyte: Bytes = 1024 * MB
        var apps = [makeApp("z", footprint: 1536 * MB), makeApp("y", footprint: 1536 * MB),
                    makeApp("x", footprint: 2 * gigabyte), makeApp("w", footprint: 512 * MB), makeApp("v", footprint: 3 * gigabyte)]
        apps += (apps.count..<32_768).map { makeApp("pad\($0)") }
        let w = makeWorkload(apps, duration: 50 * sec, device: testDevice(appMemory: 7 * gigabyte),
                             [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .open(2)), (30 * sec, .open(3)),
                              (40 * sec, .open(4))])
        var simulator = Simulator(workload: w)
        let r = simulator.run()
        #expect(r.jetsamEvents.first?.processes.map(\.name) == ["x", "y", "z", "w"])
        #expect(r.jetsamEvents.first?.largestProcess == "x")
    }

    @Test("releases stop at the app's floor: minFootprint, by default the smaller of 5 MB and the launch footprint")
    func releasesStopAtTheFloor() {
        // a: 12 MB, releases 10 MB on entering the background; default floor min(12, 5) = 5 MB.
        // 0 open a; 1 m open b: a releases only 7 MB (12 → 5 MB), suspends and is compressed at
        // 5 MB (under 16 MB), not at 2 MB. c: same, but minFootprint 9 MB: releases 3 MB, 9 MB.
        var c = makeApp("c", footprint: 12 * MB, backgroundRelease: 10 * MB)
        c.minFootprint = 9 * MB
        let w = makeWorkload([makeApp("a", footprint: 12 * MB, backgroundRelease: 10 * MB), makeApp("b"), c],
                             duration: 5 * mins, [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .open(2)),
                                                  (3 * mins, .open(1))])
        let r = simulate(w)
        #expect(r.events("a", .compression).map(\.fields.bytes) == [5 * MB])
        #expect(r.events("c", .compression).map(\.fields.bytes) == [9 * MB])
        #expect(makeApp("tiny", footprint: 3 * MB).footprintFloor == 3 * MB)
    }
}
