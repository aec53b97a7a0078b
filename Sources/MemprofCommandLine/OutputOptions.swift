import ArgumentParser
import Foundation
import MemprofOutput

/// Paths given to options that name an output (`-o/--out`, `--html`, …).
public enum OutputPath {
    /// `argument` as given, refusing an empty one (which would name the current folder).
    public static func named(_ argument: String) throws -> String {
        guard !argument.isEmpty else { throw ValidationError("an empty path names no file or folder") }
        return argument
    }
}

/// `--markdown`, `--html`, `--junit` and `--json`: the files `compare` and `check` write beside
/// the table they print, each written whole or not at all.
public struct ResultFileOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set).",
                               valueName: "file"), transform: OutputPath.named)
    public var markdown: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML page.", valueName: "file"), transform: OutputPath.named)
    public var html: String?

    @Option(help: ArgumentHelp("Write JUnit XML, one test case per metric compared or budget checked.", valueName: "file"),
            transform: OutputPath.named)
    public var junit: String?

    @Option(help: ArgumentHelp("Write the results as JSON.", valueName: "file"), transform: OutputPath.named)
    public var json: String?

    /// Writes the files asked for, and the Markdown summary to `$GITHUB_STEP_SUMMARY` when it is
    /// set. Each form is made only when it is written (but the Markdown, which the step summary
    /// takes); the HTML page is given the path it is written to (for its links).
    ///
    /// - Throws: `OutputError` (exit status 3) when a file cannot be written.
    public func write(markdown markdownText: String, html page: (_ path: String) throws -> String, junit xml: () throws -> String,
                      json data: () throws -> Data) throws {
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        try Terminal.appendToStepSummary(markdownText)
        if let html { try AtomicFiles.write(Data(try page(html).utf8), to: html) }
        if let junit { try AtomicFiles.write(Data(try xml().utf8), to: junit) }
        if let json { try AtomicFiles.write(try data(), to: json) }
    }
}
