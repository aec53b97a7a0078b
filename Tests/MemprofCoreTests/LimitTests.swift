import MemprofCore
import Testing

/// Spec §4, §5: per-process limits (Limits.swift). The test device has 100 MB of app memory, a
/// 100 MB per-app limit unless given, and 16 KB pages. Every expected number is worked out by
/// hand in the comment above it.
@Suite("Per-process limits by kind and state")
struct LimitTests {
    @Test("an app over its inactive limit dies at its next allocation in the background, not at the switch")
    func inactiveLimit() {
        // a: 30 MB, a background task of 1 min, inactive limit 35 MB (active: the device's 100 MB).
        // 5 s allocate 20 MB: 50 MB, active, within 100 MB. 10 s home: a is in the background at
        // 50 MB, over 35 MB, and lives (the ledger checks at the next allocation). 15 s allocate
        // 1 MB: 51 MB > 35 MB: killed, memoryLimit; its report shows the limit, 35 MB = 2240 pages.
        var a = makeApp("a", footprint: 30 * MB, launch: 500 * ms, task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: mins)))
        a.inactiveLimit = 35 * MB
        let r = simulate(makeWorkload([a], [(0, .open(0)), (5 * sec, .allocate(0, 20 * MB)), (10 * sec, .home),
                                           (15 * sec, .allocate(0, 1 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(r.exits("a") == ["\(15 * sec) memoryLimit"])
        #expect(r.jetsamEvents.first?.processes.first { $0.name == "a" }?.rpages == 2240)
    }

    @Test("back in the foreground the active limit applies again")
    func activeAgain() {
        // As above, but a comes back at 12 s (active: 100 MB) and allocates 1 MB at 15 s: 51 MB, lives.
        var a = makeApp("a", footprint: 30 * MB, launch: 500 * ms, task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: mins)))
        a.inactiveLimit = 35 * MB
        let r = simulate(makeWorkload([a], [(0, .open(0)), (5 * sec, .allocate(0, 20 * MB)), (10 * sec, .home),
                                           (12 * sec, .open(0)), (15 * sec, .allocate(0, 1 * MB))]))
        #expect(r.exits("a").isEmpty)
        #expect(r.stats("a").peakFootprintBytes == 51 * MB)
    }

    @Test("the increased-memory-limit entitlement raises the active limit by the published 4.20 / 3.12")
    func entitlement() {
        // appLimit 60 MB: entitled 60 × 420 ÷ 312 = 80 MB (80.77 rounded down to a megabyte).
        // a (entitled) 30 MB + 45 MB = 75 MB: lives; + 6 MB = 81 MB > 80: killed, memoryLimit.
        // b (not) 30 MB + 31 MB = 61 MB > 60: killed.
        let device = testDevice(appLimit: 60 * MB)
        #expect(device.entitledAppLimit == 80 * MB)
        var a = makeApp("a", footprint: 30 * MB, launch: 500 * ms)
        a.increasedMemoryLimit = true
        let r = simulate(makeWorkload([a], device: device, [(0, .open(0)), (5 * sec, .allocate(0, 45 * MB)),
                                                            (10 * sec, .allocate(0, 6 * MB))]))
        #expect(r.exits("a") == ["\(10 * sec) memoryLimit"])
        #expect(r.stats("a").peakFootprintBytes == 75 * MB)
        let b = makeApp("b", footprint: 30 * MB, launch: 500 * ms)
        let rb = simulate(makeWorkload([b], device: device, [(0, .open(0)), (5 * sec, .allocate(0, 31 * MB))]))
        #expect(rb.exits("b") == ["\(5 * sec) memoryLimit"])
    }

    @Test("headroom is against the app's own active limit, and counts what a killed app asked for")
    func headroomAgainstTheAppsLimit() throws {
        // appLimit 60 MB, entitled 80 MB (as above). a (entitled) 30 MB + 45 MB = 75 MB, lives:
        // headroom 75 MB of 80 MB, 5 MB to spare (against the device's 60 MB it would be 15 MB over).
        let device = testDevice(appLimit: 60 * MB)
        var a = makeApp("a", footprint: 30 * MB, launch: 500 * ms)
        a.increasedMemoryLimit = true
        let w = makeWorkload([a], device: device, [(0, .open(0)), (5 * sec, .allocate(0, 45 * MB))])
        let fits = a.limitFits(policy: w.policy, device: device)
        #expect(fits.last?.subject == .footprint && fits.last?.limit == 80 * MB)
        let r = simulate(w)
        let ha = r.stats("a").withHeadroom(of: a, in: w).headroom?.footprint
        #expect(ha?.peakBytes == 75 * MB && ha?.limitBytes == 80 * MB && ha?.spareBytes == 5 * MB)
        // b launches at 70 MB, over the 60 MB limit: killed at launch, having reached nothing.
        // Its headroom counts the 70 MB it asked for: 10 MB over, not 60 MB to spare.
        let b = makeApp("b", footprint: 70 * MB, launch: 500 * ms)
        let wb = makeWorkload([b], device: device, [(0, .open(0))])
        let rb = simulate(wb)
        #expect(rb.exits("b") == ["0 memoryLimit"])
        #expect(rb.stats("b").peakFootprintBytes == 0 && rb.stats("b").killedAskingBytes == 70 * MB)
        let hb = rb.stats("b").withHeadroom(of: b, in: wb).headroom?.footprint
        #expect(hb?.peakBytes == 70 * MB && hb?.limitBytes == 60 * MB && hb?.spareBytes == -10 * MB)
        // An app its limit never killed writes no killedAskingBytes.
        #expect(r.stats("a").killedAskingBytes == nil)
    }

    @Test("a widget extension over its published 30 MB limit is killed for per-process-limit at once")
    func extensionOverItsLimit() {
        // w: widget extension, band 0, 25 MB (limit 30 MB); 5 s allocate 4 MB: 29 MB, lives;
        // 10 s allocate 2 MB: 31 MB > 30 MB: killed, memoryLimit, with plenty of memory free
        // (used 30 + 29 = 59 MB of 100: no pressure). Its report shows 30 MB = 1920 pages.
        let w = ProcessSpec(id: "w", displayName: "WeatherWidget", kind: .extension, band: 0, resident: 25 * MB,
                            extensionPoint: .widget)
        #expect(w.limit == 30 * MB)
        let r = simulate(ProcessTests.workload([makeApp("a", footprint: 30 * MB, launch: 500 * ms)], [w],
                                               [(0, .open(0)), (5 * sec, .allocateProcess(0, 4 * MB)),
                                                (10 * sec, .allocateProcess(0, 2 * MB))]))
        #expect(r.invariantViolations.isEmpty)
        #expect(ProcessTests.processExits(r) == ["\(10 * sec) w memoryLimit extension 0 29MB"])
        #expect(r.terminations(.memoryLimit) == 1)
        let victim = r.jetsamEvents.first?.processes.first { $0.name == "WeatherWidget" }
        #expect(r.jetsamEvents.first?.exitReason == .memoryLimit)
        #expect(victim?.rpages == 1920 && victim?.reason == "per-process-limit")
        #expect(r.finalState("a") == .active)
    }

    @Test("published extension limits")
    func extensionLimits() {
        // The Network Extension providers' are Apple DTS's MiB on the latest iOS its tables cover.
        #expect(ExtensionPoint.allCases.map { $0.memoryLimit / MB } == [30, 60, 120, 24, 50, 15, 50, 50, 15, 24])
        #expect(ExtensionPoint.packetTunnel.memoryLimit(iosMajor: 14) == 15 * MB)
    }
}
