import MemprofCore
import Testing

/// Spec §5: processes that are not apps. The default test device has 200 MB of RAM and 100 MB of
/// app memory; xnu's pressure threshold is 15% of RAM (``XNUSettings/pressureThreshold``), so the
/// highwater pass runs while available memory is at most 30 MB: `used` at least 70 MB.
/// Every expected number is worked out by hand in the comment above it.
@Suite("Processes that are not apps (spec §5)")
struct ProcessTests {
    /// The in-RAM compressor and jetsam's critical threshold (CompressorTests) are set aside so that
    /// memory adds up as footprints and a demand fits up to app memory less one byte: apps compress
    /// at a ratio of 1 and the idle threshold is 0 (the pressure threshold stays 15%).
    static func workload(_ apps: [AppSpec], _ processes: [ProcessSpec], policy: PolicySettings = .xnu,
                         _ script: [(Microseconds, ScriptAction)]) -> Workload {
        var policy = policy
        policy.xnu?.idleThresholdFraction = 0
        let apps = apps.map { app in
            var app = app
            app.compressionRatio = 1
            return app
        }
        return Workload(name: "test", durationUs: 60 * sec, device: testDevice(), policy: policy, apps: apps,
                        processes: processes, script: script.map { ScriptEntry(atUs: $0.0, action: $0.1) })
    }

    /// `processExit` events as `"atUs key reason kind band bytes"`.
    static func processExits(_ r: SimulationResult) -> [String] {
        r.events.compactMap {
            guard case .processExit(let reason, let kind, let band, let bytes) = $0.payload else { return nil }
            return "\($0.atUs) \($0.app ?? "-") \(reason.rawValue) \(kind.rawValue) \(band) \(bytes / MB)MB"
        }
    }

    @Test("a daemon over its high-water mark dies with highwater once available memory is under the threshold; the idle app lives")
    func highwaterBeforeIdleApps() {
        // d: daemon, band 1, 10 MB, mark 12 MB. 0 s open a (30 MB): used 40. 10 s open b (30 MB):
        // used 70, available 30 MB = 15% of 200 MB: under pressure, but d (10 MB) is within its mark.
        // a is suspended at 10 s (band 20), idle (band 0) from 12 s.
        // 20 s allocate d 5 MB: 75 MB used, d 15 MB > 12 MB: the pass kills d (band 1) at 20 s,
        // used 60. Nothing else ends: a stays suspended, nothing is reclaimed.
        let d = ProcessSpec(id: "d", displayName: "wifianalyticsd", kind: .daemon, band: 1, resident: 10 * MB,
                            highWaterMark: 12 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms),
                                        makeApp("b", footprint: 30 * MB, launch: 500 * ms)], [d],
                                       [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .allocateProcess(0, 5 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(Self.processExits(r) == ["\(20 * sec) d highwater daemon 1 15MB"])
        #expect(r.terminations(.highwater) == 1)
        #expect(r.terminations(.memoryPressure) == 0)
        #expect(r.finalState("a") == .suspended)
        #expect(r.reclaims.isEmpty)
        // The snapshot: d named as iOS writes it, 15 MB in 16 KB pages = 960, with the reason.
        let snapshot = r.jetsamEvents.first
        #expect(r.jetsamEvents.count == 1)
        #expect(snapshot?.killed == "wifianalyticsd")
        #expect(snapshot?.exitReason == .highwater)
        let victim = snapshot?.processes.first { $0.name == "wifianalyticsd" }
        #expect(victim?.rpages == 960)
        #expect(victim?.priority == 1)
        #expect(victim?.states == ["daemon"])
        #expect(victim?.reason == "highwater")
        // used: 10 MB and a's 30 MB at 0 s, 70 MB, 75 MB at most, then 60 MB at 20 s.
        #expect(r.timeline.usedBytes.first == [0, 40 * MB])
        #expect(r.summary.peakUsedBytes == 75 * MB)
        #expect(r.timeline.usedBytes.last == [20 * sec, 60 * MB])
    }

    @Test("within the mark, or with memory above the threshold, nothing dies")
    func noHighwaterKillAbovePressure() {
        // As above without b: used 10 + 30 = 40, then d grows to 15 MB: 45 MB used, 55 MB
        // available (over 30 MB): no pass. Then d frees 5 MB and a second daemon e (band 0, 20 MB,
        // mark 30 MB) is within its mark.
        let d = ProcessSpec(id: "d", kind: .daemon, band: 1, resident: 10 * MB, highWaterMark: 12 * MB)
        let e = ProcessSpec(id: "e", kind: .extension, band: 0, resident: 20 * MB, highWaterMark: 30 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [d, e],
                                       [(0, .open(0)), (20 * sec, .allocateProcess(0, 5 * MB)),
                                        (30 * sec, .freeProcess(0, 5 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(Self.processExits(r).isEmpty)
        #expect(r.summary.peakUsedBytes == 65 * MB)
        #expect(r.timeline.usedBytes.last == [30 * sec, 60 * MB])
    }

    @Test("a demand kills the daemon over its mark first, then up the bands, processes before apps in a band")
    func reclaimByBand() {
        // p: daemon band 0, 20 MB, no mark; h: daemon band 40, 6 MB, mark 5 MB (already over it).
        // 0 s open a (30 MB): used 56 (available 44: no pass). 10 s open b: 86 (available 14:
        // the pass kills h at 10 s after b's launch: used 80). a suspended at 10 s, idle from 12 s.
        // 20 s open c (30 MB): 110 > 100, need 10 MB. Nobody is over a mark; up the bands: band 0
        // holds p (since 0 s) and a (since 12 s): p first (20 MB), then 90 fits. a lives.
        let p = ProcessSpec(id: "p", kind: .daemon, band: 0, resident: 20 * MB)
        let h = ProcessSpec(id: "h", kind: .daemon, band: 40, resident: 6 * MB, highWaterMark: 5 * MB)
        let apps = ["a", "b", "c"].map { makeApp($0, footprint: 30 * MB, launch: 500 * ms) }
        let r = simulate(Self.workload(apps, [p, h], [(0, .open(0)), (10 * sec, .open(1)), (20 * sec, .open(2))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(Self.processExits(r) == ["\(10 * sec) h highwater daemon 40 6MB", "\(20 * sec) p memoryPressure daemon 0 20MB"])
        #expect(r.finalState("a") == .suspended)
        #expect(r.finalState("c") == .active)
        #expect(r.terminations(.memoryPressure) == 1)
        #expect(r.terminations(.highwater) == 1)
        // The reclaim lists the apps it considered (none taken) and counts p's 20 MB as freed.
        let reclaim = r.reclaims.first?.fields
        #expect(reclaim?.freedBytes == 20 * MB)
        #expect(reclaim?.candidates?.map { "\($0.app)\($0.taken ? "*" : "")" } == ["a", "b"])
        // p's snapshot: the largest process is a (30 MB, before b's 30 MB by name), p 1280 pages, idle.
        let snapshot = r.jetsamEvents.last
        #expect(snapshot?.largestProcess == "a")
        #expect(snapshot?.processes.first { $0.name == "p" }?.states == ["daemon", "idle"])
        #expect(snapshot?.processes.first { $0.name == "p" }?.rpages == 1280)
    }

    @Test("a process in or above the foreground band is never taken for an app's demand")
    func foregroundBandProtects() {
        // s: system, band 999, 40 MB. 0 s open a (30 MB): 70. 10 s allocate a 40 MB: 110 > 100;
        // no candidate below the foreground band: a is killed for page shortage; s lives.
        let s = ProcessSpec(id: "s", displayName: "backboardd", kind: .system, band: 999, resident: 40 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [s],
                                       [(0, .open(0)), (10 * sec, .allocate(0, 40 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(Self.processExits(r).isEmpty)
        #expect(r.exits("a") == ["\(10 * sec) memoryPressure"])
        // The snapshot lists backboardd, largest (40 MB), active.
        #expect(r.jetsamEvents.first?.largestProcess == "backboardd")
        #expect(r.jetsamEvents.first?.processes.first?.states == ["active"])
    }

    @Test("under seed-2015 processes hold fixed memory: counted in used, never killed, never grown")
    func fixedUnderSeed2015() {
        // d 10 MB from 0 s; allocate is refused; a 30 MB: peak 40 MB.
        let d = ProcessSpec(id: "d", kind: .daemon, band: 0, resident: 10 * MB, highWaterMark: 1 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB)], [d], policy: .seed2015,
                                       [(0, .open(0)), (5 * sec, .allocateProcess(0, 50 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.summary.peakUsedBytes == 40 * MB)
        #expect(Self.processExits(r).isEmpty)
        let ignored = r.events.first { $0.kind == .ignored && $0.app == "d" }?.fields
        #expect(ignored?.action == "allocate")
        #expect(ignored?.detail == IgnoredReason.fixedMemory.detail)
        // highwater is a key of the summary's terminations only with processes.
        #expect(r.summary.terminations["highwater"] == 0)
        let without = simulate(makeWorkload([makeApp("a")], [(0, .open(0))]))
        #expect(without.summary.terminations["highwater"] == nil)
    }

    @Test("freeze: a suspended app goes to flash at once, a running one is marked frozen; refused once on flash or without a freezer")
    func freezeAction() {
        // a 30 MB: suspended at 10 s (b opens). 15 s freeze a: compressed, 30 MB on flash, used
        // 30 (b only). 16 s freeze b (active): frozen where it runs, its 30 MB resident (the
        // sysctl asks for no suspension). 17 s freeze a again: refused, on flash already. Under
        // seed-2015: refused, no freezer.
        let apps = [makeApp("a", footprint: 30 * MB, launch: 500 * ms), makeApp("b", footprint: 30 * MB, launch: 500 * ms)]
        let script: [(Microseconds, ScriptAction)] = [(0, .open(0)), (10 * sec, .open(1)), (15 * sec, .freeze(0)),
                                                      (16 * sec, .freeze(1)), (17 * sec, .freeze(0))]
        let r = simulate(Self.workload(apps, [], script))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.state("a", at: 15 * sec) == .compressed)
        #expect(r.summary.peakCompressedBytes == 30 * MB)
        #expect(r.timeline.usedBytes.last == [15 * sec, 30 * MB])
        let refused = r.events.filter { $0.kind == .ignored }.map { "\($0.app ?? "-") \($0.fields.detail ?? "")" }
        #expect(refused == ["a \(IgnoredReason.alreadyFrozen.detail)"])
        #expect(r.state("b", at: 16 * sec) == .active && r.summary.compressions == 2)
        let seed = simulate(Self.workload(apps, [], policy: .seed2015, script))
        #expect(seed.state("a", at: 15 * sec) == .suspended)
        #expect(seed.events.filter { $0.kind == .ignored }.compactMap(\.fields.detail).first == IgnoredReason.noFreezer.detail)
    }

    @Test("a processExit event reads back from its words")
    func processExitRoundTrip() throws {
        let event = SimEvent(atUs: 5, app: "d", .processExit(.highwater, kind: .extension, band: 3, bytes: 7))
        #expect(event.fields.detail == "extension in band 3")
        #expect(try SimEvent(event.fields) == event)
        #expect(IgnoredReason(detail: IgnoredReason.alreadyFrozen.detail) == .alreadyFrozen)
        #expect(IgnoredReason(detail: IgnoredReason.compressorLowOnSpace.detail) == .compressorLowOnSpace)
    }

    @Test("a push wakes its notification service extension: it holds the push's memory for the push's time, dies past 24 MB and is launched again by the next push")
    func notificationServiceExtension() {
        // n: notification service extension of a (band 0, 4 MB resident, 24 MB limit); each push
        // of a makes it hold 8 MB for 3 s. a has no remote-notification mode: the push still
        // reaches n. 0 s open a (30 MB): used 34 MB. 10 s push: n 12 MB, used 42 MB; 13 s: n
        // back to 4 MB. 20 s allocate n 10 MB (14 MB), 21 s push: 14 + 8 = 22 MB, within 24 MB;
        // 22 s push again while holding: 22 + 8 = 30 MB > 24 MB: killed for per-process-limit with
        // its 22 MB; used 30 MB. The push's end at 24 s belongs to the ended life: nothing.
        // 30 s push: launched again at 4 MB, then 12 MB; 33 s: back to 4 MB, used 34 MB.
        var n = ProcessSpec(id: "n", kind: .extension, band: 0, resident: 4 * MB, extensionPoint: .notificationService)
        n.pushService = ProcessSpec.PushService(app: "a", timeUs: 3 * sec, allocates: 8 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [n],
                                       [(0, .open(0)), (10 * sec, .push(0)), (20 * sec, .allocateProcess(0, 10 * MB)),
                                        (21 * sec, .push(0)), (22 * sec, .push(0)), (30 * sec, .push(0))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(Self.processExits(r) == ["\(22 * sec) n memoryLimit extension 0 22MB"])
        #expect(r.terminations(.memoryLimit) == 1)
        #expect(r.summary.peakUsedBytes == 52 * MB)
        let used = Dictionary(r.timeline.usedBytes.map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
        #expect(used[10 * sec] == 42 * MB && used[13 * sec] == 34 * MB)
        #expect(used[22 * sec] == 30 * MB)
        #expect(used[30 * sec] == 42 * MB && used[33 * sec] == 34 * MB)
        // Under seed-2015 processes have fixed memory: the push is ignored for the extension.
        let fixed = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [n], policy: .seed2015,
                                           [(0, .open(0)), (10 * sec, .push(0))]))
        #expect(fixed.events.contains { $0.app == "n" && $0.payload == .ignored(action: "push", reason: .fixedMemory) })
        #expect(fixed.summary.peakUsedBytes == 34 * MB)
    }
}
