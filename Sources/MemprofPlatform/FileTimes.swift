/// Times of a file as `stat(2)` gives them.
public enum FileTimes {
    /// When the file's contents last changed: seconds and nanoseconds since 1970 (Linux's
    /// `st_mtim`; `st_mtimespec` on macOS).
    public static func modified(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Glibc)
        (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #else
        (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #endif
    }
}
