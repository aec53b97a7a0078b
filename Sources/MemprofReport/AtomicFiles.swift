import Foundation

/// Writes a set of files into a folder whole or not at all: each is written under a temporary
/// name beside its target and renamed into place only once every file has been written.
public enum AtomicFiles {
    public static func write(_ files: [(name: String, data: Data)], into directory: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        let suffix = ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        var written: [(URL, URL)] = []
        do {
            for file in files {
                let target = directory.appendingPathComponent(file.name)
                let temporary = directory.appendingPathComponent(file.name + suffix)
                try file.data.write(to: temporary)
                written.append((temporary, target))
            }
        } catch {
            for (temporary, _) in written { try? fm.removeItem(at: temporary) }
            throw error
        }
        for (temporary, target) in written {
            if rename(temporary.path, target.path) != 0 {
                let code = errno
                for (t, _) in written { try? fm.removeItem(at: t) }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path,
                                                                NSLocalizedDescriptionKey: String(cString: strerror(code))])
            }
        }
    }
}
