import Foundation

/// Fresh folders for tests, and what they hold.
public enum Scratch {
    /// A new empty folder under the system's temporary folder.
    public static func makeDirectory(_ label: String = "test") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `text` into a file called `name` in a new scratch folder and returns its URL.
    public static func write(_ text: String, name: String) throws -> URL {
        let file = try makeDirectory("file").appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Every file and folder below `dir`, relative, sorted.
    public static func listing(_ dir: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: dir.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }
}
