import Foundation
import MemprofPlatform

/// What a finished process left: its exit status and what it printed.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Standard output and error, in that order (for tools whose checks print to either).
    public var output: String { stdout + stderr }
}

/// The one way tests start processes: the built memprof, the check scripts, and the tools they
/// need (perl, python3, go).
public enum ProcessRunner {
    /// Runs `executable` with `arguments` in `directory`, with `environment` added to this
    /// process's, and waits for it.
    @discardableResult
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> ProcessOutcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes at once, so a child that fills one while we wait on the other cannot stall.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = readToEnd(err.fileHandleForReading) }
        let outData = readToEnd(out.fileHandleForReading)
        group.wait()
        process.waitUntilExit()
        return ProcessOutcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                              stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads a pipe to its end with read(2), retrying when a signal interrupts it. Foundation's
    /// `readDataToEndOfFile` traps on EINTR, which the sampler's SIGPROF causes when sampling
    /// tests run in this process at the same time.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let fd = handle.fileDescriptor
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[0..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }

    /// Runs a command found on `PATH` (through `/usr/bin/env`).
    @discardableResult
    public static func run(command: String, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> ProcessOutcome {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [command] + arguments, in: directory, environment: environment)
    }

    /// Runs the built memprof (``Repository/memprofBinary``).
    @discardableResult
    public static func memprof(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> ProcessOutcome {
        try run(Repository.memprofBinary, arguments, in: directory, environment: environment)
    }

    /// Whether `pid` still runs; a zombie waiting for its new parent to reap it has ended. Its end
    /// is delivered at once, but the kernel may take a moment to tear it down: asked for up to 2 s.
    public static func isRunning(_ pid: pid_t) -> Bool {
        for _ in 0..<200 {
            // nil once the process has ended or is a zombie (MemprofPlatform's `ProcessStartTime`).
            guard ProcessStartTime.of(pid) != nil else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Whether a command runs and exits 0 (for tests that need a tool: perl, python3 modules, go).
    public static func succeeds(command: String, _ arguments: [String]) -> Bool {
        (try? run(command: command, arguments).status) == 0
    }
}
