import Dispatch
import Foundation
import MemprofCore
import MemprofReport

/// The ``SimulationSink`` of a run written as it goes: it keeps the engine's calls in batches of
/// a few thousand and hands every batch to every `RunFileSink` (report.json's, report.html's,
/// trace.json's), each on a thread of its own, so the simulation and the writers share the
/// machine's cores.
///
/// Each sink's thread takes batches through a queue of at most ``depth``: when a writer falls
/// behind, the simulation waits (memory stays bounded), and the time it waited is counted
/// (``waitedNs``), so the simulation's own time can be told apart from the writers'. A batch is
/// lent to every sink in place: its events are moved into it once and read there by each.
final class FanOut: SimulationSink {
    private let workers: [Worker]
    private var batch = Batch()
    private var finished = false
    /// Time the simulation spent waiting for a writer to take a batch.
    private(set) var waitedNs: UInt64 = 0

    static let batchSize = 4096
    static let depth = 8

    /// Starts a thread per sink.
    init(_ sinks: [any RunFileSink]) {
        workers = sinks.map(Worker.init(sink:))
        for worker in workers {
            let thread = Thread { worker.work() }
            thread.name = "memprof writer"
            thread.stackSize = 1 << 22
            thread.start()
        }
    }

    deinit {
        // A fan-out dropped without finishing (the run failed) ends its threads all the same.
        if !finished { for worker in workers { _ = worker.put(.stop) } }
    }

    func record(_ event: consuming SimEvent, app: Int?) {
        batch.kinds[batch.eventCount] = event.kind
        (batch.events + batch.eventCount).initialize(to: event)
        batch.apps[batch.eventCount] = app ?? -1
        batch.eventCount += 1
        if batch.eventCount == Self.batchSize { send() }
    }

    func record(_ snapshot: consuming JetsamSnapshot) { batch.snapshots.append(snapshot) }

    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes,
                       compressorBytes: Bytes) {
        batch.memory[batch.memoryCount] = MemoryChange(atUs: atUs, app: app, appBytes: appBytes, usedBytes: usedBytes,
                                                      compressedBytes: compressedBytes, compressorBytes: compressorBytes)
        batch.memoryCount += 1
        if batch.memoryCount == Self.batchSize { send() }
    }

    private func send() {
        let full = batch
        batch = Batch()
        for worker in workers { waitedNs += worker.put(.batch(full)) }
    }

    /// Hands over what is left, tells every sink the run has ended (on its thread), and waits for
    /// the threads to end. Call once, after the simulation; the sinks are the caller's again.
    func finish() {
        precondition(!finished, "a FanOut finishes once")
        finished = true
        if !batch.isEmpty { send() }
        for worker in workers { waitedNs += worker.put(.end) }
        for worker in workers { worker.done.wait() }
    }

    /// A full batch, read by every sink's thread (the last to let go frees it). Filled through
    /// pointers: an `Array` checks that its storage is its own on every append.
    private final class Batch {
        let events = UnsafeMutablePointer<SimEvent>.allocate(capacity: FanOut.batchSize)
        let apps = UnsafeMutablePointer<Int>.allocate(capacity: FanOut.batchSize)
        let kinds = UnsafeMutablePointer<SimEvent.Kind>.allocate(capacity: FanOut.batchSize)
        let memory = UnsafeMutablePointer<MemoryChange>.allocate(capacity: FanOut.batchSize)
        var eventCount = 0
        var memoryCount = 0
        var snapshots: [JetsamSnapshot] = []

        var lent: EventBatch {
            EventBatch(events: UnsafeBufferPointer(start: events, count: eventCount),
                       apps: UnsafeBufferPointer(start: apps, count: eventCount),
                       kinds: UnsafeBufferPointer(start: kinds, count: eventCount),
                       snapshots: snapshots,
                       memory: UnsafeBufferPointer(start: memory, count: memoryCount))
        }

        var isEmpty: Bool { eventCount == 0 && memoryCount == 0 && snapshots.isEmpty }

        deinit {
            events.deinitialize(count: eventCount)
            events.deallocate()
            apps.deallocate()
            kinds.deallocate()
            memory.deallocate()
        }
    }

    /// What a sink's thread is handed.
    private enum Item {
        case batch(Batch)
        /// The run has ended: the sink is told, and the thread ends.
        case end
        /// The run failed: the thread ends.
        case stop
    }

    /// A sink's thread and its queue.
    private final class Worker: @unchecked Sendable {
        // Unchecked: `sink` is used by the worker's thread alone until `done` is signalled; the
        // queue is guarded by `condition`, and a batch queued is no longer changed by the
        // simulating thread, only read.
        let sink: any RunFileSink
        let condition = NSCondition()
        var queue: [Item] = []
        let done = DispatchSemaphore(value: 0)

        init(sink: any RunFileSink) { self.sink = sink }

        /// Queues `batch`, waiting while the queue is full; returns the nanoseconds waited.
        func put(_ item: Item) -> UInt64 {
            condition.lock()
            defer { condition.unlock() }
            var waited: UInt64 = 0
            if queue.count >= FanOut.depth {
                let start = DispatchTime.now().uptimeNanoseconds
                while queue.count >= FanOut.depth { condition.wait() }
                waited = DispatchTime.now().uptimeNanoseconds - start
            }
            queue.append(item)
            condition.broadcast()
            return waited
        }

        private func take() -> Item {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty { condition.wait() }
            let item = queue.removeFirst()
            condition.broadcast()
            return item
        }

        func work() {
            while true {
                switch take() {
                case .batch(let batch): sink.take(batch.lent)
                case .end:
                    sink.endOfRun()
                    done.signal()
                    return
                case .stop:
                    done.signal()
                    return
                }
            }
        }
    }
}
