import CFileIO

/// What writing past the page cache asks of the system: `O_DIRECT` and the alignment its
/// offsets, lengths and buffers need (Linux's `statx`), from `CFileIO`.
public enum DirectIOSupport {
    /// `O_DIRECT` of the system's `<fcntl.h>`, or nil where it has none (then every file goes
    /// through the cache).
    public static let flag: Int32? = { let flag = memprof_o_direct(); return flag == 0 ? nil : flag }()

    /// The alignment direct I/O on `fd` needs, or 0 when the system does not say.
    public static func alignment(of fd: Int32) -> Int {
        Int(memprof_direct_io_alignment(fd))
    }
}
