import MemprofCore
import Testing

/// xnu-11417 (iOS 18.4 and later): the reaper and the idle/critical split, on the small test
/// device (200 MB of RAM, 100 MB of app memory). Its thresholds, fractions of RAM: critical base
/// 5% (10 MB), idle 10% (20 MB), reaper 20% (40 MB), as xnu-11417's table gives them up to 3 GB
/// (``XNUSettings/reaperThresholdFraction``). Every expected number is worked out by hand in the
/// comment above it.
private let gigabyte: Bytes = .gigabyte

@Suite("xnu-11417: the reaper and idle exits")
struct ReaperTests {
    static func workload(_ apps: [AppSpec], _ processes: [ProcessSpec], duration: Microseconds,
                         _ script: [(Microseconds, ScriptAction)]) -> Workload {
        var policy = PolicySettings.xnu
        policy.xnu = .xnu11417
        let apps = apps.map { app in
            var app = app
            app.compressionRatio = 1
            return app
        }
        return Workload(name: "test", durationUs: duration, device: testDevice(), policy: policy, apps: apps,
                        processes: processes, script: script.map { ScriptEntry(atUs: $0.0, action: $0.1) })
    }

    @Test("iOS 18.4 and later, and iOS 26, run xnu-11417; iOS 18.3 runs xnu-11215")
    func eras() {
        func tag(_ version: String, ram: Bytes = 6 * gigabyte) -> String? {
            XNUSettings.forDevice(Device(name: "p", platform: .ios, ram: ram, systemReserved: ram / 4, appLimit: ram / 2,
                                         flash: ram, flashReadRate: MB, pageSize: 16 * KB, cpuScale: 1,
                                         osVersion: version)).xnuTag
        }
        #expect(tag("iOS 18.3 (22D63)") == "xnu-11215.1.10")
        #expect(tag("iOS 18.4 (22E240)") == "xnu-11417.121.6")
        #expect(tag("iOS 18.5 (22F76)") == "xnu-11417.121.6")
        #expect(tag("iOS 26.0") == "xnu-11417.121.6")
        // The reaper's threshold by RAM: 20% up to 3 GB, 18% up to 6 GB, 16% above.
        func reaper(_ ram: Bytes) -> Double? {
            XNUSettings.forDevice(Device(name: "p", platform: .ios, ram: ram, systemReserved: ram / 4, appLimit: ram / 2,
                                         flash: ram, flashReadRate: MB, pageSize: 16 * KB, cpuScale: 1,
                                         osVersion: "iOS 18.5")).reaperThresholdFraction
        }
        #expect(reaper(3 * gigabyte) == 0.20 && reaper(6 * gigabyte) == 0.18 && reaper(8 * gigabyte) == 0.16)
        #expect(XNUSettings.xnu11215.reaperThresholdFraction == nil)
    }

    @Test("the reaper kills processes idle 300 s or more in band 0 once available memory is under 20%, then waits 30 s")
    func reaper() {
        // d0, d1: daemons in band 0, 10 MB each; e: a daemon in band 30, 10 MB. used 30 MB.
        // 0 s open a (30 MB): used 60, available 40 MB = 20%: not under it.
        // 100 s allocate e 1 MB: used 61, available 39 MB < 40: the reaper looks; d0 and d1 have
        //   been idle 100 s < 300: none taken; it looks again no sooner than 130 s.
        // 299 s allocate e 1 MB: used 62: idle 299 s < 300: none; next look at 329 s.
        // 310 s allocate e 1 MB: used 63; 310 < 329: no look (d0 would be reapable).
        // 330 s free e 1 MB: used 62 > 60: look, d0 and d1 idle 330 s ≥ 300: both die for
        //   long-idle-exit, oldest in the band first (both since 0: workload order), 10 MB each;
        //   e (band 30) and a (foreground) stay. used 42. No jetsam snapshot: idle priority.
        let d0 = ProcessSpec(id: "d0", kind: .daemon, band: 0, resident: 10 * MB)
        let d1 = ProcessSpec(id: "d1", kind: .daemon, band: 0, resident: 10 * MB)
        let e = ProcessSpec(id: "e", kind: .daemon, band: 30, resident: 10 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [d0, d1, e],
                                       duration: 400 * sec,
                                       [(0, .open(0)), (100 * sec, .allocateProcess(2, MB)),
                                        (299 * sec, .allocateProcess(2, MB)), (310 * sec, .allocateProcess(2, MB)),
                                        (330 * sec, .freeProcess(2, MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(ProcessTests.processExits(r) == ["\(330 * sec) d0 longIdleExit daemon 0 10MB",
                                                 "\(330 * sec) d1 longIdleExit daemon 0 10MB"])
        #expect(r.terminations(.longIdleExit) == 2)
        #expect(r.jetsamEvents.isEmpty)
        #expect(r.finalState("a") == .active)
        #expect(r.timeline.usedBytes.last?[1] == 42 * MB)
    }

    @Test("under the idle threshold only band 0 dies (idle-exit); other bands only under the critical base")
    func idleCriticalSplit() {
        // d0: band 0, 10 MB; s: band 30, 10 MB. Kills at the idle threshold: used past 80 MB − 1;
        // in any band: past 90 MB − 1.
        // 0 s open a (30 MB): used 50. 10 s allocate s 25 MB: 75, fits.
        // 20 s allocate s 10 MB: 85 > 80: d0 (band 0) dies for idle-exit (no snapshot): used 65,
        //   then 75; s 45 MB.
        // 30 s allocate s 12 MB: 87 > 80 but nothing is left in band 0, and 87 ≤ 90: it fits
        //   (before xnu-11417 s itself would die here). s 57 MB, used 87.
        // 40 s allocate s 5 MB: 92 > 90: nothing below frees it: s dies for vm-pageshortage,
        //   with its snapshot.
        let d0 = ProcessSpec(id: "d0", kind: .daemon, band: 0, resident: 10 * MB)
        let s = ProcessSpec(id: "s", kind: .daemon, band: 30, resident: 10 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [d0, s], duration: 60 * sec,
                                       [(0, .open(0)), (10 * sec, .allocateProcess(1, 25 * MB)),
                                        (20 * sec, .allocateProcess(1, 10 * MB)), (30 * sec, .allocateProcess(1, 12 * MB)),
                                        (40 * sec, .allocateProcess(1, 5 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(ProcessTests.processExits(r) == ["\(20 * sec) d0 idleExit daemon 0 10MB",
                                                 "\(40 * sec) s memoryPressure daemon 30 57MB"])
        #expect(r.jetsamEvents.map(\.exitReason) == [.memoryPressure])
        #expect(r.finalState("a") == .active)
    }

    @Test("launchd relaunches a killed daemon 10 s later when it fits, and a quick relaunch spares it from the reaper")
    func relaunch() {
        // d: a daemon of band 0 that launchd relaunches, 10 MB; s: band 30, 10 MB. used 20.
        // 0 s open a (30 MB): used 50. 10 s allocate s 35 MB: used 85 > 80: d dies (idle-exit),
        //   used 75. 20 s: launchd's throttle is over, but d (10 MB) would make 85 > 80: it waits.
        // 25 s free s 20 MB: used 55; d fits: relaunched at 25 s (15 s after its death: a low
        //   relaunch probability, which the reaper takes).
        var d = ProcessSpec(id: "d", kind: .daemon, band: 0, resident: 10 * MB)
        d.relaunches = true
        let s = ProcessSpec(id: "s", kind: .daemon, band: 30, resident: 10 * MB)
        let r = simulate(Self.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [d, s], duration: 60 * sec,
                                       [(0, .open(0)), (10 * sec, .allocateProcess(1, 35 * MB)),
                                        (25 * sec, .freeProcess(1, 20 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(ProcessTests.processExits(r) == ["\(10 * sec) d idleExit daemon 0 10MB"])
        let launches = r.events.compactMap { e -> String? in
            guard case .processLaunch(let kind, let band, let bytes) = e.payload else { return nil }
            return "\(e.atUs) \(e.app ?? "-") \(kind.rawValue) \(band) \(bytes / MB)MB"
        }
        #expect(launches == ["\(25 * sec) d daemon 0 10MB"])
        #expect(r.timeline.usedBytes.last?[1] == 65 * MB)
    }
}

/// The foreground band sorted largest first before jetsam walks it (xnu-8792.41.9
/// `memorystatus_sort_bucket_locked`): a large process in the foreground band dies before the
/// smaller foreground app that demands.
@Suite("The foreground band, largest first")
struct ForegroundBandTests {
    @Test("a 40 MB process in band 100 dies before the 20 MB foreground app that asks for more")
    func largerProcessInTheForegroundBandFirst() {
        // xnu-8792 on the test device (critical threshold min(10%, 15%) of 200 MB = 20 MB: a demand
        // fits while used stays within 80 MB − 1). big: band 100, 40 MB. 0 s open a (20 MB): used 60.
        // 10 s allocate a 25 MB: 85 > 80; nothing below band 100; big (40 MB > a's 20 MB) dies
        // (vm-pageshortage): used 20, then 45; a lives with 45 MB.
        let big = ProcessSpec(id: "big", kind: .daemon, band: 100, resident: 40 * MB)
        var a = makeApp("a", footprint: 20 * MB, launch: 500 * ms)
        a.compressionRatio = 1
        let w = Workload(name: "test", durationUs: 60 * sec, device: testDevice(), policy: .xnu, apps: [a],
                         processes: [big],
                         script: [ScriptEntry(atUs: 0, action: .open(0)), ScriptEntry(atUs: 10 * sec, action: .allocate(0, 25 * MB))])
        let r = simulate(w)
        #expect(r.invariantViolations.isEmpty)
        #expect(ProcessTests.processExits(r) == ["\(10 * sec) big memoryPressure daemon 100 40MB"])
        #expect(r.finalState("a") == .active)
        #expect(r.stats("a").peakFootprintBytes == 45 * MB)
    }
}
