import Foundation

/// Output being written under a temporary name (a ``StagedFolder``'s staging folder, a file
/// written beside its target before it is renamed into place): what a process interrupted by a
/// signal removes before it exits, so Ctrl-C or `kill` during a run or a sweep leaves no
/// `.out.memprof-PID-START` folder of tens of megabytes behind.
///
/// Writers make such a path and register it in one step (``create(_:_:)``) and say when it is
/// gone or in place (``end(_:)``); the command line's signal handling calls ``removeAll()`` from a
/// thread of its own (never from a signal handler). A path is made and registered under the
/// registry's lock, so an interruption finds it either registered or not made at all; once
/// removal has begun, no path is made any more (the writer's thread waits for the process to
/// exit), so a writer on another thread cannot leave a new one behind while the process exits.
public final class UnfinishedOutput: @unchecked Sendable {
    // Unchecked: every property is touched under `lock`.
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var removing = false

    /// The one registry of the process.
    public static let shared = UnfinishedOutput()

    init() {}

    /// Makes `path` (a file or a folder under a temporary name) with `make` and registers it,
    /// both under the registry's lock. Once an interruption's removal has begun, `make` is not
    /// called and this thread waits for the process to exit, which the interruption does.
    public func create<T>(_ path: String, _ make: () throws -> T) rethrows -> T {
        lock.lock()
        if removing {
            lock.unlock()
            Self.waitForExit()
        }
        defer { lock.unlock() }
        let made = try make()
        paths.insert(path)
        return made
    }

    /// Blocks the calling thread for good: an interruption is removing the unfinished output and
    /// exits the process next.
    private static func waitForExit() -> Never {
        while true { sleep(3600) }
    }

    /// `path` was renamed into place or removed: nothing to clean up any more.
    public func end(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// The paths written under temporary names right now.
    public var current: Set<String> { lock.withLock { paths } }

    /// Removes every path created and not ended; from now on none is created.
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

    /// Removes `path` and what it holds. A writer on another thread may add a file to a folder
    /// while it is being emptied (its removal then fails as not empty): tried a few times.
    static func remove(_ path: String) {
        for _ in 0..<8 {
            do {
                try FileManager.default.removeItem(atPath: path)
                return
            } catch {
                var info = stat()
                if lstat(path, &info) != 0 { return }
            }
        }
    }
}
