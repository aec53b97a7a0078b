import Foundation
import MemprofSampler

/// What memprof's replacements of the malloc family (CAllocTracker.h) cost:
///
/// 1. on a thread that does not record (all of memprof but the worker running work): ns of CPU
///    per malloc + free pair through memprof's `malloc`/`free` (the process's, found with
///    dlsym(RTLD_DEFAULT)) against glibc's own (dlsym(RTLD_NEXT), past memprof's executable),
///    both called through the same kind of pointer, alternated, medians;
/// 2. while recording: each built-in kernel run on the worker with tracking on and off,
///    alternated: median CPU time of the worker, allocations recorded per run, and CPU ns per
///    recorded allocation.
func allocationHooksBenchmark(rounds: Int) {
    typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    func functions(_ handle: UnsafeMutableRawPointer?) -> (Malloc, Free)? {
        guard let m = dlsym(handle, "malloc"), let f = dlsym(handle, "free") else { return nil }
        return (unsafeBitCast(m, to: Malloc.self), unsafeBitCast(f, to: Free.self))
    }
    guard let glibc = functions(UnsafeMutableRawPointer(bitPattern: -1)),  // RTLD_NEXT
          let memprof = functions(nil)  // RTLD_DEFAULT: what every library in the process calls
    else {
        print("# malloc not found with dlsym")
        return
    }
    let pairs = 20_000_000

    /// ns per malloc + free pair, on this thread's CPU clock.
    func perPair(_ functions: (Malloc, Free)) -> Double {
        var sizes: UInt = 0x9E37_79B9
        var sink: UInt = 0
        let start = threadCPUMicroseconds()
        for _ in 0..<pairs {
            sizes = sizes &* 1_103_515_245 &+ 12345
            let block = functions.0(Int(16 + (sizes >> 8) % 240))
            sink &+= UInt(bitPattern: block)
            functions.1(block)
        }
        let spent = threadCPUMicroseconds() - start
        precondition(sink != 1)
        return Double(spent) * 1000 / Double(pairs)
    }

    print("# 1. not recording: \(pairs) malloc + free pairs of 16-255 bytes, \(rounds) alternated rounds, medians")
    var direct: [Double] = [], replaced: [Double] = []
    for round in 0..<rounds {
        if round % 2 == 0 {
            direct.append(perPair(glibc))
            replaced.append(perPair(memprof))
        } else {
            replaced.append(perPair(memprof))
            direct.append(perPair(glibc))
        }
    }
    print("glibc_ns_per_pair memprof_ns_per_pair extra_ns_per_pair")
    print([format(median(direct), 2), format(median(replaced), 2), format(median(replaced) - median(direct), 2)].joined(separator: " "))

    print("# 2. recording: each kernel on the worker with tracking on and off, \(rounds) alternated rounds, medians of its CPU time")
    print("kernel size_bytes untracked_cpu_ms tracked_cpu_ms overhead_% allocations_per_run cpu_ns_per_allocation")
    for kernel in WorkRegistry.builtIn.map(\.name) {
        let size = calibratedSize(kernel, seconds: 0.2)
        let untracked = SampledWorkPerformer(options: SamplerOptions(rateHz: 0, tracksAllocations: false))
        let tracked = SampledWorkPerformer(options: SamplerOptions(rateHz: 0))
        /// One run's worker CPU time in µs, and the allocations it recorded.
        func cpuOfRun(_ performer: SampledWorkPerformer) -> (cpu: Double, allocations: Int64) {
            let before = performer.makeProfile().handlers.first
            performer.perform(kernel: kernel, sizeBytes: size, app: "bench", handler: "run")
            let after = performer.makeProfile().handlers.first
            return (Double((after?.cpuMicroseconds ?? 0) - (before?.cpuMicroseconds ?? 0)),
                    (after?.allocations?.allocations ?? 0) - (before?.allocations?.allocations ?? 0))
        }
        var off: [Double] = [], on: [Double] = [], counts: [Double] = []
        for round in 0..<rounds {
            if round % 2 == 0 { off.append(cpuOfRun(untracked).cpu) }
            let run = cpuOfRun(tracked)
            on.append(run.cpu)
            counts.append(Double(run.allocations))
            if round % 2 == 1 { off.append(cpuOfRun(untracked).cpu) }
        }
        let allocations = median(counts)
        let extra = median(on) - median(off)
        print([kernel, "\(size)", format(median(off) / 1000, 1), format(median(on) / 1000, 1),
               format(extra / median(off) * 100, 1), format(allocations, 0),
               allocations > 0 ? format(extra * 1000 / allocations, 0) : "-"].joined(separator: " "))
    }
}
