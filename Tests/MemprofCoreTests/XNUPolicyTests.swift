import MemprofCore
import Testing

/// Spec §5 `xnu`: jetsam bands, two-second aging, least recently entered first within a band, the
/// freezer's conditions and limits, frozen apps killed after idle and background ones.
/// The default test device has 200 MB of RAM and 100 MB of app memory, so "available under 50%
/// of RAM" (under 100 MB available) holds as soon as any app is resident.
/// Every expected number is worked out by hand in the comment above it.
@Suite("The xnu policy (spec §5)")
struct XNUPolicyTests {
    static func xnu(_ change: (inout XNUSettings) -> Void = { _ in }) -> PolicySettings {
        var p = PolicySettings.xnu
        change(&p.xnu!)
        return p
    }

    /// A workload whose memory adds up as its apps' footprints, and where a demand fits up to app
    /// memory less one byte: the tests here are about bands, aging and the freezer, so the in-RAM
    /// compressor and xnu's thresholds of available memory (CompressorTests) are set aside, every
    /// app compressing at a ratio of 1 and the idle and pressure thresholds at 0.
    static func plain(_ apps: [AppSpec], duration: Microseconds = 60 * sec, device: Device = testDevice(),
                      policy: PolicySettings = .seed2015, _ script: [(Microseconds, ScriptAction)] = []) -> Workload {
        var policy = policy
        policy.xnu?.idleThresholdFraction = 0
        policy.xnu?.pressureThresholdFraction = 0
        let apps = apps.map { app in
            var app = app
            app.compressionRatio = 1
            return app
        }
        return makeWorkload(apps, duration: duration, device: device, policy: policy, script)
    }

    /// `apps` opened one after another every 2 s from 0 s.
    static func openEvery2s(_ count: Int) -> [(Microseconds, ScriptAction)] {
        (0..<count).map { (Microseconds($0) * 2 * sec, ScriptAction.open($0)) }
    }

    /// Candidates of a reclaim as `"app band[*]"`, `*` when taken.
    static func bands(_ e: SimEvent?) -> [String] {
        (e?.fields.candidates ?? []).map { "\($0.app) \($0.band.map(String.init) ?? "-")\($0.taken ? "*" : "")" }
    }

    // MARK: Bands

    @Test("the bands of each state, at a given moment")
    func bandsByState() {
        // Direct calls: suspended at 10 s is band 20 until 12 s (exclusive), then band 0 since 12 s.
        let p = XNUPolicy()
        func band(_ state: AppState, since: Microseconds, audio: Bool = false, at now: Microseconds) -> [Int64] {
            let c = PolicyCandidate(index: 0, state: state, footprint: 10 * MB, lastForegroundUs: 0,
                                    isPlayingAudio: audio, stateSinceUs: since)
            guard let b = p.band(of: c, nowUs: now) else { return [] }
            return [Int64(b.band), b.sinceUs]
        }
        #expect(band(.active, since: 1 * sec, at: 5 * sec) == [100, 1 * sec])
        #expect(band(.inactive, since: 1 * sec, at: 5 * sec) == [100, 1 * sec])
        #expect(band(.background, since: 3 * sec, at: 5 * sec) == [30, 3 * sec])
        #expect(band(.background, since: 3 * sec, audio: true, at: 5 * sec) == [120, 3 * sec])
        #expect(band(.suspended, since: 10 * sec, at: 10 * sec) == [20, 10 * sec])
        #expect(band(.suspended, since: 10 * sec, at: 12 * sec - 1) == [20, 10 * sec])
        #expect(band(.suspended, since: 10 * sec, at: 12 * sec) == [0, 12 * sec])
        #expect(band(.compressed, since: 7 * sec, at: 50 * sec) == [75, 7 * sec])
        #expect(band(.notRunning, since: 0, at: 5 * sec) == [])
    }

    @Test("an app that left the foreground 1 s ago is in the aging band and is killed after an idle one; after 2 s it is idle")
    func agingBand() {
        // Four 30 MB apps launching in 500 ms (so each has launched before the next open). 0 open a; 10 s open b (a suspended at 10 s: band 20, then band 0 from 12 s);
        // 20 s open c (b suspended at 20 s); at T open d: c suspended at T (band 20 since T).
        // used 90 MB + d's 30 MB = 120 > 100: need 20 MB. At most 3 suspended apps: the freezer
        // (more than 4 needed) never runs.
        // T = 21 s: b left 1 s ago → band 20 since 20 s. Order: a (0), b (20 since 20 s), c (20 since 21 s).
        // T = 22 s: b left 2 s ago → band 0 since 22 s. Order: a (0 since 12 s), b (0 since 22 s), c (20).
        // Either way a (30 MB) is taken: 60 + 30 = 90 fits.
        func run(_ t: Microseconds) -> SimulationResult {
            let apps = ["a", "b", "c", "d"].map { makeApp($0, footprint: 30 * MB, launch: 500 * ms) }
            return simulate(Self.plain(apps, duration: 30 * sec, policy: .xnu,
                                         [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .open(2)), (t, .open(3))]))
        }
        let early = run(21 * sec)
        #expect(early.reclaims.count == 1)
        #expect(Self.bands(early.reclaims.first) == ["a 0*", "b 20", "c 20"])
        #expect(early.reclaims.first?.fields.freedBytes == 30 * MB)
        #expect(early.exits("a") == ["21000000 memoryPressure"])
        #expect(early.summary.compressions == 0)
        let late = run(22 * sec)
        #expect(Self.bands(late.reclaims.first) == ["a 0*", "b 0", "c 20"])
        let justBefore = run(22 * sec - 1)
        #expect(Self.bands(justBefore.reclaims.first) == ["a 0*", "b 20", "c 20"])
        #expect(early.invariantViolations == [] && late.invariantViolations == [])
    }

    @Test("within the idle band the app that entered it first goes first, whatever its size")
    func leastRecentlyEnteredFirst() {
        // a 10 MB, b 40 MB, c 30 MB. 0 open a; 10 s open b (a suspended, idle from 12 s); 20 s open c
        // (b suspended, idle from 22 s); 30 s c allocates 45 MB: used 80 + 45 = 125 > 100 − 1 byte,
        // need 25 MB + 1 byte.
        // Band 0: a (since 12 s) then b (since 22 s). a frees 10 (115 > 100), b frees 40 (75): both taken.
        let apps = [makeApp("a", footprint: 10 * MB), makeApp("b", footprint: 40 * MB), makeApp("c", footprint: 30 * MB)]
        let r = simulate(Self.plain(apps, duration: 40 * sec, policy: .xnu,
                                      [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .open(2)),
                                       (30 * sec, .allocate(2, 45 * MB))]))
        #expect(Self.bands(r.reclaims.first) == ["a 0*", "b 0*"])
        #expect(r.reclaims.first?.fields.neededBytes == 25 * MB + 1)
        #expect(r.reclaims.first?.fields.freedBytes == 50 * MB)
        #expect(r.summary.evictions == 2)
        #expect(r.invariantViolations == [])
    }

    @Test("kill order up the bands: idle, background, frozen, then the foreground app before audio; seed-2015 never takes the compressed ones")
    func killOrderAcrossBands() {
        // Freezer made eager (suspended threshold 0) so one app is frozen without five suspended ones.
        // au 20 MB (audio), bg 20 MB (10 min task), fz 10 MB, i 5 MB, fg 20 MB.
        // 0 open au; 1.5 s play au; 2 s open bg (au keeps playing: background, band 120);
        // 4 s open fz (bg runs its task: background, band 30); 6 s open i: fz suspended, and the
        // freezer (available 100 − 55 = 45 MB < 100 MB, 1 suspended not frozen > 0, 10 MB ≥ 8 MB)
        // freezes it: band 75. 8 s open fg: i suspended, 5 MB < 8 MB so never frozen; band 0 from 10 s.
        // used = au 20 + bg 20 + i 5 + fg 20 = 65 MB.
        // 20 s fg allocates 80 MB (own 100 ≤ limit 100): 65 + 80 = 145 > 100 − 1 byte, need 45 MB + 1.
        // Order: i (0) → 140, bg (30) → 120, fz (75, frees flash, no RAM) → 120: still 20 MB short,
        // so the foreground app itself (band 100) goes for page shortage before au (band 120)
        // above it.
        let apps = [makeApp("au", modes: [.audio]),
                    makeApp("bg", task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 10 * mins))),
                    makeApp("fz", footprint: 10 * MB), makeApp("i", footprint: 5 * MB), makeApp("fg")]
        let script: [(Microseconds, ScriptAction)] = [
            (0, .open(0)), (1500 * ms, .play(0)), (2 * sec, .open(1)), (4 * sec, .open(2)),
            (6 * sec, .open(3)), (8 * sec, .open(4)), (20 * sec, .allocate(4, 80 * MB))]
        let xnu = simulate(Self.plain(apps, duration: 30 * sec,
                                        policy: Self.xnu { $0.freezeSuspendedThreshold = 0 }, script))
        #expect(xnu.events("fz", .compression).map(\.atUs) == [6 * sec])
        #expect(xnu.summary.compressions == 1)
        #expect(Self.bands(xnu.reclaims.first) == ["i 0*", "bg 30*", "fz 75*"])
        #expect(xnu.reclaims.first?.fields.neededBytes == 45 * MB + 1)
        #expect(xnu.reclaims.first?.fields.freedBytes == 25 * MB)
        #expect(["bg", "fz", "i"].flatMap { xnu.exits($0) } == Array(repeating: "20000000 memoryPressure", count: 3))
        #expect(xnu.exits("fg") == ["20000000 memoryPressure"])
        #expect(xnu.exits("au") == [])
        #expect(xnu.summary.evictions == 2) // i and fz: suspended or frozen, killed without a callback
        #expect(xnu.invariantViolations == [])

        // seed-2015: fz (10 MB) and i (5 MB) are under 16 MB, so compressed on suspension and never
        // taken. used = au 20 + bg 20 + fg 20 = 60 MB; 60 + 80 = 140 > 100, need 40 MB.
        // Candidates bg then au (audio last): 140 − 20 = 120 > 100, − 20 = 100 fits.
        let seed = simulate(Self.plain(apps, duration: 30 * sec, script))
        #expect(seed.reclaims.first?.fields.candidates?.map(\.app) == ["bg", "au"])
        #expect(seed.reclaims.first?.fields.candidates?.allSatisfy { $0.band == nil && $0.taken } == true)
        #expect(seed.reclaims.first?.fields.neededBytes == 40 * MB)
        #expect(seed.exits("fg") == [])
        #expect(seed.finalState("fz") == .compressed && seed.finalState("i") == .compressed)
        #expect(seed.invariantViolations == [])
    }

    // MARK: The freezer

    @Test("the freezer skips an app under 8 MB and freezes one of 8 MB, only while more than 4 are unfrozen")
    func freezerMinimumFootprint() {
        // s 8 MB − 1, b 8 MB, c d e f 10 MB; opened every 2 s. Suspensions: s 2 s, b 4 s, c 6 s, d 8 s, e 10 s.
        // At 8 s: 4 suspended, not more than 4 → nothing frozen.
        // At 10 s: 5 suspended > 4; used = 8 MB − 1 + 8 + 10 + 10 + 10 + f 10 = 56 MB − 1,
        // available 44 MB + 1 < 100 MB. Candidates ≥ 8 MB, lowest band, first entered: s is skipped
        // (under 8 MB) though idle longest (since 4 s); b (idle since 6 s) is frozen.
        // Then 4 suspended are left unfrozen → the freezer stops.
        let apps = [makeApp("s", footprint: 8 * MB - 1), makeApp("b", footprint: 8 * MB)]
            + ["c", "d", "e", "f"].map { makeApp($0, footprint: 10 * MB) }
        let r = simulate(Self.plain(apps, duration: 20 * sec, policy: .xnu, Self.openEvery2s(6)))
        #expect(r.summary.compressions == 1)
        #expect(r.events("b", .compression).map(\.atUs) == [10 * sec])
        #expect(r.events("b", .compression).first?.fields.detail
                == "freezer: band 0, 5 suspended not frozen, 0 frozen, \(44 * MB + 1) bytes available")
        #expect(r.finalState("b") == .compressed)
        #expect(r.finalState("s") == .suspended)
        #expect(r.timeline.compressedBytes.last == [10 * sec, 8 * MB])
        // seed-2015 would have compressed s and b at once (both under 16 MB); xnu compresses
        // nothing on suspension.
        #expect(r.events("s", .compression) == [])
        #expect(r.invariantViolations == [])
    }

    @Test("with 4 suspended apps the freezer does nothing")
    func freezerNeedsMoreThanFourSuspended() {
        // Five 10 MB apps opened every 2 s: at most 4 suspended (not more than 4) → no freeze.
        let apps = ["a", "b", "c", "d", "e"].map { makeApp($0, footprint: 10 * MB) }
        let r = simulate(Self.plain(apps, duration: 20 * sec, policy: .xnu, Self.openEvery2s(5)))
        #expect(r.summary.compressions == 0)
        #expect(r.timeline.compressedBytes == [[0, 0]])
    }

    @Test("the freezer waits until available memory is under 50% of RAM")
    func freezerThreshold() {
        // appMemory 300 MB, RAM 400 MB: freeze only while available < 200 MB, i.e. used > 100 MB.
        // a–e 10 MB, f 41 MB, opened every 2 s: at 10 s 5 suspended, used 50 + 41 = 91 MB,
        // available 209 MB → no freeze.
        // 12 s f allocates 9 MB: used 100 MB, available exactly 200 MB (50%) → still no freeze.
        // 14 s f allocates 1 byte: available 200 MB − 1 < 200 MB → a (idle since 4 s, the first
        // to enter band 0) is frozen; 4 left unfrozen → stop.
        let apps = ["a", "b", "c", "d", "e"].map { makeApp($0, footprint: 10 * MB) } + [makeApp("f", footprint: 41 * MB)]
        let r = simulate(Self.plain(apps, duration: 20 * sec, device: testDevice(appMemory: 300 * MB), policy: .xnu,
                                      Self.openEvery2s(6) + [(12 * sec, .allocate(5, 9 * MB)), (14 * sec, .allocate(5, 1))]))
        #expect(r.summary.compressions == 1)
        #expect(r.events("a", .compression).map(\.atUs) == [14 * sec])
        #expect(r.events("a", .compression).first?.fields.usedBytes == 100 * MB + 1)
    }

    @Test("at most 20 apps are frozen")
    func frozenMaximum() {
        // 26 apps of 20 MB opened every 10 s (the freezer runs at most once every 10 s); appMemory
        // 300 MB (RAM 400), flash 400 MB. used = 20 MB × (foreground + unfrozen suspended): used >
        // 100 MB exactly when 5 or more are unfrozen, which is also the "more than 4" condition.
        // So from the 6th open (50 s) each new suspension freezes the oldest: x0 at 50 s, x1 at
        // 60 s, …, x19 at 240 s (20 frozen, 400 MB of flash, exactly full). At 250 s x24
        // suspends: 5 unfrozen, 120 MB used, but 20 are frozen → none.
        let apps = (0..<26).map { makeApp("x\($0)") }
        let opens = (0..<26).map { (Microseconds($0) * 10 * sec, ScriptAction.open($0)) }
        let r = simulate(Self.plain(apps, duration: 270 * sec, device: testDevice(appMemory: 300 * MB, flash: 400 * MB),
                                      policy: .xnu, opens))
        #expect(r.summary.compressions == 20)
        #expect((0..<20).allSatisfy { r.finalState("x\($0)") == .compressed })
        #expect((20..<25).allSatisfy { r.finalState("x\($0)") == .suspended })
        #expect(r.events("x19", .compression).map(\.atUs) == [240 * sec])
        #expect(r.summary.peakCompressedBytes == 400 * MB)
        #expect(r.timeline.usedBytes.last == [250 * sec, 120 * MB])
        // With room for 21, x20 is frozen at 250 s as well.
        let more = simulate(Self.plain(apps, duration: 270 * sec, device: testDevice(appMemory: 300 * MB, flash: 420 * MB),
                                         policy: Self.xnu { $0.frozenProcessesMax = 21 }, opens))
        #expect(more.events("x20", .compression).map(\.atUs) == [250 * sec])
        #expect(r.invariantViolations == [] && more.invariantViolations == [])
    }

    @Test("a frozen app opened again is thawed from flash as a compressed resume")
    func thaw() {
        // As in freezerMinimumFootprint, b is frozen at 10 s; 12 s open b: it comes back from flash,
        // latency = resume 200 ms + 8 MB ÷ 100 MB/s = 200 ms + 80 ms = 280 ms.
        let apps = [makeApp("s", footprint: 8 * MB - 1), makeApp("b", footprint: 8 * MB)]
            + ["c", "d", "e", "f"].map { makeApp($0, footprint: 10 * MB) }
        let r = simulate(Self.plain(apps, duration: 20 * sec, policy: .xnu, Self.openEvery2s(6) + [(12 * sec, .open(1))]))
        #expect(r.stats("b").launches.fromCompressed == 1)
        #expect(r.events("b", .resume).map(\.fields.latencyUs) == [280 * ms])
    }
    @Test("200 random workloads under xnu keep every invariant, with bands in order")
    func randomWorkloads() {
        var compressions = 0
        for seed in UInt64(0)..<200 {
            var w = RandomWorkloads.make(seed: seed)
            let old = w.policy
            w.policy = .xnu
            w.policy.warningLevel = old.warningLevel
            w.policy.criticalLevel = old.criticalLevel
            w.policy.backgroundTaskLimitUs = old.backgroundTaskLimitUs
            w.policy.voipMinKeepaliveUs = old.voipMinKeepaliveUs
            let r = simulate(w)
            let problems = PropertyTests.problems(w, r)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
            compressions += r.summary.compressions
            for e in r.reclaims {
                let bands = (e.fields.candidates ?? []).map { $0.band ?? -1 }
                #expect(bands == bands.sorted(), "seed \(seed): bands out of order \(bands)")
                #expect(!bands.contains(100) && !bands.contains(-1), "seed \(seed): \(bands)")
            }
        }
        #expect(compressions > 0)
    }
}
