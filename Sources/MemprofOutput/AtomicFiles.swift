import Foundation

/// A file to write: its name inside a folder and its bytes.
public struct OutputFile: Sendable, Equatable {
    public var name: String
    public var data: Data

    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}

/// Files written whole or not at all (spec §11): every file memprof writes goes through here.
public enum AtomicFiles {
    /// Writes a set of files into a folder: each is written under a temporary name beside its
    /// target and renamed into place only once every file has been written.
    ///
    /// - Throws: the file system's error; temporary files are removed first.
    public static func write(_ files: [OutputFile], into directory: URL) throws {
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

    /// Writes one file: a temporary file beside the target, renamed into place.
    ///
    /// - Throws: the file system's error; the temporary file is removed first.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                                                                NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
