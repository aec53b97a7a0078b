/// The in-RAM compressor of the `xnu` policy on a phone (spec §5): a suspended app's memory is
/// held compressed in RAM, in a pool that counts against available memory, and the pressure
/// level and jetsam's threshold come from available memory as xnu computes them.
///
/// Every kernel era the `xnu` policy has (iOS 7 and after) has the compressor: it arrived with
/// xnu-2422 (osfmk/vm/vm_compressor.c is new at xnu-2422.1.72, absent at xnu-2050.48.11), and
/// published reports of every iOS version from 10 to 18 show its pool (`compressorSize`,
/// `uncompressed`: Tests/MemprofFieldTests/Fixtures/corpus).
///
/// Model choices (the model-choices article says why):
/// - An app's whole footprint is compressible: iOS counts in it what the app has dirtied
///   (`phys_footprint`: anonymous memory, compressed or not, and what IOKit maps for it), not
///   its clean file-backed pages, which the kernel drops instead of compressing.
/// - It compresses when the app is suspended, all at once, at the app's ratio
///   (``AppSpec/compressorRatio``), and decompresses when the app runs again (a resume or a
///   wake into the background), as a demand for the difference.
/// - A frozen app's pages leave the pool for flash; a killed app's are freed. A frozen app read
///   back decompresses what it reads, page by page.
///
/// Triggers: `setState` of any app while `compressesInRAM` (`movePages`), `setFootprint` of a
/// pooled app (`repool`), a resume or wake of a pooled app (`decompressionFits`).
extension Simulator {
    /// The pool's bytes holding `footprint` at `ratio`, rounded up.
    static func poolBytes(_ footprint: Bytes, ratio: Double) -> Bytes {
        Bytes((Double(footprint) / ratio).rounded(.up))
    }

    /// Pages of `bytes`, rounded up (the compressor counts pages).
    func pages(_ bytes: Bytes) -> Int64 {
        (bytes + workload.device.pageSize - 1) / workload.device.pageSize
    }

    /// Moves app `i`'s memory into the pool when it has just been suspended, and out of it when it
    /// leaves `suspended`: decompressed when it runs again, to flash when frozen, freed when
    /// killed. Called by `setState` with the app's new state set; `used` follows from
    /// `residentBytes`. O(1).
    mutating func movePages(_ i: Int, from old: AppState) {
        let state = apps[i].state
        if state == .suspended, !apps[i].pooled {
            let footprint = apps[i].footprint
            let held = Self.poolBytes(footprint, ratio: apps[i].spec.compressorRatio)
            apps[i].pooled = true
            apps[i].pooledBytes = held
            pool.add(held, uncompressed: footprint, pages: pages(footprint))
        } else if state != .suspended, apps[i].pooled {
            let footprint = apps[i].footprint
            pool.remove(apps[i].pooledBytes, uncompressed: footprint,
                        decompressedPages: state.runsCode ? pages(footprint) : 0)
            apps[i].pooled = false
            apps[i].pooledBytes = 0
        }
    }

    /// Pooled app `i`'s footprint has changed from `oldFootprint`: the pool holds the new one.
    /// Returns the change of its resident bytes.
    mutating func repool(_ i: Int, from oldFootprint: Bytes) -> Bytes {
        let held = Self.poolBytes(apps[i].footprint, ratio: apps[i].spec.compressorRatio)
        let delta = held - apps[i].pooledBytes
        pool.remove(apps[i].pooledBytes, uncompressed: oldFootprint, decompressedPages: 0)
        pool.add(held, uncompressed: apps[i].footprint, pages: 0)
        apps[i].pooledBytes = held
        return delta
    }

    /// Whether the pool holds more pages than ``CompressorLimits/nearingLimitPages``: xnu's
    /// `vm_compressor_low_on_space`. False without the in-RAM compressor. O(1).
    var poolLowOnSpace: Bool {
        compressesInRAM && pages(pool.uncompressedBytes) > poolNearingLimitPages
    }

    /// The pool is low on space in an era that kills for it (``XNUSettings/compressorSpaceKills``):
    /// jetsam kills up the bands, in its order, for `vm-compressor-space-shortage` until the pool
    /// is no longer low (`memorystatus_kill_on_VM_compressor_space_shortage`, and the kill of the
    /// top process with `kMemorystatusKilledVMCompressorSpaceShortage`, xnu-11417.121.6
    /// bsd/kern/kern_memorystatus.c:9772-9778). memprof stops below the foreground band, as its
    /// other kills for a demand do; apps and idle daemons hold the pool's pages.
    mutating func killForCompressorSpace() {
        for c in policy.reclaimOrder(reclaimCandidates(except: nil, process: nil)) {
            guard poolLowOnSpace else { return }
            if let k = c.process {
                killProcess(k, .compressorSpaceShortage)
                continue
            }
            let evicted = apps[c.index].state == .suspended || apps[c.index].state == .compressed
            if evicted {
                summary.evictions += 1
                apps[c.index].stats.evictions += 1
                record(.eviction(bytes: c.footprint), c.index)
            }
            kill(c.index, .compressorSpaceShortage, requested: nil, evicted: evicted)
        }
    }

    /// Before pooled app `i` runs again: its memory, decompressed, is a demand of what it holds
    /// beyond its share of the pool. Returns false when the demand killed it (true when nothing
    /// of it is pooled).
    mutating func decompressionFits(_ i: Int) -> Bool {
        guard apps[i].pooled else { return true }
        return demand(i, apps[i].footprint - apps[i].pooledBytes)
    }
}

/// The in-RAM compressor's pool over a run: what it holds and how often pages went in and out.
struct CompressorPool {
    /// RAM the pool takes (compressed bytes), and the bytes it holds counted uncompressed.
    var bytes: Bytes = 0
    var uncompressedBytes: Bytes = 0
    var peakBytes: Bytes = 0
    var peakUncompressedBytes: Bytes = 0
    /// Pages compressed into the pool, and decompressed out of it or read back from flash into a
    /// thawed app (a frozen or killed app's pages leave the pool without being decompressed).
    var compressions: Int64 = 0
    var decompressions: Int64 = 0

    mutating func add(_ held: Bytes, uncompressed: Bytes, pages: Int64) {
        bytes += held
        uncompressedBytes += uncompressed
        compressions += pages
        if bytes > peakBytes {
            peakBytes = bytes
            peakUncompressedBytes = uncompressedBytes
        }
    }

    mutating func remove(_ held: Bytes, uncompressed: Bytes, decompressedPages: Int64) {
        bytes -= held
        uncompressedBytes -= uncompressed
        decompressions += decompressedPages
    }

    /// The pool and its counters now, in pages of `pageSize`, as a jetsam snapshot takes them: the
    /// pages it takes and those it holds, each rounded up (a page partly filled is taken whole),
    /// and the pages compressed and decompressed so far.
    func counters(pageSize: Bytes) -> JetsamEvent.Compressor {
        JetsamEvent.Compressor(pages: (bytes + pageSize - 1) / pageSize,
                               uncompressedPages: (uncompressedBytes + pageSize - 1) / pageSize,
                               compressions: compressions, decompressions: decompressions)
    }

    var summary: CompressorSummary {
        var s = CompressorSummary()
        s.peakBytes = peakBytes
        s.peakUncompressedBytes = peakUncompressedBytes
        s.endBytes = bytes
        s.endUncompressedBytes = uncompressedBytes
        s.compressions = compressions
        s.decompressions = decompressions
        return s
    }
}
