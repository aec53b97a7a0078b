import MemprofCore
import Testing

/// Spec §5 `xnu`: the freezer's daily budget of writes to flash (FreezerBudget.swift). The test
/// device has 200 MB of RAM, 100 MB of app memory, 16 KB pages and a 64 MB compressed store.
/// Every expected number is worked out by hand in the comment above it.
@Suite("The xnu freezer's daily budget (spec §5)")
struct FreezerBudgetTests {
    /// iOS 18's numbers (or `era`'s) with a 32 MB budget (2048 pages of 16 KB) instead of 2048 MB.
    static func policy(budgetMB: Int? = 32, era: XNUSettings = .xnu11215) -> PolicySettings {
        var p = PolicySettings.xnu
        var x = era
        x.freezeDailyBudgetMB = budgetMB
        p.xnu = x
        return p
    }

    @Test("the budget runs out on a partial freeze, the apps left are out of budget, freeze: ignores it, and thawed apps still count as frozen")
    func budgetExhaustedAndRenewed() throws {
        // Eight apps of 12 MB (768 pages each), opened 10 s apart from 0 s; each leaves the
        // foreground suspended when the next opens, ages 2 s in band 20, then sits in band 0. The
        // freezer runs while available memory is under 50% of RAM (100 MB: always here) and the
        // suspended apps (frozen ones on flash too) outnumber the frozen ones by more than 4; it
        // takes band 0 first, first entered first, one app a run, and runs again no sooner than
        // 10 s later.
        // - 40 s (open e): a b c d suspended, 4: no freeze.
        // - 50 s (open f): a b c d e, 5: freeze a, 768 pages, 2048 − 768 = 1280 left.
        // - 60 s (open g): 6 suspended, 1 frozen: freeze b, 1280 − 768 = 512 left.
        // - 70 s (open h): 7 and 2: freeze c, which writes only the 512 pages left (xnu's
        //   `max_pages` is at most the budget): 0 left, the budget is exhausted at 70 s, and the
        //   unfrozen suspended apps d e f g are marked out of budget (4).
        // - 80 s (open a): a is read back (a thaw of 12 MB: resume 200 ms + 12 MB ÷ 100 MB/s =
        //   320 ms) and stays frozen; h is suspended while the budget is spent: out of budget (5).
        // - 90 s (freeze d): the sysctl ignores the budget: d goes to flash, 12 MB written outside
        //   it, no page of it spent.
        // - 24 h + 10 s (open b): a new interval began at 24 h with 0 + 2048 pages; b is read back
        //   (thaw 2, 24 MB read in all) and stays frozen; a is suspended. Suspended (frozen ones on
        //   flash too): a c d e f g h, 7; frozen a b c d, 4 (thawed apps still count): 3, so the
        //   freezer does not run, at 24 h + 20 s (a memory warning) either.
        // Freezes 4 (a b c by the freezer, d by freeze:), pages of the budget 768 + 768 + 512 =
        // 2048 (32 MB), bytes written 32 + 12 = 44 MB; 2048 pages (32 MB) left at the end.
        let apps = ["a", "b", "c", "d", "e", "f", "g", "h"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        let day = 24 * 60 * mins
        var script: [(Microseconds, ScriptAction)] = (0..<8).map { (Microseconds($0) * 10 * sec, .open($0)) }
        script += [(80 * sec, .open(0)), (90 * sec, .freeze(3)), (day + 10 * sec, .open(1)), (day + 20 * sec, .memoryWarning)]
        let r = simulate(makeWorkload(apps, duration: day + 30 * sec, policy: Self.policy(), script))
        #expect(r.invariantViolations.isEmpty)
        let f = try #require(r.summary.freezer)
        #expect(f.dailyBudgetBytes == 32 * MB && f.pageSize == 16 * KB)
        #expect(f.freezes == 4)
        #expect(f.pagesWritten == 2048 && f.bytesWritten == 44 * MB)
        #expect(f.budgetExhaustions == 1 && f.firstExhaustedAtUs == 70 * sec)
        #expect(f.intervalsStarted == 1)
        #expect(f.budgetRemainingPages == 2048 && f.budgetRemainingBytes == 32 * MB)
        #expect(f.skips.outOfBudget == 5 && f.skips.belowMinPages == 0 && f.skips.outOfSlots == 0)
        #expect(f.thaws == 2 && f.bytesReadBack == 24 * MB)
        #expect(r.stats("a").resumeLatencyUs.max == 320 * ms)
        #expect(r.events("d").allSatisfy { if case .ignored = $0.payload { false } else { true } })
        #expect(["d", "e", "f", "g", "h", "a"].map { r.finalState($0) }
            == [.compressed, .suspended, .suspended, .suspended, .suspended, .suspended])
        let frozenAt = { (id: String) in r.events(id).last { if case .compression = $0.payload { true } else { false } }?.atUs }
        #expect(frozenAt("d") == 90 * sec)
    }

    @Test("the freezer runs no sooner than 10 s after its last run, and freezes one app a run")
    func oneFreezeEveryTenSeconds() {
        // Seven apps of 12 MB opened 1 s apart from 0 s (iOS 18's numbers, no budget in the way):
        // at 5 s (open f) a b c d e are suspended, 5 unfrozen: the freezer runs and freezes a, and
        // its next run is at 15 s. 6 s (open g): 5 unfrozen again (b to f), but the freezer waits.
        // The occurrences after 6 s are the apps' launches ending (by 6.5 s) and a memory warning
        // at 14 s: too soon. At 15 s (a memory warning) it runs: b is frozen, 4 left unfrozen; its
        // next run would be at 25 s.
        let apps = ["a", "b", "c", "d", "e", "f", "g"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        var script: [(Microseconds, ScriptAction)] = (0..<7).map { (Microseconds($0) * sec, .open($0)) }
        script += [(14 * sec, .memoryWarning), (15 * sec, .memoryWarning)]
        let r = simulate(makeWorkload(apps, duration: 20 * sec, policy: Self.policy(budgetMB: nil), script))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.events("a", .compression).map(\.atUs) == [5 * sec])
        #expect(r.events("b", .compression).map(\.atUs) == [15 * sec])
        #expect(r.summary.compressions == 2)
        // Before xnu-4903 the thread has no such delay: a and b are frozen as their turns come,
        // at 5 s and 6 s.
        let old = simulate(makeWorkload(apps, duration: 20 * sec, policy: Self.policy(budgetMB: nil, era: .xnu4570), script))
        #expect(old.events("a", .compression).map(\.atUs) == [5 * sec])
        #expect(old.events("b", .compression).map(\.atUs) == [6 * sec])
    }

    @Test("apps under the freezer's minimum are skipped for below-min-pages; without a budget nothing is counted")
    func belowMinPagesAndNoBudget() {
        // Six apps: five of 12 MB and z of 4 MB (under the 8 MB minimum), opened in turn, z first.
        // At 25 s (open f): z a b c d suspended, 5: the freezer takes a (z is passed over: below
        // min pages, 1); then 4 unfrozen: stop, and the passed-over z stays marked once.
        let apps = [makeApp("z", footprint: 4 * MB, launch: 500 * ms)]
            + ["a", "b", "c", "d", "f"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        let script: [(Microseconds, ScriptAction)] = (0..<6).map { (Microseconds($0) * 5 * sec, .open($0)) }
        let r = simulate(makeWorkload(apps, policy: Self.policy(), script))
        #expect(r.summary.freezer?.freezes == 1)
        #expect(r.summary.freezer?.skips.belowMinPages == 1)
        #expect(r.finalState("a") == .compressed && r.finalState("z") == .suspended)
        // The same day without a budget: the same freeze, no ledger.
        let o = simulate(makeWorkload(apps, policy: Self.policy(budgetMB: nil), script))
        #expect(o.summary.freezer == nil)
        #expect(o.summary.compressions == r.summary.compressions)
    }

    @Test("the freeze that spends the budget is the last: the freezer's later runs freeze nothing")
    func lastFreezeBeforeTheBudgetRenews() {
        // 400 MB of RAM, 300 MB of app memory: the freezer waits until available memory is under
        // 200 MB, used over 100 MB. Eight apps of 12 MB opened 5 s apart: 96 MB, no freeze. At 40 s
        // i (30 MB) opens: 126 MB used, h is suspended: a to h, 8 unfrozen. A 16 MB budget (1024
        // pages): a writes 768 (256 left); at 50 s (a memory warning, the freezer's next run) b
        // writes the 256 left: spent; at 60 s c stays suspended although 6 apps are still unfrozen.
        let apps = ["a", "b", "c", "d", "e", "f", "g", "h"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
            + [makeApp("i", footprint: 30 * MB, launch: 500 * ms)]
        let script: [(Microseconds, ScriptAction)] = (0..<9).map { (Microseconds($0) * 5 * sec, .open($0)) }
            + [(50 * sec, .memoryWarning), (60 * sec, .memoryWarning)]
        // The apps' memory adds up as their footprints (the compressor set aside: its subject is the
        // freezer's order and budget, not the pool).
        let w = XNUPolicyTests.plain(apps, device: testDevice(appMemory: 300 * MB), policy: Self.policy(budgetMB: 16), script)
        let r = simulate(w)
        #expect(r.invariantViolations.isEmpty)
        #expect(r.summary.freezer?.freezes == 2 && r.summary.freezer?.pagesWritten == 1024)
        #expect(r.summary.freezer?.firstExhaustedAtUs == 50 * sec)
        #expect(["a", "b", "c"].map { r.finalState($0) } == [.compressed, .compressed, .suspended])
    }

    @Test("the eras: no budget before xnu-4903, 1024 MB to xnu-10002, 2048 MB from xnu-11215; intervals from a check in xnu-4903 and xnu-6153; a paced thread from xnu-4903")
    func erasBudget() {
        #expect(XNUSettings.eras.map(\.freezeDailyBudgetMB) == [nil, nil, nil, nil, nil, 1024, 1024, 1024, 1024, 1024, 1024, 2048, 2048])
        #expect(XNUSettings.eras.map(\.freezeIntervalStartsAtCheck) == [nil, nil, nil, nil, nil, true, true, nil, nil, nil, nil, nil, nil])
        // The freezer's thread runs 10 s apart at the least from xnu-4903 (XNUSettings.freezerRunDelayUs).
        #expect(XNUSettings.eras.map(\.freezerRunDelayUs) == Array(repeating: nil, count: 5) + Array(repeating: 10 * sec, count: 8))
    }

    @Test("iOS 13: the interval starts at the freezer's first check, the budget runs out, and a check 24 h after that one renews it")
    func ios13IntervalFromCheck() throws {
        // xnu-6153's numbers with a 32 MB budget (2048 pages). Nine apps of 12 MB (768 pages):
        // a to h opened 10 s apart from 0 s; each is suspended when the next opens, ages 2 s in
        // band 2 and then sits in band 0, the only band xnu-6153's freezer takes. It runs (and
        // checks its budget) while the suspended apps (frozen ones too) outnumber the frozen
        // ones by more than 4 (available memory is under 50% of RAM here once an app runs), one
        // app a run.
        // - 40 s (open e): a b c d suspended, 4: the freezer does not run; no interval yet.
        // - 50 s (open f): a to e, 5: the freezer's first check starts the interval, to
        //   24 h + 50 s, with 2048 pages; a (band 0) is frozen: 1280 left.
        // - 60 s (open g): b frozen: 512 left.
        // - 70 s (open h): g is suspended (in band 2: not marked); c writes the 512 left, at
        //   once (the degraded window, which would hold back the last quarter, cannot start:
        //   FreezerBudget.swift): the budget is exhausted at 70 s and the suspended apps of band
        //   0, d e f, are marked out of budget (3).
        // - 80 s (open a): a read back (12 MB, 320 ms: 200 ms + 12 MB ÷ 100 MB/s), frozen still;
        //   h suspended while the budget is spent: out of budget (4).
        // - 24 h + 10 s (open i): a suspended, frozen: the frozen band (8), not marked. 24 h of
        //   the run have passed, but the interval began at 50 s: still spent, nothing frozen
        //   although 8 suspended apps outnumber the 3 frozen by 5 (iOS 18 would have renewed at 24 h).
        // - 24 h + 60 s (a memory warning): the freezer's check, after 24 h + 50 s, starts the
        //   next interval with 0 + 2048 pages; d (band 0 since 42 s, the first) writes 768: 1280 left.
        // Freezes 4 (a b c d), 768 + 768 + 512 + 768 = 2816 pages (44 MB), 1280 left.
        let apps = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        let day = 24 * 60 * mins
        var script: [(Microseconds, ScriptAction)] = (0..<8).map { (Microseconds($0) * 10 * sec, .open($0)) }
        script += [(80 * sec, .open(0)), (day + 10 * sec, .open(8)), (day + 60 * sec, .memoryWarning)]
        let r = simulate(makeWorkload(apps, duration: day + 70 * sec, policy: Self.policy(era: .xnu6153), script))
        #expect(r.invariantViolations.isEmpty)
        let f = try #require(r.summary.freezer)
        // Freezes, pages and bytes written, exhaustions and the first, intervals after the first,
        // pages left, out of budget, thaws and bytes read back.
        #expect([Int64(f.freezes), f.pagesWritten, f.bytesWritten, Int64(f.budgetExhaustions), f.firstExhaustedAtUs ?? -1,
                  Int64(f.intervalsStarted), f.budgetRemainingPages, Int64(f.skips.outOfBudget), Int64(f.thaws), f.bytesReadBack]
            == [4, 2816, 44 * MB, 1, 70 * sec, 1, 1280, 4, 1, 12 * MB])
        #expect(r.stats("a").resumeLatencyUs.max == 320 * ms)
        #expect(["b", "c", "d", "e", "f", "g", "h", "a"].map { r.finalState($0) }
            == [.compressed, .compressed, .compressed, .suspended, .suspended, .suspended, .suspended, .suspended])
        // d is frozen at 24 h + 60 s, not at 24 h + 10 s.
        let frozenAt = { (id: String) in r.events(id).last { if case .compression = $0.payload { true } else { false } }?.atUs }
        #expect(frozenAt("d") == day + 60 * sec)
    }

    @Test("freeze: ignores the budget in every era that has one, and freezes a running app, which stays resident")
    func freezeIgnoresBudget() throws {
        // a 20 MB, b 12 MB; a 32 MB budget (2048 pages). 5 s: a suspended. 10 s (freeze a): on
        // flash, 20 MB written, no page of the budget. 15 s (freeze b, active): marked frozen,
        // 12 MB written, b stays active with its memory. 20 s (open a): a reads back its 20 MB
        // (resume 200 ms + 20 MB ÷ 100 MB/s = 400 ms). The budget: never asked, so no interval
        // where one starts at a check (xnu-4903, xnu-6153), and all 2048 pages left in every era.
        for era in [XNUSettings.xnu4903, .xnu6153, .xnu11215] {
            let apps = [makeApp("a", footprint: 20 * MB, launch: 500 * ms), makeApp("b", footprint: 12 * MB, launch: 500 * ms)]
            let script: [(Microseconds, ScriptAction)] = [(0, .open(0)), (5 * sec, .open(1)), (10 * sec, .freeze(0)),
                                                          (15 * sec, .freeze(1)), (20 * sec, .open(0))]
            let r = simulate(makeWorkload(apps, duration: 30 * sec, policy: Self.policy(era: era), script))
            #expect(r.invariantViolations.isEmpty)
            let f = try #require(r.summary.freezer)
            #expect([Int64(f.freezes), f.pagesWritten, f.bytesWritten, f.budgetRemainingPages, Int64(f.intervalsStarted),
                      Int64(f.budgetExhaustions), Int64(f.thaws), f.bytesReadBack]
                == [2, 0, 32 * MB, 2048, 0, 0, 1, 20 * MB], "\(era.xnuTag ?? "")")
            #expect(r.state("a", at: 10 * sec) == .compressed && r.state("b", at: 15 * sec) == .active)
            #expect(r.stats("a").resumeLatencyUs.max == 400 * ms)
            #expect(r.events.allSatisfy { $0.kind != .ignored })
            #expect(r.events("b").contains { if case .compression(12 * MB, _, nil) = $0.payload { $0.atUs == 15 * sec } else { false } })
        }
    }

    @Test("a thaw reads back what the freeze wrote: after a freeze cut short by the budget, less than the footprint; freeze: writes it all")
    func thawReadsWhatWasWritten() throws {
        // iOS 18's numbers, a 16 MB budget (1024 pages). Seven apps of 12 MB (768 pages) opened
        // 10 s apart from 0 s; each is suspended when the next opens.
        // - 50 s (open f): a to e suspended, 5 unfrozen: the freezer freezes a, 768 pages, 256 left.
        // - 60 s (open g): 6 suspended, 1 frozen: b writes the 256 pages left, 4 MB of its 12 MB:
        //   exhausted.
        // - 70 s (open b): b reads back the 4 MB written, not 12: resume 200 ms + 4 MB ÷ 100 MB/s
        //   = 240 ms (the whole footprint would be 320 ms). It stays frozen.
        // - 24 h + 10 s (open c, a warm resume from the pool): b suspended again; the budget was
        //   renewed at 24 h (0 + 1024 pages). Suspended a b d e f g, 6; frozen a b, 2: 4, no freeze.
        // - 24 h + 20 s (freeze b): its whole 12 MB again (the thaw read every page back, and the
        //   8 MB never written stayed in RAM), outside the budget.
        // - 24 h + 30 s (open b): reads back 12 MB, 320 ms.
        // Freezes 3; pages of the budget 768 + 256 = 1024; written 16 + 12 = 28 MB; read back
        // 4 + 12 = 16 MB in 2 thaws.
        let apps = ["a", "b", "c", "d", "e", "f", "g"].map { makeApp($0, footprint: 12 * MB, launch: 500 * ms) }
        let day = 24 * 60 * mins
        var script: [(Microseconds, ScriptAction)] = (0..<7).map { (Microseconds($0) * 10 * sec, .open($0)) }
        script += [(70 * sec, .open(1)), (day + 10 * sec, .open(2)), (day + 20 * sec, .freeze(1)), (day + 30 * sec, .open(1))]
        let r = simulate(makeWorkload(apps, duration: day + 40 * sec, policy: Self.policy(budgetMB: 16), script))
        #expect(r.invariantViolations.isEmpty)
        let f = try #require(r.summary.freezer)
        #expect([Int64(f.freezes), f.pagesWritten, f.bytesWritten, Int64(f.thaws), f.bytesReadBack]
            == [3, 1024, 28 * MB, 2, 16 * MB])
        let latencies = r.events("b").compactMap { if case .resume(.fromCompressed, let l) = $0.payload { l } else { nil } }
        #expect(latencies == [240 * ms, 320 * ms])
        // Each page read back is a decompression (a fault from flash), as is each page of an app
        // that runs again from the in-RAM pool: b's thaws 256 + 768 pages, and c's resume from the
        // pool at 24 h + 10 s 768. Compressed: 768 pages at each of the nine suspensions (a to g
        // at 10 to 70 s, b at 24 h + 10 s, c at 24 h + 30 s); a frozen app's pages leave the pool
        // without a decompression.
        let pool = try #require(r.summary.compressor)
        let pages: Int64 = 768
        #expect(pool.decompressions == 256 + pages + pages)
        #expect(pool.compressions == 9 * pages)
    }
}
