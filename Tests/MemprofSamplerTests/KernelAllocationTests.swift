import Foundation
import MemprofCore
import MemprofPlatform
import MemprofProfile
@testable import MemprofSampler
import Testing


/// Registered work with allocations known to the byte, made with the C library's malloc so the
/// sizes are exactly the ones asked for: 32 blocks of 256 KiB (8 MiB) held, a quarter of them
/// freed after 1,024 pieces of 1 KiB are allocated and kept.
enum KnownAllocations {
    static let blockBytes = 256 << 10
    static let blockCount = 32
    static let pieceBytes = 1024
    static let pieceCount = 1024

    /// Room for the pointers, made before the work runs so that making it is not recorded.
    nonisolated(unsafe) static let blocks = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: blockCount)
    nonisolated(unsafe) static let pieces = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: pieceCount)

    @inline(never)
    static func holdBlocks() {
        for i in 0..<blockCount { blocks[i] = malloc(blockBytes) }
    }

    @inline(never)
    static func keepPieces() {
        for i in 0..<pieceCount { pieces[i] = malloc(pieceBytes) }
    }

    @inline(never)
    static func releaseQuarter() {
        for i in 0..<blockCount / 4 { free(blocks[i]) }
    }

    static func run() {
        holdBlocks()
        keepPieces()
        releaseQuarter()
    }

    /// Gives back what the work kept (outside any recording).
    static func cleanUp() {
        for i in blockCount / 4..<blockCount { free(blocks[i]) }
        for i in 0..<pieceCount { free(pieces[i]) }
    }
}

/// The built-in kernels and registered work get the same allocation tracking as programs
/// (spec §8.1), in memprof's own process (CAllocTracker.h).
@Suite(.serialized) struct KernelAllocationTests {
    static let mebibyte: Int64 = 1 << 20

    /// The allocation stacks of the only handler whose innermost frame is `function`.
    func sites(_ profile: SamplingProfile, _ function: String) -> [AllocationStack] {
        (profile.handlers.first?.allocations?.stacks ?? []).filter { stack in
            profile.frames(of: stack).last?.name.contains("KnownAllocations.\(function)") == true
        }
    }

    @Test func memprofsMallocIsTheOneTheProcessCalls() {
        #expect(AllocationTracker.hooksActive)
    }

    @Test(arguments: [0.0, 997.0])
    func registeredWorksAllocationsAreReportedToTheByteAtTheirStacks(rateHz: Double) throws {
        WorkRegistry.register(name: "known-allocations") { _ in KnownAllocations.run() }
        defer {
            WorkRegistry.unregister(name: "known-allocations")
            KnownAllocations.cleanUp()
        }
        var performer = SampledWorkPerformer(rateHz: rateHz)
        _ = performer.perform(WorkSpec(kernel: "known-allocations", sizeBytes: 0), app: "mail", handler: .fetch)
        let profile = performer.makeProfile()
        let allocations = try #require(profile.handlers.first?.allocations)

        let held = sites(profile, "holdBlocks")
        #expect(held.count == 1)
        #expect(held.map(\.allocatedBytes).reduce(0, +) == 8 * Self.mebibyte)
        #expect(held.map(\.allocations).reduce(0, +) == 32)
        #expect(held.map(\.peakBytes).reduce(0, +) == 8 * Self.mebibyte)  // all held when the total peaked
        #expect(held.map(\.leakedBytes).reduce(0, +) == 6 * Self.mebibyte)
        #expect(held.map(\.leakedBlocks).reduce(0, +) == 24)

        let kept = sites(profile, "keepPieces")
        #expect(kept.map(\.allocatedBytes).reduce(0, +) == Self.mebibyte)
        #expect(kept.map(\.allocations).reduce(0, +) == 1024)
        #expect(kept.map(\.peakBytes).reduce(0, +) == Self.mebibyte)
        #expect(kept.map(\.leakedBytes).reduce(0, +) == Self.mebibyte)

        // Totals hold the known bytes (and whatever else the closure did: nothing of size here).
        #expect(allocations.allocatedBytes >= 9 * Self.mebibyte && allocations.allocatedBytes < 9 * Self.mebibyte + 65536)
        #expect(allocations.peakBytes >= 9 * Self.mebibyte && allocations.peakBytes < 9 * Self.mebibyte + 65536)
        #expect(allocations.leakedBytes >= 7 * Self.mebibyte && allocations.leakedBytes < 7 * Self.mebibyte + 65536)

        // The stack is the work's, from the caller of malloc out to memprof's worker.
        let frames = profile.frames(of: try #require(held.first)).map(\.name)
        #expect(!frames.contains { $0 == "malloc" || $0.contains("record") })
        #expect(frames.contains { $0.contains("KnownAllocations.run") })
        #expect(frames.contains { HarnessFrames.isHarness($0) })

        // Every output form carries them: folded per type without memprof's own frames, pprof's sample types.
        let files = profile.mappingStacks(HarnessFrames.work)
        let allocated = files.makeFoldedStacks(of: .allocatedBytes)
        let line = try #require(allocated.split(separator: "\n").first { $0.contains("KnownAllocations.holdBlocks") })
        #expect(line.hasSuffix(" \(8 << 20)"))
        #expect(!line.contains("WorkerThread"))
        let peak = files.makeFoldedStacks(of: .peakBytes)
        #expect(peak.split(separator: "\n").contains { $0.contains("KnownAllocations.holdBlocks") && $0.hasSuffix(" \(8 << 20)") })
        let pprof = profile.makePProfProto()
        for type in ["alloc_space", "alloc_objects", "inuse_space"] {
            #expect(pprof.range(of: Data(type.utf8)) != nil)
        }
    }

    @Test func otherThreadsAreNotRecorded() throws {
        WorkRegistry.register(name: "other-thread") { _ in
            // Allocations of another thread while the work runs are not the work's.
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let block = malloc(4 << 20)
                free(block)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        defer { WorkRegistry.unregister(name: "other-thread") }
        var performer = SampledWorkPerformer(rateHz: 0)
        _ = performer.perform(WorkSpec(kernel: "other-thread", sizeBytes: 0), app: "mail", handler: .fetch)
        let allocations = try #require(performer.makeProfile().handlers.first?.allocations)
        #expect(allocations.peakBytes < 1 << 20)
    }

    /// (checksum allocates its buffer once per process, and nothing at all in a release build.)
    @Test(arguments: ["compress", "json", "sort"])
    func builtInKernelsAreTracked(kernel: String) throws {
        var performer = SampledWorkPerformer(rateHz: 0)
        _ = performer.perform(WorkSpec(kernel: kernel, sizeBytes: 1 << 20), app: "mail", handler: .fetch)
        let profile = performer.makeProfile()
        let allocations = try #require(profile.handlers.first?.allocations)
        #expect(allocations.allocations > 0 && allocations.allocatedBytes > 0 && allocations.peakBytes > 0)
        // Most of what a kernel allocates is allocated inside the kernel's own functions.
        let chain = try #require(WorkRegistry.kernel(named: kernel)?.expectedChain.first)
        let inKernel = allocations.stacks.filter { profile.frames(of: $0).contains { $0.name.contains(chain) } }
        #expect(inKernel.map(\.allocatedBytes).reduce(0, +) * 2 > allocations.allocatedBytes)
    }
}
