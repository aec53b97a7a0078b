// Measures the sampler's overhead: one kernel run alternately sampled and not sampled in one
// process, at several rates. Also runs a kernel plainly (for perf and gperftools to profile from
// outside) and prints a sampled run's folded stacks. scripts/bench-sampler.sh drives it.
//
//   memprof-bench-sampler overhead [--kernel K] [--rates 100,1000,4000] [--rounds N] [--seconds S]
//   memprof-bench-sampler plain --kernel K --size BYTES
//   memprof-bench-sampler folded [--kernel K] [--rate HZ] [--size BYTES]
//   memprof-bench-sampler alloc-hooks [--rounds N]   (what allocation tracking costs, CAllocTracker.h)
import Foundation
import MemprofProfile
import MemprofSampler

struct Arguments {
    var command = "overhead"
    var kernel = "checksum"
    var rates: [Double] = [100, 1000, 4000]
    var rounds = 9
    var seconds = 0.4
    var size: Int64 = 0
    var rate = SamplerOptions.defaultRateHz

    init(_ list: [String]) {
        var list = list[...]
        if let first = list.first, !first.hasPrefix("--") { command = first; list = list.dropFirst() }
        while let flag = list.popFirst() {
            let value = list.popFirst() ?? ""
            switch flag {
            case "--kernel": kernel = value
            case "--rates": rates = value.split(separator: ",").compactMap { Double($0) }
            case "--rounds": rounds = Int(value) ?? rounds
            case "--seconds": seconds = Double(value) ?? seconds
            case "--size": size = Int64(value) ?? size
            case "--rate": rate = Double(value) ?? rate
            default: fatalError("unknown flag \(flag)")
            }
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// CPU time of the calling thread (the signal handler's time and the kernel's delivery of the
/// signal are charged to it), in microseconds.
func threadCPUMicroseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
}

func format(_ value: Double, _ places: Int = 2) -> String { String(format: "%.\(places)f", value) }

/// Size of the kernel that takes about `seconds` on the worker.
func calibratedSize(_ kernel: String, seconds: Double) -> Int64 {
    let plain = SampledWorkPerformer(options: SamplerOptions(rateHz: 0, tracksAllocations: false))
    var size: Int64 = 1 << 20
    while true {
        let micros = plain.perform(kernel: kernel, sizeBytes: size, app: "bench", handler: "calibrate")
        if micros > 50_000 || size > 1 << 40 {
            return max(1, Int64(Double(size) * seconds * 1e6 / Double(max(micros, 1))))
        }
        size *= 4
    }
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
guard let kernel = WorkRegistry.kernel(named: arguments.kernel) else {
    FileHandle.standardError.write("unknown kernel \(arguments.kernel); known: \(WorkRegistry.names)\n".data(using: .utf8)!)
    exit(2)
}

switch arguments.command {
case "plain":
    let size = arguments.size > 0 ? arguments.size : 256 << 20
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUMicroseconds()
    kernel.run(size)
    let cpu = threadCPUMicroseconds() - cpuStart
    let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1000
    print("wall_us \(micros)")
    print("cpu_us \(cpu)")

case "folded":
    let performer = SampledWorkPerformer(rateHz: arguments.rate)
    performer.perform(kernel: arguments.kernel, sizeBytes: arguments.size > 0 ? arguments.size : 64 << 20,
                      app: "bench", handler: "fetch")
    let profile = performer.makeProfile()
    print(profile.makeFoldedStacks(), terminator: "")
    FileHandle.standardError.write("\(profile.sampler)\n".data(using: .utf8)!)

case "alloc-hooks":
    allocationHooksBenchmark(rounds: arguments.rounds)

default:
    let size = calibratedSize(arguments.kernel, seconds: arguments.seconds)
    print("# kernel \(arguments.kernel), \(size) bytes per run (~\(arguments.seconds) s), \(arguments.rounds) alternated pairs per rate")
    print("# overhead = (sampled - unsampled) / unsampled, on the worker's CPU time and on wall time; medians")
    print("# reported_* = what the profile itself says (its calibrated cost per sample x samples / wall time)")
    print("rate_hz achieved_hz cpu_overhead_% wall_overhead_% cpu_ns_per_sample reported_overhead_% reported_ns_per_sample handler_ns_per_sample samples dropped")
    // Allocation tracking off on both sides: this measures sampling alone (see alloc-hooks).
    let plain = SampledWorkPerformer(options: SamplerOptions(rateHz: 0, tracksAllocations: false))
    _ = plain.perform(kernel: arguments.kernel, sizeBytes: size, app: "bench", handler: "warm")
    /// Runs once and returns (wall µs, CPU µs) of that run.
    func timedRun(_ performer: SampledWorkPerformer, handler: String) -> (wall: Double, cpu: Double) {
        let before = performer.makeProfile().handlers.first { $0.handler == handler }
        _ = performer.perform(kernel: arguments.kernel, sizeBytes: size, app: "bench", handler: handler)
        let after = performer.makeProfile().handlers.first { $0.handler == handler }!
        return (Double(after.wallMicroseconds - (before?.wallMicroseconds ?? 0)),
                Double(after.cpuMicroseconds - (before?.cpuMicroseconds ?? 0)))
    }
    for rate in arguments.rates {
        let sampled = SampledWorkPerformer(options: SamplerOptions(rateHz: rate, tracksAllocations: false))
        var cpuOverheads: [Double] = []
        var wallOverheads: [Double] = []
        var perSample: [Double] = []
        var seen = 0
        for round in 0..<arguments.rounds {
            // Alternate which goes first so drift in the machine does not favour one side.
            var base = (wall: 0.0, cpu: 0.0)
            var with = (wall: 0.0, cpu: 0.0)
            if round % 2 == 0 {
                base = timedRun(plain, handler: "plain")
                with = timedRun(sampled, handler: "sampled")
            } else {
                with = timedRun(sampled, handler: "sampled")
                base = timedRun(plain, handler: "plain")
            }
            let summary = sampled.makeProfile().sampler
            let samples = summary.samples + summary.droppedSamples - seen
            seen += samples
            cpuOverheads.append((with.cpu - base.cpu) / base.cpu * 100)
            wallOverheads.append((with.wall - base.wall) / base.wall * 100)
            if samples > 0 { perSample.append((with.cpu - base.cpu) * 1000 / Double(samples)) }
        }
        let summary = sampled.makeProfile().sampler
        print(
            [format(rate, 0), format(summary.achievedRateHz, 1), format(median(cpuOverheads), 2),
             format(median(wallOverheads), 2), format(median(perSample), 0),
             format(summary.overheadPercent, 2), format(summary.costPerSampleNanoseconds, 0),
             format(summary.handlerNanosecondsPerSample, 0),
             "\(summary.samples)", "\(summary.droppedSamples)"]
                .joined(separator: " "))
    }
}
