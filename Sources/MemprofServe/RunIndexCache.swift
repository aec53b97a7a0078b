import Foundation
import MemprofPlatform
import MemprofHTML

/// The run index `memprof serve` answers `/` with, kept between requests: each run's headline
/// is read from its report.json once, and again only when that file changes, as its identity
/// tells (path, device and inode, modification time to the nanosecond, size). A request costs
/// a listing of the folder and a few `stat` calls per run, not a read of every report.
///
/// Memory: one ``RunIndex/Entry`` per run folder present at the last request (a few hundred
/// bytes each), and the last page; folders that went away are dropped.
final class RunIndexCache: @unchecked Sendable {
    /// What identifies one version of a file.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var size: Int64

        /// The identity of the file at `path` (symlinks followed, as reading it does), or nil.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            (modifiedSeconds, modifiedNanoseconds) = FileTimes.modified(info)
            size = Int64(info.st_size)
        }
    }

    private struct Cached {
        var identity: FileIdentity
        var entry: RunIndex.Entry?
    }

    private let root: URL
    private let title: String
    private let lock = NSLock()
    private var entries: [String: Cached] = [:]
    private var lastPage: (key: [RunIndex.Entry], page: String)?
    /// report.json files read so far (for tests: a request with nothing changed reads none).
    private(set) var reads = 0

    init(root: URL, title: String) {
        self.root = root
        self.title = title
    }

    /// The index page of the folder as it is now.
    func page() -> String {
        lock.withLock {
            let fm = FileManager.default
            let names = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            var fresh: [String: Cached] = [:]
            var list: [RunIndex.Entry] = []
            for name in names {
                let folder = root.appendingPathComponent(name)
                guard let identity = FileIdentity(path: folder.appendingPathComponent("report.json").path) else { continue }
                var cached = entries[name]
                if cached?.identity != identity {
                    reads += 1
                    cached = Cached(identity: identity, entry: RunIndex.entry(name, in: root))
                }
                fresh[name] = cached
                guard var entry = cached?.entry else { continue }
                // Cheap to look at afresh: a page or trace written after the report.
                entry.hasHTML = fm.fileExists(atPath: folder.appendingPathComponent("report.html").path)
                entry.hasTrace = fm.fileExists(atPath: folder.appendingPathComponent("trace.json").path)
                list.append(entry)
            }
            entries = fresh
            let sorted = RunIndex.newestFirst(list)
            if let lastPage, lastPage.key == sorted { return lastPage.page }
            let page = RunIndex.render(sorted, title: title)
            lastPage = (sorted, page)
            return page
        }
    }
}
