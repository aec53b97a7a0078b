import Foundation

/// Output being written under a temporary name (a ``StagedFolder``'s staging folder, a file
/// written beside its target before it is renamed into place): what a process interrupted by a
/// signal removes before it exits, so Ctrl-C or `kill` during a run or a sweep leaves no
/// `.out.memprof-PID-START` folder of tens of megabytes behind.
///
/// Writers make such a path and register it in one step (``create(_:_:)``), put their output in
/// place in one step (``commit(_:)``) and say when a path is gone or in place (``end(_:)``); the
/// command line's signal handling calls ``removeAll()`` from a thread of its own (never from a
/// signal handler). Making, committing and the interruption's choice of what to remove all take
/// the registry's lock, so they never overlap:
///
/// - a path is either registered or not made at all when an interruption looks;
/// - a commit (the hard links of the user's files, the exchange of two folders, renames into
///   place) runs whole before the removal begins, or not at all: an interruption that comes in
///   the middle of one waits for it, and then removes only what the commit left under temporary
///   names (the old report);
/// - once removal has begun, nothing is made or committed any more (the writer's thread waits
///   for the process to exit).
public final class UnfinishedOutput: @unchecked Sendable {
    // Unchecked: every property but `stop` (set once) is touched under `lock`.
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var removing = false
    /// What a writer's thread does when it comes to make or commit something after removal has
    /// begun: waits for the process to exit (the interruption exits it next). A test's registry
    /// throws instead, so the test goes on.
    private let stop: @Sendable () throws -> Never

    /// The one registry of the process.
    public static let shared = UnfinishedOutput()

    init(stop: @escaping @Sendable () throws -> Never = { UnfinishedOutput.waitForExit() }) {
        self.stop = stop
    }

    /// Makes `path` (a file or a folder under a temporary name) with `make` and registers it,
    /// both under the registry's lock. Once an interruption's removal has begun, `make` is not
    /// called and this thread waits for the process to exit, which the interruption does.
    public func create<T>(_ path: String, _ make: () throws -> T) throws -> T {
        try locked {
            let made = try make()
            paths.insert(path)
            return made
        }
    }

    /// Runs `body`, the step that puts output in place (links, an exchange, renames), under the
    /// registry's lock: an interruption's removal cannot begin while it runs, and once removal
    /// has begun it is not run (this thread waits for the process to exit). What `body` renames
    /// away from a registered path needs no care: the removal of a path that is gone does
    /// nothing; what it leaves under a registered path (the old report after an exchange) is
    /// removed by an interruption that comes after it.
    public func commit<T>(_ body: () throws -> T) throws -> T {
        try locked(body)
    }

    /// Runs `body` under the lock, unless removal has begun.
    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        if removing {
            lock.unlock()
            try stop()
        }
        defer { lock.unlock() }
        return try body()
    }

    /// Blocks the calling thread for good: an interruption is removing the unfinished output and
    /// exits the process next.
    static func waitForExit() -> Never {
        while true { sleep(3600) }
    }

    /// Called by a process about to exit on its own: when an interruption's removal has begun,
    /// waits for it instead (the interruption exits the process with the signal's status), so
    /// the exit cannot cut the removal short and leave part of a folder behind.
    public func yieldToInterruption() {
        if lock.withLock({ removing }) { Self.waitForExit() }
    }

    /// `path` was renamed into place or removed: nothing to clean up any more.
    public func end(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// The paths written under temporary names right now.
    public var current: Set<String> { lock.withLock { paths } }

    /// Removes every path created and not ended; from now on nothing is created or committed.
    /// Waits for a commit in progress to finish first.
    ///
    /// - Returns: the paths removed.
    @discardableResult
    public func removeAll() -> [String] {
        let all = lock.withLock {
            removing = true
            defer { paths.removeAll() }
            return paths.sorted()
        }
        for path in all { Self.remove(path) }
        return all
    }

    /// Removes `path` and what it holds, while another thread may be removing the same folder
    /// (the old report a commit left, which its writer removes too): an entry the other thread
    /// removed first counts as removed, so neither removal stops part way (before, each try
    /// gave up at the first such entry, and 64 quick failures left the rest of the folder
    /// behind while the process exited). A folder that is not empty after its entries were
    /// removed (a file added meanwhile) is listed again, a bounded number of times.
    static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            _ = unlink(path)
            return
        }
        for _ in 0..<64 {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                remove(path + "/" + name)
            }
            if rmdir(path) == 0 || errno == ENOENT { return }
        }
    }
}
