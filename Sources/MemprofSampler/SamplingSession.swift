import CSampler
import Dispatch
import MemprofProfile

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
    }

    private final class RunResult: @unchecked Sendable {
        var wallNanoseconds: UInt64 = 0
        var cpuNanoseconds: UInt64 = 0
        var sampleCost: Double?
        var failure: String?
    }

    let options: SamplerOptions
    private let worker = WorkerThread()
    private let lock = Locked(())
    private var handlers: [Handler] = []  // tag = index + 1
    /// Every run of work, in order.
    private var runs: [WorkRun] = []
    private var accumulated: [UInt32: Accumulated] = [:]
    private var ticks = 0, recorded = 0, dropped = 0, overruns = 0, truncated = 0
    private var handlerNanoseconds: UInt64 = 0
    private var armedNanoseconds: UInt64 = 0
    private var sampleCost: Double?
    private var samplingFailure: String?
    private var notes: [String] = []
    private let symbolicator = Symbolicator()

    init(options: SamplerOptions) {
        self.options = options
    }

    deinit { worker.stop() }

    func perform(kernel name: String, sizeBytes: Int64, app: String, handler: String) -> Int64 {
        lock.withLock { _ in performLocked(kernel: name, sizeBytes: sizeBytes, app: app, handler: handler) }
    }

    private func performLocked(kernel name: String, sizeBytes: Int64, app: String, handler: String) -> Int64 {
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

        let result = RunResult()
        let done = DispatchSemaphore(value: 0)
        let rate = options.rateHz
        let calibrate = sampleCost == nil
        worker.submit { [sampler] in
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
            let start = csampler_monotonic_ns()
            kernel.run(sizeBytes)
            let end = csampler_monotonic_ns()
            if armed { sampler?.stop() }
            result.wallNanoseconds = end - start
            result.cpuNanoseconds = csampler_thread_cpu_ns() - cpuStart
            done.signal()
        }

        var entry = accumulated[tag] ?? Accumulated()
        let recordedBefore = entry.stacks.values.reduce(0, +)
        let interval = DispatchTimeInterval.microseconds(Int(options.drainInterval * 1e6))
        let collect: (StackSampler.RawSample) -> Void = { sample in
            entry.stacks[sample.addresses, default: 0] += 1
            if sample.truncated { self.truncated += 1 }
        }
        while done.wait(timeout: .now() + interval) == .timedOut {
            sampler?.drain(collect)
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
            entry.dropped += stats.dropped
        }
        if let cost = result.sampleCost { sampleCost = cost }
        if let failure = result.failure { note("sampling failed: \(failure)") }
        if !entry.kernels.contains(name) { entry.kernels.append(name) }
        entry.runs += 1
        entry.sizeBytes += sizeBytes
        entry.wallNanoseconds += result.wallNanoseconds
        entry.cpuNanoseconds += result.cpuNanoseconds
        accumulated[tag] = entry
        runs.append(WorkRun(app: app, handler: handler, kernel: name,
                            samples: entry.stacks.values.reduce(0, +) - recordedBefore,
                            wallMicroseconds: Int64(result.wallNanoseconds / 1000),
                            cpuMicroseconds: Int64(result.cpuNanoseconds / 1000)))
        return Int64(result.wallNanoseconds / 1000)
    }

    func makeProfile() -> SamplingProfile {
        lock.withLock { _ in makeProfileLocked() }
    }

    private func makeProfileLocked() -> SamplingProfile {
        let inputs = accumulated.sorted { $0.key < $1.key }.map { tag, entry in
            let handler = handlers[Int(tag) - 1]
            let stacks = entry.stacks.map { addresses, count in
                let frames = addresses.enumerated().map { index, address in
                    symbolicator.frame(for: address, isReturnAddress: index > 0)
                }
                return (frames: Array(frames.reversed()), count: count)
            }
            return SamplingProfile.HandlerInput(
                app: handler.app, handler: handler.handler,
                kernel: entry.kernels.sorted().joined(separator: ","), runs: entry.runs,
                sizeBytes: entry.sizeBytes, wallMicroseconds: Int64(entry.wallNanoseconds / 1000),
                cpuMicroseconds: Int64(entry.cpuNanoseconds / 1000), droppedSamples: entry.dropped,
                stacks: stacks)
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
        let seconds = Double(armedNanoseconds) / 1e9
        let handlerCost = ticks > 0 ? Double(handlerNanoseconds) / Double(ticks) : 0
        let cost = max(sampleCost ?? 0, handlerCost)
        return SamplerSummary(
            requestedRateHz: options.rateHz,
            achievedRateHz: seconds > 0 ? (Double(ticks) / seconds).rounded(toPlaces: 1) : 0,
            clock: StackSampler.usesCPUClock(rateHz: options.rateHz) ? "thread-cpu" : "monotonic",
            samples: recorded, droppedSamples: dropped, timerOverruns: overruns,
            sampledWallMicroseconds: Int64(armedNanoseconds / 1000),
            costPerSampleNanoseconds: cost.rounded(toPlaces: 1),
            handlerNanosecondsPerSample: handlerCost.rounded(toPlaces: 1),
            overheadPercent: armedNanoseconds > 0
                ? (Double(ticks) * cost / Double(armedNanoseconds) * 100).rounded(toPlaces: 3) : 0)
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
