import MemprofCore
import Testing

/// The `xnu` policy's numbers per kernel era (XNUSettings+Eras.swift, spec §5): the iOS version
/// picks the tag, and each difference between eras shows in the bands, the aging or the freezer.
/// Every expected number is worked out by hand in the comment above it.
@Suite("xnu eras (spec §5)")
struct XNUErasTests {
    static func phone(_ os: String, ram: Bytes = 200 * MB) -> Device {
        var d = testDevice()
        d.osVersion = os
        d.ram = ram
        return d
    }

    /// The band of an app in `state` since `since`, at `now`, under `x`, as `[band, since]`.
    static func band(_ x: XNUSettings, _ state: AppState, since: Microseconds, at now: Microseconds,
                     suspendedAt: Microseconds? = nil) -> [Int64] {
        var c = PolicyCandidate(index: 0, state: state, footprint: 10 * MB, lastForegroundUs: 0, isPlayingAudio: false,
                                stateSinceUs: since)
        c.suspendedSinceUs = suspendedAt ?? since
        guard let b = XNUPolicy(xnu: x).band(of: c, nowUs: now) else { return [] }
        return [Int64(b.band), b.sinceUs]
    }

    @Test("the iOS major version picks the kernel's tag; a Mac or a device without a version gets xnu-8792")
    func versionPicksTag() {
        let tags = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 26].map {
            XNUSettings.forDevice(Self.phone("iOS \($0).0")).xnuTag ?? "-"
        }
        #expect(tags == ["xnu-2422.1.72", "xnu-2422.1.72", "xnu-2782.1.97", "xnu-3248.20.55", "xnu-3789.1.32",
                         "xnu-4570.1.46", "xnu-4903.221.2", "xnu-6153.11.26", "xnu-7195.50.7.100.1", "xnu-8019.41.5",
                         "xnu-8792.41.9", "xnu-10002.1.13", "xnu-11215.1.10", "xnu-11417.121.6"])
        #expect(XNUSettings.forDevice(testDevice()) == .kernel)
        var mac = Self.phone("iOS 8.0")
        mac.platform = .macos
        #expect(XNUSettings.forDevice(mac) == .kernel)
        #expect(XNUSettings.kernel.xnuTag == "xnu-8792.41.9")
    }

    @Test("seed-2015's snapshots give a compressed app band 8 where the era has no frozen band, else the era's")
    func reportBandsKeepTheCompressedAppsBand() {
        let bands = [8, 11, 12, 15, 16, 18].map {
            XNUSettings.reportBands(for: Self.phone("iOS \($0).0")).band(.compressed, playingAudio: false)
        }
        #expect(bands == [8, 8, 8, 8, 75, 75])
        // The xnu eras themselves: no frozen band before xnu-4903, so a frozen app keeps band 0.
        #expect(XNUSettings.forDevice(Self.phone("iOS 8.0")).band(.compressed, playingAudio: false) == 0)
        // Every other state as the era gives it.
        for state in AppState.allCases where state != .compressed {
            let device = Self.phone("iOS 8.0")
            #expect(XNUSettings.reportBands(for: device).band(state, playingAudio: true)
                        == XNUSettings.forDevice(device).band(state, playingAudio: true))
        }
    }

    @Test("xnu-2782 and xnu-3248 (iOS 8, 9): no aging band; a suspended app is idle at once")
    func noAgingBeforeLegacyPolicy() {
        for x in [XNUSettings.xnu2782, .xnu3248] {
            #expect(x.agingBand == nil && x.agingUs == 0 && !x.appsAge)
            #expect(Self.band(x, .suspended, since: 10 * sec, at: 10 * sec) == [0, 10 * sec])
        }
    }

    @Test("xnu-3789 to xnu-4903 (iOS 10-12): legacy aging in the idle band for 10 s, which is no band of its own")
    func legacyAgingIsIdle() {
        for x in [XNUSettings.xnu3789, .xnu4570, .xnu4903] {
            #expect(x.agingBand == 0 && x.agingUs == 10 * sec && !x.appsAge)
            // Band 0 since the suspension, not since 10 s later.
            #expect(Self.band(x, .suspended, since: 10 * sec, at: 11 * sec) == [0, 10 * sec])
            #expect(Self.band(x, .suspended, since: 10 * sec, at: 30 * sec) == [0, 10 * sec])
        }
    }

    @Test("xnu-6153 (iOS 13) on: apps age 2 s in AGING_BAND2, 2 on the 0-21 scale, 20 from xnu-8792")
    func agingBand2() {
        #expect(Self.band(.xnu4903, .suspended, since: 10 * sec, at: 11 * sec) == [0, 10 * sec])
        #expect(Self.band(.xnu6153, .suspended, since: 10 * sec, at: 11 * sec) == [2, 10 * sec])
        #expect(Self.band(.xnu6153, .suspended, since: 10 * sec, at: 12 * sec) == [0, 12 * sec])
        #expect(Self.band(.xnu8019, .suspended, since: 10 * sec, at: 11 * sec) == [2, 10 * sec])
        #expect(Self.band(.xnu8792, .suspended, since: 10 * sec, at: 11 * sec) == [20, 10 * sec])
        #expect(Self.band(.xnu11215, .suspended, since: 10 * sec, at: 12 * sec) == [0, 12 * sec])
    }

    @Test("the frozen band appears in xnu-4903 (UI_SUPPORT, 8); before it a frozen app keeps its band")
    func frozenBand() {
        #expect(Self.band(.xnu4570, .compressed, since: 7 * sec, at: 50 * sec) == [0, 7 * sec])
        #expect(Self.band(.xnu4903, .compressed, since: 7 * sec, at: 50 * sec) == [8, 7 * sec])
        #expect(Self.band(.xnu8792, .compressed, since: 7 * sec, at: 50 * sec) == [75, 7 * sec])
        // Frozen at 30 s after being suspended at 7 s: before xnu-4903 it keeps its place in the
        // idle band's queue (the freezer moves no process); from xnu-4903 it joins the frozen band then.
        #expect(Self.band(.xnu2782, .compressed, since: 30 * sec, at: 50 * sec, suspendedAt: 7 * sec) == [0, 7 * sec])
        #expect(Self.band(.xnu4570, .compressed, since: 30 * sec, at: 50 * sec, suspendedAt: 7 * sec) == [0, 7 * sec])
        #expect(Self.band(.xnu4903, .compressed, since: 30 * sec, at: 50 * sec, suspendedAt: 7 * sec) == [8, 30 * sec])
        // Jetsam reports under a policy without bands show the same.
        #expect(XNUSettings.xnu2782.band(.compressed, playingAudio: false) == 0)
        #expect(XNUSettings.xnu4903.band(.compressed, playingAudio: false) == 8)
    }

    @Test("a frozen app is killed before a background app on iOS 11, after it on iOS 12")
    func frozenBandInReclaiming() {
        // a, b 30 MB; b has a 10-minute task. 0 s open a; 5 s open b (a suspended); 6 s freeze a
        // (flash, used 30: b); 10 s open c (50 MB): b leaves with its task (band 3): used 80.
        // 20 s allocate c 30 MB: 110 > 100, need 10 MB.
        // iOS 11: a (frozen, band 0) first: frees no RAM; then b (band 3) frees 30. Both die.
        // iOS 12: b (band 3) before a (band 8): b frees 30 and a stays on flash.
        func run(_ os: String) -> SimulationResult {
            let device = Self.phone(os)
            var policy = PolicySettings.xnu
            policy.xnu = .forDevice(device)
            let task = BackgroundTaskSpec(handler: HandlerSpec(timeUs: 10 * mins), endsOnExpiration: true)
            let apps = [makeApp("a", footprint: 30 * MB, launch: 500 * ms),
                        makeApp("b", footprint: 30 * MB, launch: 500 * ms, task: task),
                        makeApp("c", footprint: 50 * MB, launch: 500 * ms)]
            return simulate(XNUPolicyTests.plain(apps, device: device, policy: policy,
                                         [(0, .open(0)), (5 * sec, .open(1)), (6 * sec, .freeze(0)),
                                          (10 * sec, .open(2)), (20 * sec, .allocate(2, 30 * MB))]))
        }
        let ios11 = run("iOS 11.4.1")
        #expect(ios11.invariantViolations.isEmpty)
        #expect(XNUPolicyTests.bands(ios11.reclaims.first) == ["a 0*", "b 3*"])
        #expect(ios11.finalState("a") == .notRunning)
        let ios12 = run("iOS 12.1")
        #expect(ios12.invariantViolations.isEmpty)
        #expect(XNUPolicyTests.bands(ios12.reclaims.first) == ["b 3*", "a 8"])
        #expect(ios12.finalState("a") == .compressed)
    }

    @Test("freezer candidates: every band before xnu-4903, the idle band only to xnu-7195, up to AGING_BAND2 from xnu-8019")
    func freezerCandidateBand() {
        // Five suspended 10 MB apps, one of them (index 0) in band 2; 60 MB available of 200 MB RAM
        // (under 50%): the freezer runs. It takes the lowest band first, so a band-2 app is only
        // chosen when it is the only candidate: four are made too small (under 8 MB, or 1 MB).
        func next(_ x: XNUSettings) -> Int? {
            var apps = (0..<5).map {
                PolicyCandidate(index: $0, state: .suspended, footprint: 500 * KB, lastForegroundUs: 0,
                                isPlayingAudio: false, stateSinceUs: 0, band: 0, bandSinceUs: 0)
            }
            apps[0].band = 2
            apps[0].footprint = 10 * MB
            let memory = MemoryView(ram: 200 * MB, availableBytes: 60 * MB, compressedUsed: 0, flash: 64 * MB)
            let policy = XNUPolicy(xnu: x)
            return policy.freezerRuns(apps, memory: memory) ? policy.nextToFreeze(apps, memory: memory)?.index : nil
        }
        #expect(XNUSettings.xnu4570.freezeMaxCandidateBand == nil)
        #expect(next(.xnu4570) == 0)
        #expect(next(.xnu4903) == nil)
        #expect(next(.xnu7195) == nil)
        #expect(next(.xnu8019) == 0)
        #expect(next(.xnu8792) == 0)
    }

    @Test("at most 20 frozen apps from xnu-4903; no limit before; 1 MB minimum before, 8 MB from it")
    func frozenProcessesMax() {
        // 20 frozen, 5 suspended 10 MB idle apps, memory under the threshold.
        func next(_ x: XNUSettings) -> Int? {
            let frozen = (0..<20).map {
                PolicyCandidate(index: $0, state: .compressed, footprint: 10 * MB, lastForegroundUs: 0, isPlayingAudio: false,
                                band: 0)
            }
            let suspended = (20..<25).map {
                PolicyCandidate(index: $0, state: .suspended, footprint: 10 * MB, lastForegroundUs: 0, isPlayingAudio: false,
                                band: 0)
            }
            let memory = MemoryView(ram: 200 * MB, availableBytes: 60 * MB, compressedUsed: 0, flash: 1024 * MB)
            let policy = XNUPolicy(xnu: x), apps = frozen + suspended
            return policy.freezerRuns(apps, memory: memory) ? policy.nextToFreeze(apps, memory: memory)?.index : nil
        }
        #expect(next(.xnu4570) == 20)
        #expect(next(.xnu4903) == nil)
        #expect(XNUSettings.xnu4570.freezeMinFootprint == 1 * MB)
        #expect(XNUSettings.xnu4903.freezeMinFootprint == 8 * MB)
    }

    @Test("the pressure level of the highwater pass: 15% of RAM, 12% above 6 GB from xnu-10002")
    func pressureThreshold() {
        #expect(XNUSettings.forDevice(Self.phone("iOS 16.0", ram: 8 * 1024 * MB)).pressureThreshold == 0.15)
        #expect(XNUSettings.forDevice(Self.phone("iOS 17.0", ram: 8 * 1024 * MB)).pressureThreshold == 0.12)
        #expect(XNUSettings.forDevice(Self.phone("iOS 17.0", ram: 6 * 1024 * MB)).pressureThreshold == 0.15)
    }
}
