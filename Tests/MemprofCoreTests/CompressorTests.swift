import MemprofCore
import Testing

/// The in-RAM compressor of the `xnu` policy on a phone (spec §5): a suspended app's memory held
/// compressed in a pool that counts against available memory, and the pressure levels and
/// jetsam's limit taken from xnu's thresholds of available memory, per era.
/// Every expected number is worked out by hand in the comment above it.
@Suite("The in-RAM compressor (spec §5 xnu)")
struct CompressorTests {
    /// 400 MB of RAM, 100 MB reserved: 300 MB of app memory, 16 KB pages, no iOS version (the
    /// kernel preset, xnu-8792: 10% idle threshold, 15% pressure threshold, RAM under 3 GB).
    static let device = testDevice(appMemory: 300 * MB)

    @Test("a suspended app's 100 MB at a ratio of 2.5 takes 40 MB of the pool; resuming it demands the other 60 MB")
    func handComputedCompression() {
        // a: 100 MB at ratio 2.5; b: 20 MB. a is opened at 0 s, b at 2 s: a is suspended at 2 s.
        // In the pool: 100 MB ÷ 2.5 = 40 MB (41,943,040 bytes, exactly: 104,857,600 ÷ 2.5).
        // used = a's 40 MB + b's 20 MB = 60 MB, where without the compressor it would be 120 MB.
        // Pages: 100 MB ÷ 16 KB = 6,400 compressed.
        // At 4 s a is opened again: its pages are decompressed (6,400 decompressions), a demand
        // of 100 − 40 = 60 MB; used = 100 + 20 = 120 MB, and b, now suspended, goes into the
        // pool at the default ratio: 20 MB ÷ (257,255 ÷ 96,635) = 20,971,520 × 96,635 ÷ 257,255
        // = 7,877,719.9…, rounded up to 7,877,720 bytes. used = 100 MB + 7,877,720.
        var a = makeApp("a", footprint: 100 * MB)
        a.compressionRatio = 2.5
        let b = makeApp("b", footprint: 20 * MB)
        let two = simulate(makeWorkload([a, b], duration: 3 * sec, device: Self.device, policy: .xnu,
                                        [(0, .open(0)), (2 * sec, .open(1))]))
        #expect(two.timeline.usedBytes.last == [2 * sec, 60 * MB])
        #expect(two.timeline.appBytes["a"]?.last == [2 * sec, 40 * MB])
        #expect(two.summary.compressor?.peakBytes == 40 * MB)
        #expect(two.summary.compressor?.peakUncompressedBytes == 100 * MB)
        #expect(two.summary.compressor?.compressions == 6_400)
        #expect(two.summary.compressor?.decompressions == 0)
        #expect(two.summary.compressor?.ratios.map(\.app) == ["a", "b"])
        #expect(two.summary.compressor?.ratios.map(\.ratio) == [2.5, 257_255.0 / 96_635.0])
        #expect(two.invariantViolations == [])

        let four = simulate(makeWorkload([a, b], duration: 5 * sec, device: Self.device, policy: .xnu,
                                         [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(0))]))
        #expect(four.timeline.usedBytes.last == [4 * sec, 100 * MB + 7_877_720])
        #expect(four.summary.compressor?.decompressions == 6_400)
        // a's 6,400 pages, then b's 20 MB ÷ 16 KB = 1,280.
        #expect(four.summary.compressor?.compressions == 7_680)
        #expect(four.summary.compressor?.endBytes == 7_877_720)
        #expect(four.summary.compressor?.endUncompressedBytes == 20 * MB)
        #expect(four.invariantViolations == [])
    }

    @Test("a jetsam snapshot carries the pool and its counts at the kill; a killed app's pages are not decompressed")
    func snapshotAtTheKill() throws {
        // a: 100 MB, b: 20 MB, both at ratio 2.5. 2 s: b opened, a suspended: 6,400 pages
        // compressed. 4 s: a opened again: its 6,400 pages decompressed; b suspended: 20 MB ÷
        // 2.5 = 8 MB (8,388,608 bytes) in the pool, 1,280 pages compressed (7,680 so far).
        // used = 100 MB + 8 MB = 108 MB. 6 s: a allocates 155 MB: 263 MB, past the 260 MB − 1
        // that fits (the critical threshold, 40 MB of the 400 MB of RAM available), so jetsam
        // kills b, suspended (idle band), and 255 MB fits. The snapshot, taken before the kill:
        // 8,388,608 ÷ 16,384 = 512 pages taken, 20 MB ÷ 16 KB = 1,280 held, 7,680 compressions,
        // 6,400 decompressions. b's pages leave the pool freed, not decompressed: the run ends
        // with 6,400 decompressions and an empty pool.
        var a = makeApp("a", footprint: 100 * MB)
        a.compressionRatio = 2.5
        var b = makeApp("b", footprint: 20 * MB)
        b.compressionRatio = 2.5
        let r = simulate(makeWorkload([a, b], duration: 8 * sec, device: Self.device, policy: .xnu,
                                      [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(0)),
                                       (6 * sec, .allocate(0, 155 * MB))]))
        #expect(r.jetsamEvents.map(\.killed) == ["b"])
        let snapshot = try #require(r.jetsamEvents.first)
        #expect(snapshot.compressor == JetsamEvent.Compressor(pages: 512, uncompressedPages: 1_280, compressions: 7_680,
                                                              decompressions: 6_400))
        #expect(r.summary.compressor?.compressions == 7_680)
        #expect(r.summary.compressor?.decompressions == 6_400)
        #expect(r.summary.compressor?.endBytes == 0)
        // The pool's series: 40 MB at 2 s, 8 MB at 4 s, empty at the kill.
        #expect(r.timeline.compressorBytes == [[0, 0], [2 * sec, 40 * MB], [4 * sec, 8 * MB], [6 * sec, 0]])
        #expect(r.invariantViolations == [])
        // Without the in-RAM compressor the snapshots and the timeline have no pool.
        let seed = simulate(makeWorkload([a, b], duration: 8 * sec, device: Self.device,
                                         [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(0)),
                                          (6 * sec, .allocate(0, 155 * MB))]))
        #expect(seed.jetsamEvents.allSatisfy { $0.compressor == nil })
        #expect(seed.timeline.compressorBytes == nil)
    }

    @Test("seed-2015 and a Mac have no in-RAM compressor")
    func onlyXNUOnAPhone() {
        let apps = [makeApp("a", footprint: 100 * MB), makeApp("b", footprint: 20 * MB)]
        let script: [(Microseconds, ScriptAction)] = [(0, .open(0)), (2 * sec, .open(1))]
        let seed = simulate(makeWorkload(apps, duration: 3 * sec, device: Self.device, script))
        #expect(seed.summary.compressor == nil)
        #expect(seed.timeline.usedBytes.last == [2 * sec, 120 * MB])
        var mac = Self.device
        mac.platform = .macos
        let onMac = simulate(makeWorkload(apps, duration: 3 * sec, device: mac, policy: .xnu, script))
        #expect(onMac.summary.compressor == nil)
    }

    @Test("the pressure levels come from available memory: warning at 15% of RAM, critical at 10%")
    func levelsFromAvailableMemory() {
        // RAM 400 MB, app memory 300 MB. Pressure threshold 15% of 400 MB = 60 MB available, so
        // warning once used ≥ 240 MB; the critical threshold (the idle threshold, 10%) 40 MB
        // available, used ≥ 260 MB, and a demand fits while used stays ≤ 260 MB − 1.
        // a (20 MB) opened at 0 s allocates 219 MB at 2 s: used 239 MB, normal. 1 MB more at
        // 3 s: 240 MB, warning (a memory warning is sent).
        let a = makeApp("a", footprint: 20 * MB)
        let r = simulate(makeWorkload([a], duration: 5 * sec, device: Self.device, policy: .xnu,
                                      [(0, .open(0)), (2 * sec, .allocate(0, 219 * MB)), (3 * sec, .allocate(0, 1 * MB))]))
        #expect(r.timeline.levels.map(\.level) == [.normal, .warning])
        #expect(r.timeline.levels.last?.atUs == 3 * sec)
        #expect(r.summary.memoryWarnings == 1)
        // Growing to 260 MB − 1 fits; 260 MB leaves 40 MB available, at the critical threshold:
        // jetsam has nothing below the foreground app to take, so a is killed for page shortage.
        let fits = simulate(makeWorkload([a], duration: 5 * sec, device: Self.device, policy: .xnu,
                                         [(0, .open(0)), (2 * sec, .allocate(0, 240 * MB - 1))]))
        #expect(fits.summary.terminations["memoryPressure", default: 0] == 0)
        let over = simulate(makeWorkload([a], duration: 5 * sec, device: Self.device, policy: .xnu,
                                         [(0, .open(0)), (2 * sec, .allocate(0, 240 * MB))]))
        #expect(over.summary.terminations["memoryPressure", default: 0] == 1)
    }

    @Test("the thresholds per era and RAM: critical base, idle, pressure")
    func thresholdsPerEra() {
        func thresholds(_ os: String, ram: Bytes) -> [Double] {
            var d = testDevice()
            d.osVersion = os
            d.ram = ram
            let x = XNUSettings.forDevice(d)
            return [x.criticalBaseThreshold, x.idleThreshold, x.pressureThreshold, x.criticalThreshold]
        }
        let gb = Bytes.gigabyte
        // iOS 7–12, any RAM: 5% base, base + 5% idle offset = 10%, 15% pressure.
        for os in ["iOS 7.0", "iOS 8.4", "iOS 12.4"] {
            #expect(thresholds(os, ram: 4 * gb) == [0.05, 0.10, 0.15, 0.10])
        }
        // Up to 3 GB in every era: the same.
        #expect(thresholds("iOS 18.0", ram: 3 * gb) == [0.05, 0.10, 0.15, 0.10])
        // iOS 13 above 3 GB: 4% base, 4% + 5% = 9% idle, (15 / 4) × 4% = 12% pressure.
        #expect(thresholds("iOS 13.0", ram: 4 * gb) == [0.04, 0.09, 0.12, 0.09])
        // iOS 14–16 above 3 GB: 4%, 9%, and 15% of the pages.
        for os in ["iOS 14.2", "iOS 15.0", "iOS 16.1"] {
            #expect(thresholds(os, ram: 4 * gb) == [0.04, 0.09, 0.15, 0.09])
        }
        // iOS 17–18: the table, (3, 6] GB 4% 9% 15%, above 6 GB 4% 8% 12%.
        #expect(thresholds("iOS 17.0", ram: 6 * gb) == [0.04, 0.09, 0.15, 0.09])
        #expect(thresholds("iOS 18.0", ram: 8 * gb) == [0.04, 0.08, 0.12, 0.08])
    }

    @Test("compressed apps let more apps stay: five 60 MB apps fit in 300 MB of app memory")
    func poolKeepsAppsAlive() {
        // Five 60 MB apps opened every 2 s, then the first again. Without the compressor: 300 MB,
        // past the 260 MB − 1 jetsam limit, so the fifth launch evicts one. With it, four
        // suspended apps hold 4 × ⌈62,914,560 ÷ 2.662…⌉ = 4 × 23,633,160 bytes (62,914,560 ×
        // 96,635 ÷ 257,255 = 23,633,159.7…, rounded up) = 94,532,640, plus the fifth's 60 MB
        // (62,914,560): 157,447,200 bytes, nothing evicted.
        let apps = ["a", "b", "c", "d", "e"].map { makeApp($0, footprint: 60 * MB) }
        let r = simulate(makeWorkload(apps, duration: 10 * sec, device: Self.device, policy: .xnu,
                                      (0..<5).map { (Microseconds($0) * 2 * sec, ScriptAction.open($0)) }))
        #expect(r.summary.evictions == 0)
        #expect(r.timeline.usedBytes.last == [8 * sec, 157_447_200])
        #expect(r.invariantViolations == [])
    }
}
