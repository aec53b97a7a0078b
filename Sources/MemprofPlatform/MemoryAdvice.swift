/// Advice to the kernel about mapped memory beyond POSIX's `madvise` flags.
public enum MemoryAdvice {
    /// Maps the pages of `length` bytes at `address` now, in one call, instead of a page fault per
    /// few pages as they are touched (Linux 5.14's `MADV_POPULATE_READ`, which Glibc's Swift
    /// module does not name). Where the system has no such advice, or it fails, nothing happens:
    /// the pages are mapped as they are touched.
    public static func populateRead(_ address: UnsafeMutableRawPointer, length: Int) {
        #if os(Linux)
        let populateRead: Int32 = 22  // MADV_POPULATE_READ, <linux/mman.h>
        _ = madvise(address, length, populateRead)
        #endif
    }
}
