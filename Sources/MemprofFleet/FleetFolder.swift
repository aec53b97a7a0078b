import Foundation

/// A fleet result's folder: `runs.csv` streamed to a temporary file as runs finish, then
/// `fleet.json` (and `fleet.html` for a complete result), all renamed into place together, so
/// the folder never holds half a sweep, nor files of an earlier one.
final class FleetFolder {
    let url: URL
    let suffix = ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
    private var csv: FileHandle?
    private var csvURL: URL { url.appendingPathComponent("runs.csv" + suffix) }

    init(_ url: URL) { self.url = url }

    func begin(header: [UInt8]) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: csvURL.path, contents: Data(header)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: csvURL.path])
        }
        csv = try FileHandle(forWritingTo: csvURL)
        try csv?.seekToEnd()
    }

    func append(_ bytes: ArraySlice<UInt8>) throws {
        try csv?.write(contentsOf: Data(bytes))
    }

    /// Writes the other files and renames everything into place.
    func finish(json: Data, html: Data?) throws {
        try csv?.close()
        csv = nil
        var files: [(String, URL)] = [("runs.csv", csvURL)]
        for (name, data) in [("fleet.json", json), ("fleet.html", html)] {
            guard let data else { continue }
            let temporary = url.appendingPathComponent(name + suffix)
            try data.write(to: temporary)
            files.append((name, temporary))
        }
        for (name, temporary) in files where rename(temporary.path, url.appendingPathComponent(name).path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.appendingPathComponent(name).path])
        }
        if html == nil { try? FileManager.default.removeItem(at: url.appendingPathComponent("fleet.html")) }
    }

    /// Removes the temporary files after a failure.
    func abort() {
        try? csv?.close()
        for name in ["runs.csv", "fleet.json", "fleet.html"] {
            try? FileManager.default.removeItem(at: url.appendingPathComponent(name + suffix))
        }
    }
}
