import Foundation
import MemprofPlatform

/// The memprof repository this test build comes from, and what lives in it.
public enum Repository {
    /// The repository's root folder (the one holding Package.swift).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A script of `scripts/`, by name.
    public static func script(_ name: String) -> String {
        root.appendingPathComponent("scripts").appendingPathComponent(name).path
    }

    /// The committed baseline report of a built-in workload.
    public static func baseline(_ workload: String) -> URL {
        root.appendingPathComponent("Reports/baselines/\(workload)/report.json")
    }

    /// The built `memprof` binary: `$MEMPROF_BIN`, or `.build/debug/memprof` in the repository.
    public static var memprofBinary: URL {
        if let path = ProcessInfo.processInfo.environment["MEMPROF_BIN"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".build/debug/memprof")
    }

    /// A program this package builds next to the test bundle (the examples of spec §8.1 and
    /// libmemprof-preload.so), by file name.
    public static func builtProduct(_ name: String) -> String {
        RunningExecutable.folder + "/" + name
    }
}
