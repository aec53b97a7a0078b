import Synchronization

/// A named piece of real work that memprof can run and sample (spec §8).
public struct WorkKernel: Sendable {
    /// The name a workload uses in `work: {kernel: NAME}`.
    public var name: String
    /// One line saying what the work does.
    public var summary: String
    /// Names of functions, outermost first, that almost every sample of this work contains in
    /// this order (matched as substrings of the demangled names). Empty when unknown.
    public var expectedChain: [String]
    /// Runs the work over `sizeBytes` bytes, on the calling thread.
    public var run: @Sendable (_ sizeBytes: Int64) -> Void

    public init(
        name: String, summary: String = "", expectedChain: [String] = [],
        run: @escaping @Sendable (_ sizeBytes: Int64) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.expectedChain = expectedChain
        self.run = run
    }
}

/// The kernels a workload can name: four built in (`checksum`, `compress`, `json`, `sort`) and
/// whatever a library user registers.
///
/// ```swift
/// WorkRegistry.register(name: "resize-thumbnails") { size in
///     Thumbnailer.resize(bytes: size)
/// }
/// ```
public enum WorkRegistry {
    public static let builtIn: [WorkKernel] = [
        WorkKernel(
            name: "checksum", summary: "CRC-32 over a 1 MiB buffer, repeated to the size",
            expectedChain: [
                "ChecksumKernel.run(", "ChecksumKernel.checksumBuffer(", "ChecksumKernel.crc32Update(",
            ],
            run: { _ = ChecksumKernel.run(bytes: $0) }),
        WorkKernel(
            name: "compress", summary: "LZ77 compression of generated text, 256 KiB blocks",
            expectedChain: ["CompressKernel.run(", "CompressKernel.compressBlock("],
            run: { _ = CompressKernel.run(bytes: $0) }),
        WorkKernel(
            name: "json", summary: "JSONEncoder + JSONDecoder round trips of 400 records",
            expectedChain: ["JSONKernel.run(", "JSONKernel.roundTrip("],
            run: { _ = JSONKernel.run(bytes: $0) }),
        WorkKernel(
            name: "sort", summary: "sorting copies of up to 65,536 24-byte records",
            expectedChain: ["SortKernel.run(", "SortKernel.sortRecords("],
            run: { _ = SortKernel.run(bytes: $0) }),
    ]

    private static let kernels = Mutex(
        Dictionary(uniqueKeysWithValues: builtIn.map { ($0.name, $0) }))

    /// Registers (or replaces) work under `name`; `work` receives the size in bytes.
    public static func register(
        name: String, summary: String = "", expectedChain: [String] = [],
        _ work: @escaping @Sendable (_ sizeBytes: Int64) -> Void
    ) {
        register(WorkKernel(name: name, summary: summary, expectedChain: expectedChain, run: work))
    }

    public static func register(_ kernel: WorkKernel) {
        kernels.withLock { $0[kernel.name] = kernel }
    }

    /// Removes a kernel a user registered; built-in kernels stay.
    public static func unregister(name: String) {
        guard !builtIn.contains(where: { $0.name == name }) else { return }
        _ = kernels.withLock { $0.removeValue(forKey: name) }
    }

    public static func kernel(named name: String) -> WorkKernel? {
        kernels.withLock { $0[name] }
    }

    /// Every registered name, sorted.
    public static var names: [String] {
        kernels.withLock { $0.keys.sorted() }
    }
}
