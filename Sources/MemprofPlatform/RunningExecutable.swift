import Foundation

/// The program this process runs.
public enum RunningExecutable {
    /// Its path, symbolic links resolved (a `memprof` linked onto the PATH finds its siblings in
    /// the build folder): Linux's `/proc/self/exe`, read without Foundation; where that cannot be
    /// read, the first argument with its links resolved.
    public static var path: String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &target, Int(PATH_MAX))
        if length > 0 { return String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// The folder that holds it (where SwiftPM builds memprof's other products).
    public static var folder: String {
        let path = path
        return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }
}
