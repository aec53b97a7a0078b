import CSampler
import MemprofProfile

/// Records the allocations of memprof's worker thread while it runs a kernel or registered work:
/// the same records as for a program (spec §8.1), made in-process by memprof's replacements of
/// the malloc family (see CAllocTracker.h). Open it on any thread, call ``begin()`` and ``end()``
/// on the worker around the work, ``drain()`` from another thread while it runs, then ``finish()``.
final class AllocationTracker: @unchecked Sendable {
    private let handle: OpaquePointer

    /// A new tracker; throws a sentence when libunwind cannot be loaded or memory is short.
    init() throws(ProgramStartError) {
        var message = [CChar](repeating: 0, count: 512)
        func text() -> String { String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        guard csampler_load_unwinder(&message, message.count) == 0 else { throw ProgramStartError(message: text()) }
        guard let handle = csampler_tracker_open(&message, message.count) else { throw ProgramStartError(message: text()) }
        self.handle = handle
    }

    deinit { csampler_program_free(handle) }

    /// Whether memprof's malloc is the one this process calls (false when, for example, another
    /// allocator was preloaded into memprof).
    static var hooksActive: Bool { csampler_alloc_hooks_active() == 1 }

    /// On the worker: records its allocations from now on. False when tracking cannot work here.
    func begin() -> Bool { csampler_alloc_begin(handle) == 0 }

    /// On the worker: stops recording.
    static func end() { csampler_alloc_end() }

    /// Folds what the worker wrote so far.
    func drain() { _ = csampler_tracker_drain(handle) }

    /// After ``end()``: the totals and the stacks (addresses innermost first, all return addresses).
    func finish() -> (result: csampler_program_result, stacks: [ProgramRunner.RawStack]) {
        csampler_tracker_finish(handle)
        var result = csampler_program_result()
        csampler_program_get_result(handle, &result)
        return (result, ProgramRunner.boundedStacks(ProgramRunner.rawStacks(of: handle)))
    }
}
