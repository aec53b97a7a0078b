import Dispatch
import Foundation
import MemprofCore

/// A ``SimulationSink`` that hands what the engine records to other sinks, each on a thread of
/// its own: the simulation goes on while report.json's and trace.json's text is made,
/// so a run uses the machine's other cores instead of doing everything in turn.
///
/// The engine's calls are kept in chunks of a few thousand, and every chunk goes to every sink's
/// thread through a queue of at most ``depth`` chunks: when a writer falls behind, the
/// simulation waits (memory stays bounded), and the time it waited is counted (``waitedNs``), so
/// the simulation's own time can be told apart from the writers'. A sink is lent each chunk in
/// place (``RelayedCalls``): its events are moved into the chunk once and read there by every
/// sink, neither copied nor retained per sink.
///
/// The wrapped sinks are only touched by their threads until ``finish(_:)`` returns; after that,
/// by the caller again.
final class SinkRelay: SimulationSink {
    /// A full chunk of calls, shared by the workers (each reads it; the last to let go frees it).
    /// Filled through pointers: an `Array` checks that its storage is its own on every append.
    private final class Chunk: @unchecked Sendable {
        // Unchecked: filled by the simulating thread alone, then only read by the workers.
        let events = UnsafeMutablePointer<SimEvent>.allocate(capacity: SinkRelay.chunkSize)
        let apps = UnsafeMutablePointer<Int>.allocate(capacity: SinkRelay.chunkSize)
        let kinds = UnsafeMutablePointer<SimEvent.Kind>.allocate(capacity: SinkRelay.chunkSize)
        let memory = UnsafeMutablePointer<MemoryChange>.allocate(capacity: SinkRelay.chunkSize)
        var eventCount = 0
        var memoryCount = 0
        var snapshots: [JetsamSnapshot] = []

        var calls: RelayedCalls {
            RelayedCalls(events: UnsafeBufferPointer(start: events, count: eventCount),
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

    private let workers: [Worker]
    private var chunk = Chunk()
    private var finished = false
    /// Time the simulation spent waiting for the worker to take a chunk.
    private(set) var waitedNs: UInt64 = 0

    static let chunkSize = 4096
    static let depth = 8

    /// Starts a thread per sink, which hands it every chunk.
    init(_ sinks: [any RelayedSink]) {
        workers = sinks.map(Worker.init(sink:))
        for worker in workers {
            let thread = Thread { worker.work() }
            thread.name = "memprof writer"
            thread.stackSize = 1 << 22
            thread.start()
        }
    }

    deinit {
        // A relay dropped without finishing (the run failed) ends its thread all the same.
        if !finished { for worker in workers { _ = worker.put(.last({})) } }
    }

    func record(_ event: consuming SimEvent, app: Int?) {
        chunk.kinds[chunk.eventCount] = event.kind
        (chunk.events + chunk.eventCount).initialize(to: event)
        chunk.apps[chunk.eventCount] = app ?? -1
        chunk.eventCount += 1
        if chunk.eventCount == Self.chunkSize { send() }
    }

    func record(_ snapshot: consuming JetsamSnapshot) { chunk.snapshots.append(snapshot) }

    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes) {
        chunk.memory[chunk.memoryCount] = MemoryChange(atUs: atUs, app: app, appBytes: appBytes, usedBytes: usedBytes,
                                                      compressedBytes: compressedBytes)
        chunk.memoryCount += 1
        if chunk.memoryCount == Self.chunkSize { send() }
    }

    private func send() {
        let full = chunk
        chunk = Chunk()
        for worker in workers { waitedNs += worker.put(.calls(full)) }
    }

    /// Hands over what is left, runs `last(i)` on sink `i`'s thread after its every chunk, and
    /// waits for the threads to end. Call once, after the simulation.
    func finish(_ last: @escaping (Int) -> Void) {
        precondition(!finished, "a SinkRelay finishes once")
        finished = true
        if !chunk.isEmpty { send() }
        for (i, worker) in workers.enumerated() { waitedNs += worker.put(.last({ last(i) })) }
        for worker in workers { worker.done.wait() }
    }

    /// The worker's side: the queue and the thread's loop.
    private final class Worker: @unchecked Sendable {
        // Unchecked: `sink` is used by the worker thread alone until `done` is signalled; the
        // queue is guarded by `condition`.
        enum Item {
            case calls(Chunk)
            case last(() -> Void)
        }

        let sink: any RelayedSink
        let condition = NSCondition()
        var queue: [Item] = []
        let done = DispatchSemaphore(value: 0)

        init(sink: any RelayedSink) { self.sink = sink }

        /// Queues `item`, waiting while the queue is full; returns the nanoseconds waited.
        func put(_ item: Item) -> UInt64 {
            condition.lock()
            defer { condition.unlock() }
            var waited: UInt64 = 0
            if queue.count >= SinkRelay.depth {
                let start = DispatchTime.now().uptimeNanoseconds
                while queue.count >= SinkRelay.depth { condition.wait() }
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
                case .calls(let chunk):
                    sink.take(chunk.calls)
                case .last(let last):
                    last()
                    done.signal()
                    return
                }
            }
        }
    }
}

/// A memory change of the engine (``SimulationSink/memoryChanged(atUs:app:appBytes:usedBytes:compressedBytes:)``).
struct MemoryChange {
    var atUs: Microseconds
    var app: Int
    var appBytes: Bytes
    var usedBytes: Bytes
    var compressedBytes: Bytes
}

/// One chunk of the engine's calls, lent by a ``SinkRelay`` to a sink for the time of
/// ``RelayedSink/take(_:)``: each kind of call in the engine's order. Jetsam snapshots were all
/// taken before the chunk's last event, and a snapshot before the events of its kill.
struct RelayedCalls {
    let events: UnsafeBufferPointer<SimEvent>
    /// The workload index of each event's app (-1: a device event).
    let apps: UnsafeBufferPointer<Int>
    /// Each event's kind (asked of an event lent in place, it would copy the event).
    let kinds: UnsafeBufferPointer<SimEvent.Kind>
    let snapshots: [JetsamSnapshot]
    let memory: UnsafeBufferPointer<MemoryChange>
}

/// What a ``SinkRelay`` feeds: the engine's calls a chunk at a time, on the sink's own thread.
protocol RelayedSink: AnyObject {
    func take(_ calls: RelayedCalls)
}
