import Dispatch
import Foundation
import MemprofCore

/// A ``SimulationSink`` that hands what the engine records to other sinks, each on a thread of
/// its own (issue 9): the simulation goes on while report.json's and trace.json's text is made,
/// so a run uses the machine's other cores instead of doing everything in turn.
///
/// The engine's calls are kept in order, in chunks of a few thousand, and every chunk goes to
/// every sink's thread through a queue of at most ``depth`` chunks: when a writer falls behind,
/// the simulation waits (memory stays bounded), and the time it waited is counted
/// (``waitedNs``), so the simulation's own time can be told apart from the writers'. Each thread
/// makes exactly the calls the engine made, in the same order, so what a wrapped sink writes is
/// the same as when the engine calls it directly.
///
/// The wrapped sinks are only touched by their threads until ``finish(_:)`` returns; after that,
/// by the caller again.
final class SinkRelay: SimulationSink {
    /// One call of the engine.
    private enum Call {
        case event(SimEvent, app: Int?)
        case snapshot(JetsamSnapshot)
        case memory(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes)
    }

    /// A full chunk of calls, shared by the workers (each reads it; the last to let go frees it).
    /// Filled through a pointer: an `Array` checks that its storage is its own on every append.
    private final class Chunk: @unchecked Sendable {
        // Unchecked: filled by the simulating thread alone, then only read by the workers.
        let base = UnsafeMutablePointer<Call>.allocate(capacity: SinkRelay.chunkSize)
        var count = 0

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    private let workers: [Worker]
    private var chunk = Chunk()
    private var finished = false
    /// Time the simulation spent waiting for the worker to take a chunk.
    private(set) var waitedNs: UInt64 = 0

    static let chunkSize = 4096
    static let depth = 8

    /// Starts a thread per sink, which passes every call on to it.
    init(_ sinks: [any SimulationSink]) {
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

    func record(_ event: consuming SimEvent, app: Int?) { keep(.event(consume event, app: app)) }

    func record(_ snapshot: consuming JetsamSnapshot) { keep(.snapshot(consume snapshot)) }

    func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes, compressedBytes: Bytes) {
        keep(.memory(atUs: atUs, app: app, appBytes: appBytes, usedBytes: usedBytes, compressedBytes: compressedBytes))
    }

    /// Adds `call` to the chunk, and hands the chunk over when it is full.
    @inline(__always)
    private func keep(_ call: consuming Call) {
        (chunk.base + chunk.count).initialize(to: call)
        chunk.count += 1
        if chunk.count == Self.chunkSize { send() }
    }

    private func send() {
        let full = chunk
        chunk = Chunk()
        for worker in workers { waitedNs += worker.put(.calls(full)) }
    }

    /// Hands over what is left, runs `last(i)` on sink `i`'s thread after its every call, and
    /// waits for the threads to end. Call once, after the simulation.
    func finish(_ last: @escaping (Int) -> Void) {
        precondition(!finished, "a SinkRelay finishes once")
        finished = true
        if chunk.count > 0 { send() }
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

        let sink: any SimulationSink
        let condition = NSCondition()
        var queue: [Item] = []
        let done = DispatchSemaphore(value: 0)

        init(sink: any SimulationSink) { self.sink = sink }

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
                case .calls(let calls):
                    for call in UnsafeBufferPointer(start: calls.base, count: calls.count) {
                        switch call {
                        case .event(let event, let app): sink.record(event, app: app)
                        case .snapshot(let snapshot): sink.record(snapshot)
                        case .memory(let atUs, let app, let appBytes, let usedBytes, let compressedBytes):
                            sink.memoryChanged(atUs: atUs, app: app, appBytes: appBytes, usedBytes: usedBytes,
                                               compressedBytes: compressedBytes)
                        }
                    }
                case .last(let last):
                    last()
                    done.signal()
                    return
                }
            }
        }
    }
}
