/// Deterministic inputs for the work kernels, and a way to keep results alive.
enum WorkInput {
    /// xorshift64*: fast, seeded, repeatable.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    static let words = [
        "memory", "pressure", "suspend", "resume", "fetch", "push", "task", "jetsam", "page",
        "resident", "compressed", "swap", "budget", "foreground", "background", "terminate",
    ]

    static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 24) }
    }

    /// Text of words from a small vocabulary, so it compresses.
    static func text(count: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(count + 16)
        while text.count < count {
            text += Array(words[Int(generator.next() % UInt64(words.count))].utf8)
            text.append(generator.next() % 9 == 0 ? 10 : 32)
        }
        return Array(text.prefix(count))
    }

    /// Publishes a result so the optimizer cannot drop the work that made it.
    @inline(never)
    static func keep<T>(_ value: T) -> T {
        sink &+= 1
        return value
    }

    nonisolated(unsafe) static var sink = 0
}
