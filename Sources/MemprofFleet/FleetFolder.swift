import Foundation
import MemprofOutput

/// A fleet result's folder, replaced in one step like a report folder (``StagedFolder``):
/// `runs.csv` is streamed into a staging folder as runs finish, then `fleet.json` (and
/// `fleet.html` for a complete result) join it and the folder is exchanged with the old one, so
/// the folder never holds half a sweep, nor files of an earlier one, and a failed or killed sweep
/// leaves nothing a later one does not remove.
final class FleetFolder {
    /// The files memprof writes into a fleet folder.
    static let fileNames: Set<String> = ["runs.csv", "fleet.json", "fleet.html"]
    let url: URL
    private var staged: StagedFolder?
    private var csv: StreamedFile?

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

    /// Writes the other files and puts the folder in place.
    func finish(json: Data, html: Data?) throws {
        guard let staged, let csv else { return }
        try csv.finish()
        try staged.write(OutputFile(name: "fleet.json", data: json))
        if let html { try staged.write(OutputFile(name: "fleet.html", data: html)) }
        try staged.commit()
        self.staged = nil
    }

    /// Removes everything written after a failure.
    func abort() {
        csv = nil
        staged?.abort()
        staged = nil
    }
}
