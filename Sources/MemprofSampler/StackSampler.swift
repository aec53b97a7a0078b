import CSampler
import Foundation

/// The sampler's plain API over the C side: start and stop sampling the calling thread, drain
/// the buffer from any thread, read the counters.
///
/// Only one sampler can be open in a process at a time (the SIGPROF handler is process-wide);
/// ``open(bufferCapacity:)`` waits for the previous one to close.
public final class StackSampler: @unchecked Sendable {
    /// Why sampling could not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A raw sample: tag and code addresses, innermost first, signal frames removed. The first
    /// address is the interrupted instruction; the others are return addresses.
    public struct RawSample: Hashable, Sendable {
        public var tag: UInt32
        public var addresses: [UInt]
        public var truncated: Bool
        /// When the sample was taken: CLOCK_MONOTONIC, in nanoseconds.
        public var timeNanoseconds: UInt64 = 0
    }

    /// The counters of the C handler.
    public struct Statistics: Sendable, Equatable {
        public var ticks: Int
        public var recorded: Int
        public var dropped: Int
        public var overruns: Int
        public var foreign: Int
        public var handlerNanoseconds: UInt64
    }

    /// The timer clock used for a rate: timers on CPU time are capped at the kernel tick
    /// (250 Hz on Debian's kernels), so faster rates use CLOCK_MONOTONIC.
    public static func usesCPUClock(rateHz: Double) -> Bool { rateHz <= 250 }

    private static let exclusive = NSCondition()
    nonisolated(unsafe) private static var isOpen = false

    private var closed = false

    private init() {}

    /// Loads libunwind, then opens the process's sampler with a buffer of `bufferCapacity`
    /// samples, waiting while another sampler is open.
    public static func open(bufferCapacity: Int = 4096) throws -> StackSampler {
        var message = [CChar](repeating: 0, count: 512)
        guard csampler_load_unwinder(&message, message.count) == 0 else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        exclusive.lock()
        while isOpen { exclusive.wait() }
        isOpen = true
        exclusive.unlock()
        guard csampler_open(UInt32(clamping: bufferCapacity)) == 0 else {
            let reason = String(cString: strerror(errno))
            release()
            throw Failure(description: "cannot open the sampler: \(reason)")
        }
        return StackSampler()
    }

    private static func release() {
        exclusive.lock()
        isOpen = false
        exclusive.broadcast()
        exclusive.unlock()
    }

    deinit { close() }

    /// Frees the buffer and restores the previous SIGPROF action. Drain first.
    public func close() {
        guard !closed else { return }
        closed = true
        csampler_close()
        Self.release()
    }

    /// Prepares the calling thread to be sampled (its first unwind allocates, so it happens
    /// here, not in the handler). Call once per thread, before ``start(rateHz:tag:)``.
    public static func prepareCurrentThread() {
        _ = csampler_prepare_thread()
    }

    /// Starts sampling the calling thread at `rateHz`, tagging samples with `tag`.
    public func start(rateHz: Double, tag: UInt32) throws {
        precondition(rateHz > 0 && rateHz <= 100_000, "sampling rate out of range")
        csampler_set_tag(tag)
        let period = UInt64((1e9 / rateHz).rounded())
        guard csampler_timer_start(Self.usesCPUClock(rateHz: rateHz) ? 1 : 0, period) == 0 else {
            throw Failure(description: "cannot start the sampling timer: \(String(cString: strerror(errno)))")
        }
    }

    /// Stops sampling. Call on the thread that called ``start(rateHz:tag:)``.
    public func stop() {
        csampler_timer_stop()
    }

    /// Moves every buffered sample out, oldest first, calling `body` for each.
    public func drain(_ body: (RawSample) -> Void) {
        while let slot = csampler_peek() {
            body(Self.rawSample(slot.pointee))
            csampler_pop()
        }
    }

    public var statistics: Statistics {
        var stats = csampler_stats()
        csampler_get_stats(&stats)
        return Statistics(
            ticks: Int(stats.ticks), recorded: Int(stats.recorded), dropped: Int(stats.dropped),
            overruns: Int(stats.overruns), foreign: Int(stats.foreign),
            handlerNanoseconds: stats.handler_ns)
    }

    /// What one sample costs the calling thread, in nanoseconds of its CPU time, measured on
    /// this machine: a spin loop run alternately without and with a `rateHz` timer whose handler
    /// unwinds like a real sample (median of `rounds` pairs of `window` seconds each).
    public func measureSampleCost(rateHz: Double = 4000, window: Double = 0.02, rounds: Int = 5) -> Double {
        csampler_measure_sample_cost(rateHz, window, Int32(rounds))
    }

    private static func rawSample(_ sample: csampler_sample) -> RawSample {
        let depth = Int(sample.depth)
        var addresses = withUnsafeBytes(of: sample.pcs) { raw in
            Array(raw.bindMemory(to: UInt.self).prefix(depth))
        }
        // Drop the handler's own frames and the signal trampoline: the stack of interest starts
        // at the interrupted instruction.
        if let start = addresses.firstIndex(of: sample.ip) {
            addresses.removeFirst(start)
        } else if addresses.count > 2 {
            addresses.removeFirst(2)
            addresses.insert(sample.ip, at: 0)
        }
        return RawSample(
            tag: sample.tag, addresses: addresses,
            truncated: sample.flags & UInt16(CSAMPLER_FLAG_TRUNCATED) != 0, timeNanoseconds: sample.time_ns)
    }
}
