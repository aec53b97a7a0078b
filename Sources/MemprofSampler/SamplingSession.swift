import CSampler
import Dispatch
import Foundation
import MemprofCore
import MemprofProfile
import Synchronization

/// The shared state behind a ``SampledWorkPerformer``: the worker, raw stacks by tag, counters.
final class SamplingSession: @unchecked Sendable {
    private struct Handler: Hashable {
        var app: String
        var handler: String
    }

    private struct Accumulated {
        var kernels: [String] = []
        var runs = 0
        var sizeBytes: Int64 = 0
        var wallNanoseconds: UInt64 = 0
        var cpuNanoseconds: UInt64 = 0
        var dropped = 0
        var stacks: [[UInt]: Int] = [:]
        /// Samples of programs, already symbolicated (their addresses belong to a process now gone).
        var programStacks: [[Frame]: Int] = [:]
        var allocations: SamplingProfile.AllocationInput?
        var program: ProgramSummary?
    }

    private final class RunResult: @unchecked Sendable {
        var startNanoseconds: UInt64 = 0
        var wallNanoseconds: UInt64 = 0
        var cpuNanoseconds: UInt64 = 0
        var sampleCost: Double?
        var failure: String?
        var trackingFailed = false
    }

    let options: SamplerOptions
    private let worker = WorkerThread()
    private let lock = Mutex(())
    private var handlers: [Handler] = []  // tag = index + 1
    /// Every run of work, in order.
    private var runs: [WorkRun] = []
    /// Per run of a kernel (by index into `runs`): its handler's tag and, per stack, samples by
    /// step of the run's wall time (``SampleTime/binsPerRun`` steps), to be placed in simulated
    /// time once the simulation says where the run lies.
    private var runBins: [Int: (tag: UInt32, stacks: [[UInt]: [Int: Int]])] = [:]
    /// The run the next ``placeLastRun(startUs:durationUs:)`` is about; nil when the last work did not run.
    private var lastRun: Int?
    private var accumulated: [UInt32: Accumulated] = [:]
    private var ticks = 0, recorded = 0, dropped = 0, overruns = 0, truncated = 0
    private var handlerNanoseconds: UInt64 = 0
    private var armedNanoseconds: UInt64 = 0
    /// The time of the clocks the timers counted: a kernel's wall time while its timer was
    /// armed, a program's CPU time (its threads' timers count only while they run).
    private var clockNanoseconds: UInt64 = 0
    private var sampleCost: Double?
    private var samplingFailure: String?
    private var trackingFailure: String?
    /// Runs of kernels (sampled on the worker's clock) and of programs (on their process CPU clock).
    private var kernelRuns = 0, programRuns = 0
    private var notes: [String] = []
    private let symbolicator = Symbolicator()

    init(options: SamplerOptions) {
        self.options = options
    }

    deinit { worker.stop() }

    func perform(kernel name: String, sizeBytes: Int64, app: String, handler: String) -> Int64 {
        lock.withLock { _ in performLocked(kernel: name, sizeBytes: sizeBytes, app: app, handler: handler) }
    }

    /// Places the last run of work in simulated time (see ``WorkPerformer/placeLastRun(startUs:durationUs:)``).
    func placeLastRun(startUs: Int64, durationUs: Int64) {
        lock.withLock { _ in
            guard let index = lastRun, runs.indices.contains(index) else { return }
            runs[index].startUs = startUs
            runs[index].durationUs = max(durationUs, 0)
            lastRun = nil
        }
    }

    private func performLocked(kernel name: String, sizeBytes: Int64, app: String, handler: String) -> Int64 {
        lastRun = nil
        guard let kernel = WorkRegistry.kernel(named: name) else {
            note("work kernel \"\(name)\" of \(app) \(handler) is not registered; it did not run")
            return 0
        }
        let tag = tag(for: Handler(app: app, handler: handler))
        var sampler: StackSampler?
        if options.rateHz > 0, samplingFailure == nil {
            do {
                sampler = try StackSampler.open(bufferCapacity: options.bufferCapacity)
            } catch {
                samplingFailure = "\(error)"
                note("sampling is off: \(error)")
            }
        }

        // The worker's allocations while the work runs (CAllocTracker.h), sampled or not.
        var tracker: AllocationTracker?
        if options.tracksAllocations, trackingFailure == nil {
            do {
                tracker = try AllocationTracker()
            } catch {
                trackingFailure = "\(error)"
                note("allocations of kernels are not tracked: \(error)")
            }
        }

        let result = RunResult()
        let done = DispatchSemaphore(value: 0)
        let rate = options.rateHz
        let calibrate = sampleCost == nil
        worker.submit { [sampler, tracker] in
            StackSampler.prepareCurrentThread()
            if let sampler, calibrate { result.sampleCost = sampler.measureSampleCost() }
            let cpuStart = csampler_thread_cpu_ns()
            var armed = false
            if let sampler {
                do {
                    try sampler.start(rateHz: rate, tag: tag)
                    armed = true
                } catch {
                    result.failure = "\(error)"
                }
            }
            let tracking = tracker?.begin() ?? false
            let start = csampler_monotonic_ns()
            kernel.run(sizeBytes)
            let end = csampler_monotonic_ns()
            if tracking { AllocationTracker.end() }
            if tracker != nil && !tracking { result.trackingFailed = true }
            if armed { sampler?.stop() }
            result.startNanoseconds = start
            result.wallNanoseconds = end - start
            result.cpuNanoseconds = csampler_thread_cpu_ns() - cpuStart
            done.signal()
        }

        var entry = accumulated[tag] ?? Accumulated()
        let recordedBefore = entry.stacks.values.reduce(0, +)
        // The sampler's buffer is drained every `drainInterval`; a tracked worker waits when its
        // ring is full, so the ring is drained every millisecond while it runs.
        let drainEvery = UInt64(options.drainInterval * 1e9)
        let interval = DispatchTimeInterval.microseconds(Int(min(options.drainInterval, tracker == nil ? 1e3 : 1e-3) * 1e6))
        var drained = DispatchTime.now().uptimeNanoseconds
        // This run's samples with their times, binned by fraction of its wall time once it ended.
        var timed: [(addresses: [UInt], time: UInt64)] = []
        let collect: (StackSampler.RawSample) -> Void = { sample in
            entry.stacks[sample.addresses, default: 0] += 1
            timed.append((sample.addresses, sample.timeNanoseconds))
            if sample.truncated { self.truncated += 1 }
        }
        while done.wait(timeout: .now() + interval) == .timedOut {
            tracker?.drain()
            if DispatchTime.now().uptimeNanoseconds - drained >= drainEvery {
                sampler?.drain(collect)
                drained = DispatchTime.now().uptimeNanoseconds
            }
        }
        if let tracker {
            if result.trackingFailed {
                trackingFailure = "memprof's malloc is not the one this process calls"
                note("allocations of kernels are not tracked: \(trackingFailure!)")
            } else {
                let (totals, stacks) = tracker.finish()
                entry.allocations = SamplingProfile.merge(entry.allocations, Self.allocationInput(totals, stacks) { addresses in
                    addresses.map { symbolicator.frame(for: $0, isReturnAddress: true) }.reversed()
                })
            }
        }
        if let sampler {
            sampler.drain(collect)
            let stats = sampler.statistics
            sampler.close()
            ticks += stats.ticks
            recorded += stats.recorded
            dropped += stats.dropped
            overruns += stats.overruns
            handlerNanoseconds += stats.handlerNanoseconds
            armedNanoseconds += result.wallNanoseconds
            clockNanoseconds += result.wallNanoseconds
            entry.dropped += stats.dropped
        }
        if let cost = result.sampleCost { sampleCost = cost }
        if let failure = result.failure { note("sampling failed: \(failure)") }
        if !entry.kernels.contains(name) { entry.kernels.append(name) }
        entry.runs += 1
        kernelRuns += 1
        entry.sizeBytes += sizeBytes
        entry.wallNanoseconds += result.wallNanoseconds
        entry.cpuNanoseconds += result.cpuNanoseconds
        accumulated[tag] = entry
        runs.append(WorkRun(app: app, handler: handler, kernel: name,
                            samples: entry.stacks.values.reduce(0, +) - recordedBefore,
                            wallMicroseconds: Int64(result.wallNanoseconds / 1000),
                            cpuMicroseconds: Int64(result.cpuNanoseconds / 1000)))
        lastRun = runs.count - 1
        if !timed.isEmpty {
            var bins: [[UInt]: [Int: Int]] = [:]
            let wall = Double(max(result.wallNanoseconds, 1))
            for sample in timed {
                // Samples a moment before the clock was read at the start count as its first step.
                let offset = sample.time > result.startNanoseconds ? Double(sample.time - result.startNanoseconds) : 0
                bins[sample.addresses, default: [:]][SampleTime.bin(fraction: offset / wall), default: 0] += 1
            }
            runBins[runs.count - 1] = (tag, bins)
        }
        return Int64(result.wallNanoseconds / 1000)
    }

    /// Runs a program as the work of (app, handler) (spec §8.1), stopped after `wallLimitUs`.
    func perform(program spec: ProgramSpec, app: String, handler: String, wallLimitUs: Int64?) -> WorkOutcome {
        lock.withLock { _ in performLocked(program: spec, app: app, handler: handler, wallLimitUs: wallLimitUs) }
    }

    private func performLocked(program spec: ProgramSpec, app: String, handler: String, wallLimitUs: Int64?) -> WorkOutcome {
        lastRun = nil
        let tag = tag(for: Handler(app: app, handler: handler))
        let run: ProgramRunner.Run
        do {
            run = try ProgramRunner.run(spec, rateHz: options.rateHz, wallLimitUs: wallLimitUs)
        } catch {
            note("the program of \(app) \(handler) did not start: \(error)")
            return WorkOutcome(wallMicroseconds: 0)
        }
        let result = run.result
        let name = URL(fileURLWithPath: spec.command[0]).lastPathComponent
        var entry = accumulated[tag] ?? Accumulated()
        let symbolicator = ProgramSymbolicator(modules: run.modules)
        for stack in run.stacks {
            if stack.samples > 0 {
                let frames = stack.addresses.isEmpty && stack.truncated
                    ? Self.otherStacks : symbolicator.frames(stack.addresses, exactFirst: stack.allocations == 0)
                entry.programStacks[frames, default: 0] += stack.samples
            }
            if stack.truncated { truncated += stack.samples }
        }
        entry.allocations = SamplingProfile.merge(entry.allocations, Self.allocationInput(result, run.stacks) {
            symbolicator.frames($0, exactFirst: false)
        })
        let crashed = result.exited == 0 && !run.timedOut
        let previous = entry.program
        let stderrTail = run.stderrTail.isEmpty ? previous?.stderrTail ?? "" : run.stderrTail
        entry.program = ProgramSummary(
            command: spec.command, exitStatus: result.exited != 0 ? Int(clamping: result.exit_status) : nil,
            signal: result.exited == 0 ? SignalName.name(result.signal) : nil,
            failedRuns: (previous?.failedRuns ?? 0) + (result.exited != 0 && result.exit_status != 0 ? 1 : 0),
            crashedRuns: (previous?.crashedRuns ?? 0) + (crashed ? 1 : 0),
            timedOutRuns: (previous?.timedOutRuns ?? 0) + (run.timedOut ? 1 : 0),
            stderrTail: stderrTail, lostEvents: Self.exactCount(previous?.lostEvents ?? 0, result.lost_events),
            recorderStarted: result.recorder_started != 0)
        if result.recorder_started == 0 {
            note("memprof's recorder did not start in \(name) (\(app) \(handler)): nothing it did was recorded")
        }
        if options.rateHz > 0 {
            ticks &+= Int(clamping: result.sample_ticks)
            recorded &+= Int(clamping: result.samples)
            dropped &+= Int(clamping: result.samples_dropped &+ result.samples_unprepared)
            handlerNanoseconds &+= result.handler_ns
            armedNanoseconds &+= result.wall_ns
            clockNanoseconds &+= result.cpu_ns
            entry.dropped &+= Int(clamping: result.samples_dropped &+ result.samples_unprepared)
        }
        if !entry.kernels.contains(name) { entry.kernels.append(name) }
        entry.runs &+= 1
        programRuns += 1
        entry.wallNanoseconds &+= result.wall_ns
        entry.cpuNanoseconds &+= result.cpu_ns
        accumulated[tag] = entry
        runs.append(WorkRun(app: app, handler: handler, kernel: name, samples: Int(clamping: result.samples),
                            wallMicroseconds: Int64(clamping: result.wall_ns / 1000), cpuMicroseconds: Int64(clamping: result.cpu_ns / 1000)))
        lastRun = runs.count - 1
        // A crash or a failure status ends the handler then (spec §8.1); memprof's own kill at the
        // window is a timeout, not a failure.
        let failure = run.timedOut ? nil
            : crashed ? SignalName.name(result.signal)
            : result.exit_status != 0 ? "exit status \(result.exit_status)" : nil
        return WorkOutcome(wallMicroseconds: Int64(clamping: result.wall_ns / 1000), peakBytes: Int64(clamping: result.peak_bytes),
                           overran: run.timedOut, failure: failure)
    }

    /// The stack that stands for the stacks left out (see ``ProgramRunner/boundedStacks(_:)``).
    private static let otherStacks = [Frame(name: "[other stacks]", module: "[memprof]")]

    /// One run's allocations, from a program's or the worker's tracker, with each stack's
    /// addresses (innermost first) turned into frames (root first) by `frames`.
    private static func allocationInput(_ result: csampler_program_result, _ stacks: [ProgramRunner.RawStack],
                                        frames: ([UInt]) -> [Frame]) -> SamplingProfile.AllocationInput {
        let allocationStacks = stacks.filter { $0.allocations > 0 }.map { stack in
            (frames: stack.addresses.isEmpty && stack.truncated ? otherStacks : frames(stack.addresses),
             totals: AllocationStack(frames: [], allocatedBytes: stack.allocatedBytes, allocations: stack.allocations,
                                     peakBytes: stack.peakBytes, leakedBytes: stack.leakedBytes,
                                     leakedBlocks: stack.leakedBlocks))
        }
        let totals = AllocationProfile(
            allocatedBytes: Int64(clamping: result.allocated_bytes), allocations: Int64(clamping: result.allocations),
            peakBytes: Int64(clamping: result.peak_bytes), leakedBytes: Int64(clamping: result.end_bytes),
            leakedBlocks: Int64(clamping: result.end_blocks), stacks: [])
        return SamplingProfile.AllocationInput(totals: totals, stacks: allocationStacks)
    }

    func makeProfile() -> SamplingProfile {
        lock.withLock { _ in makeProfileLocked() }
    }

    private func makeProfileLocked() -> SamplingProfile {
        var framesOf: [[UInt]: [Frame]] = [:]
        func frames(_ addresses: [UInt]) -> [Frame] {
            if let known = framesOf[addresses] { return known }
            let frames = Array(addresses.enumerated().map { index, address in
                symbolicator.frame(for: address, isReturnAddress: index > 0)
            }.reversed())
            framesOf[addresses] = frames
            return frames
        }
        // Sample times: each placed run's steps over its simulated interval.
        var sampleTimes: [UInt32: [[Frame]: [Int64: Int]]] = [:]
        for (index, run) in runBins.sorted(by: { $0.key < $1.key }) {
            guard let start = runs[index].startUs, let duration = runs[index].durationUs else { continue }
            for (addresses, bins) in run.stacks {
                let key = frames(addresses)
                for (bin, count) in bins {
                    sampleTimes[run.tag, default: [:]][key, default: [:]][
                        SampleTime.time(bin: bin, startUs: start, durationUs: duration), default: 0] += count
                }
            }
        }
        let inputs = accumulated.sorted { $0.key < $1.key }.map { tag, entry in
            let handler = handlers[Int(tag) - 1]
            let stacks = entry.stacks.map { addresses, count in
                (frames: frames(addresses), count: count)
            } + entry.programStacks.map { (frames: $0.key, count: $0.value) }
            var input = SamplingProfile.HandlerInput(
                app: handler.app, handler: handler.handler,
                kernel: entry.kernels.sorted().joined(separator: ","), runs: entry.runs,
                sizeBytes: entry.sizeBytes, wallMicroseconds: Int64(entry.wallNanoseconds / 1000),
                cpuMicroseconds: Int64(entry.cpuNanoseconds / 1000), droppedSamples: entry.dropped,
                stacks: stacks)
            input.allocations = entry.allocations
            input.program = entry.program
            input.sampleTimes = sampleTimes[tag] ?? [:]
            return input
        }
        var notes = self.notes
        let sampled = options.rateHz > 0 && samplingFailure == nil
        if sampled, !accumulated.isEmpty, recorded == 0 {
            notes.append("work ran but no samples were collected: it was shorter than the sampling interval")
        }
        if truncated > 0 {
            notes.append("\(truncated) samples were deeper than \(CSAMPLER_MAX_DEPTH) frames and lost their outermost frames")
        }
        return SamplingProfile(sampler: summary(sampled: sampled), handlers: inputs, notes: notes, runs: runs)
    }

    /// Overhead = samples × cost per sample ÷ sampled wall time. The cost per sample is measured
    /// once per performer on the worker, before its first work (``StackSampler/measureSampleCost(rateHz:window:rounds:)``:
    /// a spin loop alternately unsampled and sampled at 4 kHz, extra CPU time per signal, median
    /// of 5 pairs of 20 ms), so it counts the timer interrupt, signal delivery, unwinding and
    /// cache effects, not only the handler's own time. If that measurement gives nothing (a
    /// machine too noisy to see the difference), the handler's own measured time is used.
    private func summary(sampled: Bool) -> SamplerSummary {
        guard sampled else { return .off }
        let seconds = Double(clockNanoseconds) / 1e9
        let handlerCost = ticks > 0 ? Double(handlerNanoseconds) / Double(ticks) : 0
        let cost = max(sampleCost ?? 0, handlerCost)
        return SamplerSummary(
            requestedRateHz: options.rateHz,
            achievedRateHz: seconds > 0 ? (Double(ticks) / seconds).rounded(toPlaces: 1) : 0,
            clock: [kernelRuns > 0 || programRuns == 0 ? (StackSampler.usesCPUClock(rateHz: options.rateHz) ? "thread-cpu" : "monotonic") : nil,
                    programRuns > 0 ? "program-thread-cpu" : nil].compactMap { $0 }.joined(separator: "+"),
            samples: recorded, droppedSamples: dropped, timerOverruns: overruns,
            sampledWallMicroseconds: Int64(armedNanoseconds / 1000),
            costPerSampleNanoseconds: cost.rounded(toPlaces: 1),
            handlerNanosecondsPerSample: handlerCost.rounded(toPlaces: 1),
            overheadPercent: armedNanoseconds > 0
                ? (Double(ticks) * cost / Double(armedNanoseconds) * 100).rounded(toPlaces: 3) : 0)
    }

    /// The largest count report.json holds: 2^53, the largest whole number every JSON reader
    /// (a browser's, `jq`'s, memprof's own) keeps exactly. The channel's counters are the
    /// program's to write, so a hostile one can claim any number.
    static let largestExactCount = 1 << 53

    /// `a + b`, at most ``largestExactCount``.
    static func exactCount(_ a: Int, _ b: UInt64) -> Int {
        min(saturatingSum(a, Int(clamping: b)), largestExactCount)
    }

    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }

    private func tag(for handler: Handler) -> UInt32 {
        if let index = handlers.firstIndex(of: handler) { return UInt32(index + 1) }
        handlers.append(handler)
        return UInt32(handlers.count)
    }

    private func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
