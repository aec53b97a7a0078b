import Foundation

/// Fresh folders for tests, and what they hold. They are made in one folder of the test
/// process's own (`memprof-tests-PID` under the system's temporary folder), removed when the
/// process exits, so a test that does not remove its scratch leaves nothing behind.
public enum Scratch {
    /// The test process's folder of scratch folders.
    private static func root(of pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("memprof-tests-\(pid)")
    }

    /// Made once, with its removal at the process's exit registered.
    private static let processRoot: URL = {
        atexit { try? FileManager.default.removeItem(at: Scratch.root(of: getpid())) }
        return root(of: getpid())
    }()

    /// A new empty folder in the test process's scratch folder.
    public static func makeDirectory(_ label: String = "test") throws -> URL {
        let dir = processRoot.appendingPathComponent("memprof-\(label)-\(UUID().uuidString)")
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
