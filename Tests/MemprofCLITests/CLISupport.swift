import Foundation

/// The built `memprof` binary: `$MEMPROF_BIN`, or `.build/debug/memprof` in the package.
func memprofBinary() -> URL {
    if let path = ProcessInfo.processInfo.environment["MEMPROF_BIN"] { return URL(fileURLWithPath: path) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/memprof")
}

struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs memprof with `arguments` in `directory`, with `environment` added to this process's,
/// and returns its exit status and output.
func runMemprof(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Outcome {
    let process = Process()
    process.executableURL = memprofBinary()
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
}

/// A fresh empty folder for one test.
func makeScratchDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Every file below `dir`, relative, sorted.
func listing(_ dir: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: dir.path)
    var names: [String] = []
    while let name = enumerator?.nextObject() as? String { names.append(name) }
    return names.sorted()
}
