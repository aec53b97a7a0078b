import MemprofPlatform

/// A file mapped read-only into memory, for reading once from start to end. Pages already read
/// can be given back (`release`): they leave the process's memory, and are read again from the
/// file should they be touched again, so a large file is read in memory that does not grow with it.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let address: UnsafeMutableRawPointer?
    private static let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    init(path: String, shownAs name: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReportFileError.unreadable(name, String(cString: strerror(errno))) }
        defer { closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReportFileError.unreadable(name, String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size > 0 else {
            address = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw ReportFileError.unreadable(name, String(cString: strerror(errno)))
        }
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        address = mapped
        bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        populate(from: 0)
    }


    /// The window mapped ahead of a reader in one call (instead of a page fault per few pages).
    private static let window = 8 << 20

    /// Maps the pages of the window after `offset` (MemprofPlatform's `MemoryAdvice`; where the
    /// system cannot, pages are mapped as they are touched).
    private func populate(from offset: Int) {
        guard let address, offset < bytes.count else { return }
        let start = offset / Self.page * Self.page
        MemoryAdvice.populateRead(address + start, length: min(bytes.count, offset + Self.window) - start)
    }

    /// Gives back the whole pages in `range`, which a reader has read and will not look at
    /// again (the page of its first byte too: what comes before it was read before, or by the
    /// other reader, which reads it again from the file should it need to), and maps the window
    /// after it. Safe to call from two threads (each for the range it reads).
    @Sendable func release(_ range: Range<Int>) {
        guard let address else { return }
        populate(from: range.upperBound)
        let start = range.lowerBound / Self.page * Self.page, end = range.upperBound / Self.page * Self.page
        guard end > start else { return }
        _ = madvise(address + start, end - start, MADV_DONTNEED)
    }

    func close() {
        if let address { _ = munmap(address, bytes.count) }
    }
}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
