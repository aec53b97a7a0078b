import Foundation

/// The file descriptors of this process.
public enum FileDescriptors {
    /// The soft limit on open descriptors (`RLIMIT_NOFILE`), or nil when there is none.
    public static func limit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// How many descriptors are open now (Linux's `/proc/self/fd`; `/dev/fd` elsewhere), or nil
    /// when the system does not list them.
    public static func openCount() -> Int? {
        for folder in ["/proc/self/fd", "/dev/fd"] {
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) { return entries.count }
        }
        return nil
    }
}
