import Foundation

/// Output being written under a temporary name (a ``StagedFolder``'s staging folder, a file
/// written beside its target before it is renamed into place): what a process interrupted by a
/// signal removes before it exits, so Ctrl-C or `kill` during a run or a sweep leaves no
/// `.out.memprof-PID-START` folder of tens of megabytes behind.
///
/// Writers say when such a path appears (``begin(_:)``) and when it is gone or in place
/// (``end(_:)``); the command line's signal handling calls ``removeAll()`` from a thread of its
/// own (never from a signal handler). Once that has run, a path begun afterwards is removed at
/// once, so a writer on another thread cannot leave a new one behind while the process exits.
public final class UnfinishedOutput: @unchecked Sendable {
    // Unchecked: every property is touched under `lock`.
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var removing = false

    /// The one registry of the process.
    public static let shared = UnfinishedOutput()

    init() {}

    /// `path` (a file or a folder) now exists under a temporary name.
    public func begin(_ path: String) {
        let removeNow = lock.withLock {
            if removing { return true }
            paths.insert(path)
            return false
        }
        if removeNow { Self.remove(path) }
    }

    /// `path` was renamed into place or removed: nothing to clean up any more.
    public func end(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// The paths written under temporary names right now.
    public var current: Set<String> { lock.withLock { paths } }

    /// Removes every path begun and not ended, and from now on each one begun as soon as it is.
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
