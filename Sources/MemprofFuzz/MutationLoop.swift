import Foundation
import MemprofCore

/// A seeded mutation loop: where libFuzzer is not available (or not built), it feeds a target
/// mutants of its seeds — byte flips, insertions, deletions, duplicated and spliced chunks, and
/// tokens that have broken parsers before (huge numbers, YAML anchors and tags, control bytes).
/// Inputs the target accepts join the corpus, so later mutants start from valid files.
///
/// The input being run is kept in a memory-mapped file (`current-<target>`, in `crashDirectory`)
/// so that, if the process dies, the input that killed it is on disk; a watchdog aborts the
/// process when one input runs longer than `hangSeconds`, leaving that input the same way.
public struct MutationLoop {
    public var target: FuzzTarget
    public var seed: UInt64
    public var crashDirectory: URL
    public var hangSeconds: Double = 10
    /// The largest mutant, in bytes.
    public var maxLength = 4 << 20

    public init(target: FuzzTarget, seed: UInt64, crashDirectory: URL) {
        self.target = target
        self.seed = seed
        self.crashDirectory = crashDirectory
    }

    public struct Outcome: Sendable {
        public var executions: Int
        public var seconds: Double
        public var corpus: Int
        public var accepted: Int
    }

    static let tokens: [String] = [
        "99999999999999999999", "9223372036854775807", "-9223372036854775808", "1e308", "-1", "0", "-0", "nan", ".inf",
        "4096GB", "87600h", "1us", "0s", "100%", "1e300h", "&a ", "*a", "!!python/object ", "<<: *a", "? ", "- ", ": ",
        "{", "}", "[", "]", "\"", "'", "#", "\n", "\t", "\u{0}", "\u{7}", "\u{85}", "\u{FEFF}", "é", "\\u0000",
        "apps", "script", "generate", "switchEvery: 1us", "summary", "metrics", "*", "events", "schema",
    ].map { $0 }

    /// Runs until `seconds` have passed or `maxExecutions` inputs have run.
    public func run(seconds: Double, maxExecutions: Int = .max) throws -> Outcome {
        try FileManager.default.createDirectory(at: crashDirectory, withIntermediateDirectories: true)
        let current = try CurrentInput(url: crashDirectory.appendingPathComponent("current-\(target.name)"), capacity: maxLength)
        var corpus = target.seeds().filter { $0.count <= maxLength }
        if corpus.isEmpty { corpus = [Data("{}".utf8)] }
        let seedCount = corpus.count
        var generator = SeededGenerator(seed: seed)
        let watchdog = Watchdog(limit: hangSeconds, current: current)
        watchdog.start()
        let started = Date()
        var executions = 0, accepted = 0
        // Every seed as it is, then mutants.
        for input in corpus {
            current.store(input)
            if target.run(input) { accepted += 1 }
            executions += 1
        }
        while executions < maxExecutions, Date().timeIntervalSince(started) < seconds {
            // The smaller of two picks: small inputs run faster, so most time goes to them.
            let a = corpus[Int(generator.next() % UInt64(corpus.count))]
            let b = corpus[Int(generator.next() % UInt64(corpus.count))]
            let base = a.count <= b.count ? a : b
            let input = mutate(base, other: corpus[Int(generator.next() % UInt64(corpus.count))], &generator)
            current.store(input)
            if target.run(input) {
                accepted += 1
                if corpus.count < seedCount + 2_000 { corpus.append(input) }
            }
            executions += 1
        }
        watchdog.stop()
        current.remove()
        return Outcome(executions: executions, seconds: Date().timeIntervalSince(started), corpus: corpus.count,
                       accepted: accepted)
    }

    func mutate(_ input: Data, other: Data, _ g: inout SeededGenerator) -> Data {
        var bytes = [UInt8](input)
        func index(_ count: Int) -> Int { count == 0 ? 0 : Int(g.next() % UInt64(count)) }
        for _ in 0...(g.next() % 4) {
            switch g.next() % 8 {
            case 0 where !bytes.isEmpty:
                bytes[index(bytes.count)] ^= UInt8(1 << (g.next() % 8))
            case 1:
                bytes.insert(UInt8(truncatingIfNeeded: g.next()), at: index(bytes.count + 1))
            case 2 where !bytes.isEmpty:
                let at = index(bytes.count)
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + index(16)))
            case 3, 4:
                let token = Array(Self.tokens[index(Self.tokens.count)].utf8)
                let at = index(bytes.count + 1)
                if g.next() % 2 == 0, at < bytes.count {
                    // Replace the number or word at `at` with the token.
                    var end = at
                    while end < bytes.count, bytes[end] != 0x20, bytes[end] != 0x0A, bytes[end] != 0x2C, bytes[end] != 0x7D { end += 1 }
                    bytes.replaceSubrange(at..<end, with: token)
                } else {
                    bytes.insert(contentsOf: token, at: at)
                }
            case 5 where !bytes.isEmpty:
                let at = index(bytes.count)
                let chunk = bytes[at..<min(bytes.count, at + 1 + index(64))]
                bytes.insert(contentsOf: chunk, at: index(bytes.count + 1))
            case 6 where !other.isEmpty:
                let o = [UInt8](other)
                let from = index(o.count)
                let chunk = o[from..<min(o.count, from + 1 + index(256))]
                let at = index(bytes.count + 1)
                bytes.replaceSubrange(at..<min(bytes.count, at + chunk.count), with: chunk)
            default:
                if !bytes.isEmpty { bytes[index(bytes.count)] = UInt8(truncatingIfNeeded: g.next()) }
            }
        }
        return Data(bytes.prefix(maxLength))
    }
}

/// The input being run, in a memory-mapped file: 8 bytes of length, then the bytes.
final class CurrentInput: @unchecked Sendable {
    let url: URL
    let capacity: Int
    private let base: UnsafeMutableRawPointer
    private let fd: Int32

    init(url: URL, capacity: Int) throws {
        self.url = url
        self.capacity = capacity
        fd = open(url.path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0, ftruncate(fd, off_t(capacity + 8)) == 0,
              let p = mmap(nil, capacity + 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        base = p
    }

    func store(_ data: Data) {
        let n = min(data.count, capacity)
        base.storeBytes(of: UInt64(n), as: UInt64.self)
        data.withUnsafeBytes { base.advanced(by: 8).copyMemory(from: $0.baseAddress!, byteCount: n) }
        startedAt = DispatchTime.now().uptimeNanoseconds
    }

    /// When the current input started (for the watchdog).
    nonisolated(unsafe) var startedAt: UInt64 = DispatchTime.now().uptimeNanoseconds

    func remove() {
        munmap(base, capacity + 8)
        close(fd)
        unlink(url.path)
    }

    /// The bytes of a `current-…` file a dead run left.
    static func read(_ url: URL) -> Data? {
        guard let data = FileManager.default.contents(atPath: url.path), data.count >= 8 else { return nil }
        let n = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        return data.dropFirst(8).prefix(Int(n))
    }
}

/// Aborts the process when one input has run for longer than the limit (a hang).
final class Watchdog: @unchecked Sendable {
    let limit: Double
    let current: CurrentInput
    private var running = true

    init(limit: Double, current: CurrentInput) {
        self.limit = limit
        self.current = current
    }

    func start() {
        Thread.detachNewThread { [self] in
            while running {
                usleep(200_000)
                // Read the start first: the loop may start a new input between the two reads.
                let started = current.startedAt
                let now = DispatchTime.now().uptimeNanoseconds
                let elapsed = now > started ? Double(now - started) / 1e9 : 0
                if running && elapsed > limit {
                    FileHandle.standardError.write(Data("memprof-fuzz: hang: one input ran for over \(limit) s\n".utf8))
                    abort()
                }
            }
        }
    }

    func stop() { running = false }
}
