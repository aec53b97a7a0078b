import Foundation

/// Runs `first` on the calling thread and `second` on a thread of its own, side by side, and
/// returns both results once both are done (a failure of either is thrown after both ended,
/// `first`'s before `second`'s).
///
/// Writers of a report folder use it to write files, or parts of one, at once: each closure
/// must touch only what the other does not (they may capture values that are not `Sendable`,
/// and nothing checks this but the caller). A thread of its own, not a queue of the system's:
/// with fewer cores than tasks a queue would run them one after the other.
public func inParallel<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
    try withoutActuallyEscaping(second) { second in
        let task = ThreadTask(second)
        let thread = Thread { task.run() }
        thread.name = "memprof writer"
        thread.stackSize = 1 << 22
        thread.start()
        let a = Result { try first() }
        task.done.wait()
        return (try a.get(), try task.result!.get())
    }
}

/// A closure run on another thread, and its result.
private final class ThreadTask<Value>: @unchecked Sendable {
    // Unchecked: `body` and `result` are touched by the running thread until `done` is
    // signalled, and by the starting thread only after it waited for it.
    private var body: (() throws -> Value)?
    var result: Result<Value, any Error>?
    let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws -> Value) { self.body = body }

    func run() {
        result = Result { try body!() }
        // Let go of the closure before the caller goes on: it must not outlive the call.
        body = nil
        done.signal()
    }
}
