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
    }

    /// Gives back the whole pages before `offset`.
    func release(_ offset: Int) {
        guard let address else { return }
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
