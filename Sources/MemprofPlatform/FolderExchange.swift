/// Exchanging two paths in one step, as Linux's `renameat2(2)` does with `RENAME_EXCHANGE`
/// (macOS has the same in `renamex_np(RENAME_SWAP)`).
public enum FolderExchange {
    typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// `RENAME_EXCHANGE` from `<linux/fs.h>`.
    static let exchangeFlag: UInt32 = 1 << 1

    /// `renameat2`, which Glibc's Swift overlay does not declare: looked up in the C library.
    static let renameat2: Renameat2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
    }()

    /// Exchanges what is at `a` and `b`.
    ///
    /// - Returns: 0, `errno` of a failure, or nil where the system cannot exchange at all (no
    ///   such call, or a file system without it: the caller moves the two with renames).
    public static func exchange(_ a: String, _ b: String) -> Int32? {
        guard let renameat2 else { return nil }
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, exchangeFlag) == 0 { return 0 }
        return errno == EINVAL || errno == ENOSYS || errno == ENOTSUP ? nil : errno
    }
}
