import Foundation
import MemprofOutput

/// A fleet result's folder, replaced in one step like a report folder (``StagedFolder``):
/// `runs.csv` is streamed into a staging folder as runs finish, then `fleet.json` (and
/// `fleet.html` for a complete result) join it and the folder is exchanged with the old one, so
/// the folder never holds half a sweep, nor files of an earlier one, and a failed or killed sweep
/// leaves nothing a later one does not remove.
///
/// After the runs, `runs.csv` is flushed to the disk on a thread of its own while the statistics
/// are made and the other files written (each flushed by the thread that wrote it): on one
/// thread those flushes are most of a sweep's fixed wall time, which more cores do not shorten.
final class FleetFolder: @unchecked Sendable {
    /// The files memprof writes into a fleet folder.
    static let fileNames: Set<String> = ["runs.csv", "fleet.json", "fleet.html"]
    let url: URL
    private var staged: StagedFolder?
    private var csv: StreamedFile?
    private let flushing = DispatchGroup()
    private var flushFailure: (any Error)?

    init(_ url: URL) { self.url = url }

    func begin(header: [UInt8]) throws {
        let staged = try StagedFolder(replacing: url, isOwnFile: Self.fileNames.contains)
        self.staged = staged
        csv = try staged.stream("runs.csv")
        try csv?.append(header[...])
    }

    func append(_ bytes: ArraySlice<UInt8>) throws {
        try csv?.append(bytes)
    }

    /// Starts flushing `runs.csv` (complete now) to the disk on another thread.
    func finishRows() {
        DispatchQueue.global().async(group: flushing) { [self] in
            do { try csv?.finish() } catch { flushFailure = error }
        }
    }

    /// Writes one of the other files; from any thread, once per file, after `finishRows()`.
    func write(_ name: String, _ data: Data) throws {
        try staged?.write(OutputFile(name: name, data: data))
    }

    /// Waits for `runs.csv` to be on the disk and puts the folder in place.
    func commit() throws {
        flushing.wait()
        if let flushFailure { throw flushFailure }
        try staged?.commit()
        staged = nil
    }

    /// Writes the other files and puts the folder in place, in one go.
    func finish(json: Data, html: Data?) throws {
        finishRows()
        try write("fleet.json", json)
        if let html { try write("fleet.html", html) }
        try commit()
    }

    /// Removes everything written after a failure.
    func abort() {
        flushing.wait()
        csv = nil
        staged?.abort()
        staged = nil
    }
}
