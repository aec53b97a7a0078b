import Foundation

/// The program of `work: {command: ...}` as a file: where it is and whether memprof can preload
/// its recorder into it (spec §8.1).
///
/// A path with a `/` is taken relative to the directory memprof runs in (not the program's
/// `cwd`); a bare name is looked up in `PATH`, as a shell does.
public enum ProgramFile {
    /// The absolute path `command` names, or nil when no such file exists.
    public static func resolve(_ command: String) -> String? {
        if command.contains("/") {
            let url = URL(fileURLWithPath: command)
            return FileManager.default.fileExists(atPath: url.path) ? url.standardizedFileURL.path : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(command)"
            if access(candidate, X_OK) == 0 {
                return URL(fileURLWithPath: candidate).standardizedFileURL.path
            }
        }
        return nil
    }

    /// Why `command` cannot be run as work, or nil when it can: it must exist, be executable,
    /// and be a dynamically linked ELF program (the recorder is loaded with LD_PRELOAD, which a
    /// static program or a script's interpreter line would not honour for the code itself).
    public static func problem(with command: String) -> String? {
        guard let path = resolve(command) else {
            return command.contains("/")
                ? "no program at '\(command)' (relative paths start from the directory memprof runs in)"
                : "no program named '\(command)' in PATH"
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "'\(command)' is a directory, not a program"
        }
        guard access(path, X_OK) == 0 else {
            return "'\(command)' is not executable (chmod +x it)"
        }
        switch ELFKind(path: path) {
        case .unreadable: return "cannot read '\(command)'"
        case .notELF: return "'\(command)' is not an ELF program (a script? name its interpreter's program instead)"
        case .notExecutable: return "'\(command)' is an ELF file but not a program (a library or an object file)"
        case .unsupported(let why): return "'\(command)' \(why)"
        case .staticProgram:
            return "'\(command)' is statically linked: memprof's recorder is loaded with LD_PRELOAD, which needs a dynamically linked program"
        case .dynamicProgram: return nil
        }
    }

    enum ELFKind: Equatable {
        case unreadable, notELF, notExecutable, staticProgram, dynamicProgram
        case unsupported(String)

        /// Reads the ELF header and program headers: a program with a PT_INTERP header is
        /// dynamically linked.
        init(path: String) {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                self = .unreadable
                return
            }
            defer { try? handle.close() }
            guard let header = try? handle.read(upToCount: 64), header.count >= 16 else {
                self = .notELF
                return
            }
            let bytes = [UInt8](header)
            guard bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46 else {
                self = .notELF
                return
            }
            guard bytes.count == 64, bytes[4] == 2, bytes[5] == 1 else {
                self = .unsupported("is not a 64-bit little-endian ELF program, which is what this memprof runs")
                return
            }
            func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
            func u64(_ data: [UInt8], _ offset: Int) -> UInt64 {
                (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[offset + $1]) << (8 * UInt64($1)) }
            }
            let type = u16(16)
            guard type == 2 || type == 3 else {  // ET_EXEC or ET_DYN
                self = .notExecutable
                return
            }
            let tableOffset = u64(bytes, 32)
            let entrySize = u16(54)
            let count = u16(56)
            guard entrySize >= 56, count <= 4096, tableOffset < (1 << 40),
                  (try? handle.seek(toOffset: tableOffset)) != nil,
                  let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
            else {
                self = .unsupported("has a damaged program header table")
                return
            }
            let entries = [UInt8](table)
            var interpreter = false
            var entryPoint = false
            for index in 0..<count {
                let typeValue = UInt32(entries[index * entrySize]) | UInt32(entries[index * entrySize + 1]) << 8
                    | UInt32(entries[index * entrySize + 2]) << 16 | UInt32(entries[index * entrySize + 3]) << 24
                if typeValue == 3 { interpreter = true }  // PT_INTERP
                if typeValue == 1 { entryPoint = true }   // PT_LOAD
            }
            if !entryPoint {
                self = .notExecutable
            } else if interpreter {
                self = .dynamicProgram
            } else {
                // A shared library (ET_DYN without PT_INTERP) or a static program.
                self = type == 3 && u64(bytes, 24) == 0 ? .notExecutable : .staticProgram
            }
        }
    }
}
