import Foundation

/// A long-lived thread of memprof's that runs one job at a time; the sampler interrupts it.
final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: (@Sendable () -> Void)?
    private var quitting = false
    private let exited = DispatchSemaphore(value: 0)

    init(name: String = "memprof-work") {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Runs `job` on the worker and returns at once; `job` signals its own completion.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        precondition(pending == nil, "the worker runs one job at a time")
        pending = job
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread after its current job and waits for it.
    func stop() {
        condition.lock()
        quitting = true
        condition.signal()
        condition.unlock()
        exited.wait()
    }

    private func loop() {
        while true {
            condition.lock()
            while pending == nil && !quitting { condition.wait() }
            let job = pending
            pending = nil
            let quit = quitting && job == nil
            condition.unlock()
            if quit { break }
            job?()
        }
        exited.signal()
    }
}
