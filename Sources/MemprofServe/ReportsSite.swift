import Foundation

/// What the reports server answers for a request path, decided without touching the network:
/// the index page, a file inside the served folder, or a refusal.
///
/// Paths are checked as they arrived (percent-encoded): a segment that decodes to `.` names the
/// folder it is in and is dropped (as browsers and curl resolve it); one that decodes to `..`, or
/// holds a slash, backslash or NUL once decoded, is refused with 403 whatever follows it;
/// a file whose real path (symlinks resolved) lies outside the folder is refused with 403 too;
/// anything else that is not a regular file in the folder is 404. Hidden files (a segment
/// starting with `.`) are never served.
public struct ReportsSite: Sendable {
    public enum Answer: Equatable, Sendable {
        case index
        case file(URL, contentType: String)
        case notFound
        case forbidden
    }

    /// The served folder, with symlinks resolved.
    public let root: URL

    public init(root: URL) throws {
        let path = root.standardizedFileURL.path
        guard let real = Self.realPath(path) else { throw SiteError(description: "no such folder") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SiteError(description: "not a folder")
        }
        self.root = URL(fileURLWithPath: real, isDirectory: true)
    }

    /// The answer for `rawPath`, the request target's path exactly as it was sent.
    public func answer(rawPath: String) -> Answer {
        var path = Substring(rawPath)
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        var segments: [String] = []
        for piece in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = String(piece).removingPercentEncoding else { return .forbidden }
            if decoded == "." { continue }
            if decoded == ".." { return .forbidden }
            if decoded.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) { return .forbidden }
            if decoded.hasPrefix(".") { return .notFound }
            segments.append(decoded)
        }
        if segments.isEmpty || segments == ["index.html"] { return .index }

        var candidate = root
        for segment in segments { candidate.appendPathComponent(segment) }
        guard let real = Self.realPath(candidate.path) else { return .notFound }
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard real.hasPrefix(rootPath) else { return .forbidden }

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else { return .notFound }
        var file = URL(fileURLWithPath: real)
        if isDirectory.boolValue {
            // A run's folder shows its page.
            file.appendPathComponent("report.html")
            guard let page = Self.realPath(file.path), page.hasPrefix(rootPath),
                  FileManager.default.fileExists(atPath: page, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return .notFound }
            file = URL(fileURLWithPath: page)
        }
        return .file(file, contentType: Self.contentType(for: file.lastPathComponent))
    }

    /// `realpath(3)`: the absolute path with every symlink resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func contentType(for name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "json": "application/json"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "txt", "folded", "md", "yaml", "yml", "xml": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

/// Why a folder cannot be served.
public struct SiteError: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public var errorDescription: String? { description }
}
