import Foundation
import MemprofPlatform

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
///
/// Nothing is ever written under its final name. Work in progress lives under a temporary name
/// that records its owner (``TemporaryName``: process id and the process's start time), beside
/// its target; whatever a killed run left behind is removed by the next write into the same
/// place, while the temporary files of a live concurrent run are left alone.
public enum AtomicFiles {
    /// Replaces a report folder with `files` in one step: the files are written into a new
    /// folder beside it, which is then exchanged with the old one (`renameat2(RENAME_EXCHANGE)`)
    /// and the old one removed. Readers see either the old run's files or the new run's, never
    /// a mix, and the folder holds exactly the new run's files afterwards.
    ///
    /// Files in the old folder that memprof did not write (names for which `isOwnFile` is false)
    /// are kept: they are hard-linked into the new folder before the exchange. A folder holding a
    /// subfolder memprof did not write is refused, so a mistyped `--out .` cannot replace a project.
    ///
    /// - Throws: ``OutputError`` naming the path and the cause; nothing of the failed write remains.
    public static func replaceFolder(_ directory: URL, with files: [OutputFile],
                                     isOwnFile: (String) -> Bool) throws {
        let staged = try StagedFolder(replacing: directory, isOwnFile: isOwnFile)
        do {
            for file in files { try staged.write(file) }
            try staged.commit()
        } catch {
            staged.abort()
            throw error
        }
    }

    /// Writes a set of files into a shared folder (such as the runs index beside report folders):
    /// each is written under a temporary name and renamed into place once every file is written.
    ///
    /// - Throws: ``OutputError``; the temporary files are removed first.
    public static func write(_ files: [OutputFile], into directory: URL) throws {
        try createFolder(directory)
        TemporaryName.removeDebris(in: directory)
        var written: [(URL, URL)] = []
        do {
            for file in files {
                let target = directory.appendingPathComponent(file.name)
                let temporary = target.deletingLastPathComponent().appendingPathComponent(TemporaryName.make(for: target.lastPathComponent))
                try writeNewUnfinished(file.data, to: temporary, name: file.name, folder: directory)
                written.append((temporary, target))
            }
            // One commit: an interruption finds all of the files renamed into place or none.
            try UnfinishedOutput.shared.commit {
                for (temporary, target) in written where rename(temporary.path, target.path) != 0 {
                    throw OutputError(path: target.path, action: "renaming into place", errno: errno)
                }
            }
            for (temporary, _) in written { UnfinishedOutput.shared.end(temporary.path) }
        } catch {
            for (temporary, _) in written {
                unlink(temporary.path)
                UnfinishedOutput.shared.end(temporary.path)
            }
            throw error
        }
    }

    // MARK: - Steps

    static func createFolder(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputError.notAFolder(url.path) }
            return
        }
        // Create each missing ancestor, so an error names the folder that could not be made.
        try createFolder(url.deletingLastPathComponent())
        if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
            throw OutputError(path: url.path, action: "creating the folder", errno: errno)
        }
    }

    static func contents(of url: URL) throws -> [String] {
        guard let dir = opendir(url.path) else { throw OutputError(path: url.path, action: "reading the folder", errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `data` to a file that must not exist yet, and flushes it to the disk.
    static func writeNew(_ data: Data, to url: URL, name: String, folder: URL) throws {
        try fill(StreamedFile(creating: url, name: name, folder: folder), with: data)
    }

    /// ``writeNew(_:to:name:folder:)`` of a file under a temporary name beside its target,
    /// created and registered as unfinished output in one step (``UnfinishedOutput/create(_:_:)``);
    /// the caller ends it once it is renamed into place or removed.
    static func writeNewUnfinished(_ data: Data, to url: URL, name: String, folder: URL) throws {
        let file = try UnfinishedOutput.shared.create(url.path) { try StreamedFile(creating: url, name: name, folder: folder) }
        do {
            try fill(file, with: data)
        } catch {
            UnfinishedOutput.shared.end(url.path)
            throw error
        }
    }

    /// Writes `data` into a file just created and finishes it; a failure removes the file.
    private static func fill(_ file: StreamedFile, with data: Data) throws {
        do {
            try file.append(data)
            try file.finish()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Exchanges two folders atomically. Where the kernel or file system cannot exchange, falls
    /// back to moving the old folder aside and the new one in (two renames).
    static func exchange(_ staging: URL, _ target: URL) throws {
        if let code = FolderExchange.exchange(staging.path, target.path) {
            guard code == 0 else { throw OutputError(path: target.path, action: "switching to the new report in", errno: code) }
            return
        }
        let aside = target.deletingLastPathComponent().appendingPathComponent(TemporaryName.make(for: target.lastPathComponent + ".old"))
        guard rename(target.path, aside.path) == 0 else {
            throw OutputError(path: target.path, action: "moving the old report out of", errno: errno)
        }
        guard rename(staging.path, target.path) == 0 else {
            let code = errno
            rename(aside.path, target.path)
            throw OutputError(path: target.path, action: "moving the new report into", errno: code)
        }
        // The old files now sit where staging was expected to be, for the caller to remove.
        rename(aside.path, staging.path)
    }
}

/// The name of a temporary file or folder, `.<target>.memprof-<pid>-<start>`, recording which
/// process made it: its id and its start time (in clock ticks since boot, from
/// `/proc/<pid>/stat`), so that a later run can tell a dead run's leftovers (removed) from a
/// live concurrent run's work (left alone) even when process ids are reused.
public struct TemporaryName: Equatable, Sendable {
    public var target: String
    public var pid: Int32
    public var start: UInt64

    static let marker = ".memprof-"

    /// A temporary name for `target`, owned by this process.
    public static func make(for target: String) -> String {
        let pid = getpid()
        return ".\(target)\(marker)\(pid)-\(startTime(of: pid) ?? 0)"
    }

    public init?(parsing name: String) {
        guard name.hasPrefix("."), let range = name.range(of: Self.marker, options: .backwards) else { return nil }
        let owner = name[range.upperBound...].split(separator: "-")
        guard owner.count == 2, let pid = Int32(owner[0]), let start = UInt64(owner[1]) else { return nil }
        target = String(name[name.index(after: name.startIndex)..<range.lowerBound])
        self.pid = pid
        self.start = start
    }

    /// Whether the process that made this name is still running.
    public var ownerIsAlive: Bool {
        guard let current = Self.startTime(of: pid) else { return false }
        return start == 0 || current == start
    }

    /// Removes every temporary file or folder in `directory` whose owner has died (and the
    /// `<name>.tmp-<pid>` files of memprof versions before this scheme, whose process is gone).
    public static func removeDebris(in directory: URL) {
        guard let names = try? AtomicFiles.contents(of: directory) else { return }
        for name in names {
            if let temporary = TemporaryName(parsing: name) {
                if !temporary.ownerIsAlive { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
            } else if let range = name.range(of: ".tmp-", options: .backwards), let pid = Int32(name[range.upperBound...]),
                      startTime(of: pid) == nil {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
    }

    /// A process's start time (``ProcessStartTime``), or nil when no such process runs.
    static func startTime(of pid: Int32) -> UInt64? { ProcessStartTime.of(pid) }
}

/// Output that could not be written: the path, what memprof was doing and the system's reason,
/// as one sentence ("no space left on device writing report.json to Reports/commute").
///
/// Exit status 3 (``ExitStatus/outputFailure``), except an output path that is a file where a
/// folder belongs, which is bad input (2).
public struct OutputError: MemprofError, Equatable, Sendable {
    public var path: String
    public var action: String
    public var errno: Int32
    /// Set for problems with the command line rather than the file system.
    public var reason: String?

    public init(path: String, action: String, errno: Int32) {
        self.path = path
        self.action = action
        self.errno = errno
    }

    static func notAFolder(_ path: String) -> OutputError {
        var e = OutputError(path: path, action: "", errno: ENOTDIR)
        e.reason = "\(path) is a file, not a folder; give --out a folder (or a path that does not exist yet)"
        return e
    }

    static func emptyPath() -> OutputError {
        var e = OutputError(path: "", action: "", errno: ENOENT)
        e.reason = "an empty path names no file; give a file name"
        return e
    }

    static func danglingLink(_ path: String, to destination: String, errno code: Int32) -> OutputError {
        var e = OutputError(path: path, action: "", errno: code)
        e.reason = "\(path) is a symbolic link to '\(destination)', which "
            + (code == ENOENT ? "does not exist" : "cannot be followed (\(String(cString: strerror(code)).lowercased()))")
            + "; make the folder it names, or give --out another folder"
        return e
    }

    static func aFolder(_ path: String) -> OutputError {
        var e = OutputError(path: path, action: "", errno: EISDIR)
        e.reason = "\(path) is a folder; give a file name"
        return e
    }

    static func foreignFolder(_ path: String, _ name: String) -> OutputError {
        var e = OutputError(path: path, action: "", errno: EEXIST)
        e.reason = "\(path) holds a folder memprof did not write ('\(name)'); a report folder is replaced as a whole, "
            + "so give --out an empty folder, a report folder or a path that does not exist yet"
        return e
    }

    public var exitStatus: Int32 { reason == nil ? ExitStatus.outputFailure : ExitStatus.badInput }

    public var description: String {
        if let reason { return reason }
        if errno == EBADF { return "\(path) is closed or not open for writing" }
        let cause: String = switch errno {
        case ENOSPC: "no space left on device"
        case EDQUOT: "disk quota exceeded"
        case EROFS: "read-only file system"
        case EACCES, EPERM: "permission denied"
        case EFBIG: "file too large (over the file-size limit)"
        case ENOTDIR: "a part of the path is a file, not a folder"
        default: String(cString: strerror(errno)).lowercased()
        }
        return "\(cause) \(action) \(path)"
    }
}
