/// Simulation time: whole microseconds from the start of a run (spec §1).
public typealias Microseconds = Int64

/// Memory sizes: whole bytes, with `KB`/`MB`/`GB` as powers of 1024 (spec §1).
public typealias Bytes = Int64

public extension Int64 {
    static let kilobyte: Int64 = 1024
    static let megabyte: Int64 = 1024 * 1024
    static let gigabyte: Int64 = 1024 * 1024 * 1024
    static let second: Int64 = 1_000_000
    static let minute: Int64 = 60_000_000
}

/// A size per time, kept as an exact fraction: `bytes` every `perUs` microseconds.
public struct Rate: Sendable, Hashable, Codable {
    public var bytes: Bytes
    public var perUs: Microseconds

    public init(bytes: Bytes, perUs: Microseconds) {
        precondition(perUs > 0, "a rate needs a positive period")
        self.bytes = bytes
        self.perUs = perUs
    }

    /// Bytes per second, for display.
    public var bytesPerSecond: Double { Double(bytes) * 1e6 / Double(perUs) }
}
