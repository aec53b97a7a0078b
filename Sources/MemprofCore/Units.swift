/// Simulation time: whole microseconds from the start of a run (spec §1).
public typealias Microseconds = Int64

/// Memory sizes: whole bytes, with `KB`/`MB`/`GB` as powers of 1024 (spec §1).
public typealias Bytes = Int64

extension Int64 {
    public static let kilobyte: Int64 = 1024
    public static let megabyte: Int64 = 1024 * 1024
    public static let gigabyte: Int64 = 1024 * 1024 * 1024
    public static let second: Int64 = 1_000_000
    public static let minute: Int64 = 60_000_000
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
