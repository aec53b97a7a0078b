import ArgumentParser
import Foundation
import MemprofCommandLine
import MemprofOutput

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Open a report's HTML page in a browser, or print its file URL.",
        discussion: "REPORT is a report.html or report.json, or a run's folder (its report.html is opened), "
            + "or a reports folder (its index.html). Without one, Reports/ is used. "
            + "The page opens with xdg-open (open on macOS); without an opener, or with --print, its file:// URL is printed.")

    @Argument(help: "A report.html, report.json, run folder or reports folder.")
    var report: String = "Reports"

    @Flag(name: .customLong("print"), help: "Print the file URL instead of opening it.")
    var printOnly = false

    func run() throws {
        let page = try Self.page(for: report)
        let url = page.absoluteURL.standardizedFileURL.absoluteString
        if printOnly || !Self.open(url) {
            try StandardStream.out(url + "\n")
        }
    }

    /// The HTML file to open for `argument`.
    static func page(for argument: String) throws -> URL {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: argument)
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw BadInput("\(argument): no such file or folder")
        }
        if !isDirectory.boolValue {
            switch url.pathExtension.lowercased() {
            case "html", "htm": return url
            case "json":
                let html = url.deletingLastPathComponent().appendingPathComponent("report.html")
                if fm.fileExists(atPath: html.path) { return html }
                throw BadInput("\(argument): no report.html beside it; run `memprof run` again to write one")
            default:
                throw BadInput("\(argument): not a report (expected report.html, report.json or a folder)")
            }
        }
        for name in ["report.html", "index.html"] {
            let candidate = url.appendingPathComponent(name)
            if fm.fileExists(atPath: candidate.path) { return candidate }
        }
        throw BadInput("\(argument): holds no report.html or index.html")
    }

    /// Hands `url` to the desktop's opener; false when there is none or it failed.
    static func open(_ url: String) -> Bool {
        #if os(macOS)
        let openers = ["/usr/bin/open"]
        #else
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil
            || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil else { return false }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let openers = path.split(separator: ":").map { "\($0)/xdg-open" }
        #endif
        guard let opener = openers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return false }
        // The opener may start a browser: it gets the signals' default actions, not memprof's.
        CommandMain.restoreSignalDefaults()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }
}
