internal import CCrypto
import Foundation
import MemprofCore
import MemprofInput

/// A parsed workload with where it came from.
public struct LoadedWorkload: Sendable {
    public var workload: Workload
    /// SHA-256 of the workload's text, hex.
    public var sha256: String
    /// A path, or `builtin:NAME`.
    public var source: String
    /// Declared times or footprints that cannot fit their limits (the run goes on).
    public var warnings: [WorkloadWarning] = []
}

/// Finds a workload by path or built-in name, reads it and parses it.
public enum WorkloadLoader {
    /// Loads `argument`: a file if one exists at that path, else a built-in workload of that name;
    /// `nil` loads the built-in default. A folder of a built-in's name (the output of an earlier
    /// `memprof run NAME --out NAME`, say) is not a workload file: the name is the built-in's.
    public static func load(_ argument: String?, knownKernels: Set<String>? = nil,
                            overrides: [WorkloadOverride] = [], checkProgram: ProgramCheck? = nil) throws -> LoadedWorkload {
        let name = argument ?? BuiltinWorkloads.defaultName
        let namesBuiltin = BuiltinWorkloads.all.contains { $0.name == name }
        let isFile = Self.pathExists(name) && !(namesBuiltin && Self.isFolder(name))
        if argument != nil, isFile || name.contains("/")
            || name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".json") {
            return try loadFile(name, knownKernels: knownKernels, overrides: overrides, checkProgram: checkProgram)
        }
        guard let builtin = BuiltinWorkloads.all.first(where: { $0.name == name }) else {
            var message = "no such file, and no built-in workload named '\(name)'"
            if let near = suggestion(for: name, among: BuiltinWorkloads.all.map(\.name)) {
                message += " (did you mean '\(near)'?)"
            }
            message += "; built-in: \(BuiltinWorkloads.all.map(\.name).joined(separator: ", "))"
            throw WorkloadError(file: name, line: 0, column: 0, keyPath: "", message: message)
        }
        return try parse(builtin.yaml, file: "builtin:\(builtin.name)", knownKernels: knownKernels, overrides: overrides,
                         checkProgram: checkProgram)
    }

    /// Whether something is at `path`, a symbolic link included even when it leads nowhere (a
    /// loop, a dangling link): that is a file the user named, not a built-in's name.
    static func pathExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a folder itself (not a symbolic link to one).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public static func loadFile(_ path: String, knownKernels: Set<String>? = nil,
                                overrides: [WorkloadOverride] = [], checkProgram: ProgramCheck? = nil) throws -> LoadedWorkload {
        try parse(try InputText.read(path), file: path, knownKernels: knownKernels, overrides: overrides,
                  checkProgram: checkProgram)
    }

    /// Parses `text`; with overrides, the digest covers the text and then one line per override
    /// (`--set KEY=VALUE`), so a changed run never carries the digest of the unchanged file.
    public static func parse(_ text: String, file: String, knownKernels: Set<String>? = nil,
                             overrides: [WorkloadOverride] = [], checkProgram: ProgramCheck? = nil) throws -> LoadedWorkload {
        let parsed = try WorkloadParser(file: file, knownKernels: knownKernels, checkProgram: checkProgram)
            .parseReportingWarnings(text, overrides: overrides)
        let digested = overrides.isEmpty ? text
            : text + "\n" + overrides.map { "--set \($0.keyPath)=\($0.value)\n" }.joined()
        return LoadedWorkload(workload: parsed.workload, sha256: sha256Hex(Array(digested.utf8)), source: file,
                              warnings: parsed.warnings)
    }

    /// SHA-256 of `bytes` as lowercase hex, through OpenSSL's libcrypto.
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "libcrypto's SHA-256 failed")
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in digest.prefix(32) {
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
