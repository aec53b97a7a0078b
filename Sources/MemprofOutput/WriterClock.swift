import Dispatch
import MemprofPlatform

/// Time a writer spent, in stretches: wall time, and the thread's CPU time (which a machine busy
/// with other work does not inflate).
public struct WriterClock: Sendable {
    public var wallNs: UInt64 = 0
    public var cpuNs: UInt64 = 0

    public init() {}

    /// A moment of the calling thread: wall and CPU time.
    public struct Instant: Sendable {
        public var wall: UInt64
        public var cpu: UInt64

        public static var now: Instant {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Instant(wall: DispatchTime.now().uptimeNanoseconds,
                           cpu: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
        }
    }

    /// Adds the stretch from `start` to `end` (of one thread).
    public mutating func add(_ start: Instant, _ end: Instant) {
        wallNs += end.wall - start.wall
        cpuNs += end.cpu &- start.cpu
    }

    /// Runs `body` and adds the time it took.
    @inline(__always)
    public mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = Instant.now
        defer { add(start, .now) }
        return try body()
    }

    /// Adds another clock's time.
    public mutating func add(_ other: WriterClock) {
        wallNs += other.wallNs
        cpuNs += other.cpuNs
    }
}

/// A file of a report folder, written: the time its writer took (for a file written as the run
/// went, with what it spent meanwhile) and its size.
public struct WrittenFile: Sendable {
    public var name: String
    public var clock: WriterClock
    public var bytes: Int
    /// Whether its text was made while the run went (its clock's CPU time is the writer's thread's).
    public var streamed: Bool

    public init(name: String, clock: WriterClock, bytes: Int, streamed: Bool) {
        self.name = name
        self.clock = clock
        self.bytes = bytes
        self.streamed = streamed
    }
}

extension StreamedFile {
    /// Writes the file from `write`, which hands its text to `flush` in pieces, and finishes it;
    /// the time it took.
    public func write(_ write: (inout JSONWriter, (inout JSONWriter) throws -> Void) throws -> Void) throws -> WriterClock {
        var clock = WriterClock()
        try clock.time {
            var out = JSONWriter(capacity: 1 << 21)
            try write(&out) { try self.append(emptying: &$0) }
            try finish()
        }
        return clock
    }
}
