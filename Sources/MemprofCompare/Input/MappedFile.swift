#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only into memory, for reading once from start to end. Pages already read
/// can be given back (`release`): they leave the process's memory, and are read again from the
/// file should they be touched again, so a large file is read in memory that does not grow with it.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer
    private let address: UnsafeMutableRawPointer?
    private var released = 0
    private static let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    init(path: String, shownAs name: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CompareInputError.unreadable(name, String(cString: strerror(errno))) }
        defer { closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CompareInputError.unreadable(name, String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size > 0 else {
            address = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw CompareInputError.unreadable(name, String(cString: strerror(errno)))
        }
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        address = mapped
        bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        populate(from: 0)
    }

    /// The window mapped ahead of the reader in one call (instead of a page fault per few pages).
    private static let window = 4 << 20
    private var populated = 0

    /// Maps the pages of the window after `offset` (Linux 5.14's MADV_POPULATE_READ; elsewhere,
    /// or when it fails, pages are mapped as they are touched).
    private func populate(from offset: Int) {
        guard let address, populated < bytes.count, offset + Self.window > populated else { return }
        let end = min(bytes.count, (offset + 2 * Self.window) / Self.page * Self.page + Self.page)
        #if os(Linux)
        let populateRead: Int32 = 22  // MADV_POPULATE_READ
        _ = madvise(address + populated, min(end, bytes.count) - populated, populateRead)
        #endif
        populated = min(end, bytes.count)
    }

    /// Gives back the whole pages before `offset`.
    func release(_ offset: Int) {
        guard let address else { return }
        populate(from: offset)
        let end = offset / Self.page * Self.page
        guard end > released else { return }
        _ = madvise(address + released, end - released, MADV_DONTNEED)
        released = end
    }

    func close() {
        if let address { _ = munmap(address, bytes.count) }
    }
}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
