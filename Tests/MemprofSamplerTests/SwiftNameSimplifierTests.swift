import Testing

@testable import MemprofSampler

@Suite("Readable Swift names")
struct SwiftNameSimplifierTests {
    @Test("parameter lists become labels; results, closure types and discriminators go", arguments: [
        ("MemprofSampler.ChecksumKernel.crc32Update(Swift.UInt32, Swift.UnsafeBufferPointer<Swift.UInt8>) -> Swift.UInt32",
         "MemprofSampler.ChecksumKernel.crc32Update(_:_:)"),
        ("static MemprofSampler.ChecksumKernel.run(bytes: Swift.Int64) -> Swift.UInt32",
         "static MemprofSampler.ChecksumKernel.run(bytes:)"),
        ("closure #1 @Sendable () -> () in MemprofSampler.WorkerThread.(loop in _B65945233999E0652AB21851E49AAA0F)() -> ()",
         "closure #1 in MemprofSampler.WorkerThread.loop()"),
        ("function signature specialization <Arg[2] = Dead> of static MemprofSampler.ChecksumKernel.checksumBuffer("
            + "_: Swift.UnsafeBufferPointer<Swift.UInt8>, seed: Swift.UInt32) -> Swift.UInt32",
         "specialized static MemprofSampler.ChecksumKernel.checksumBuffer(_:seed:)"),
        ("FoundationEssentials.JSONEncoder.encode<A where A: Swift.Encodable>(A) throws -> FoundationEssentials.Data",
         "FoundationEssentials.JSONEncoder.encode<A>(_:)"),
        ("generic specialization <Swift.Int> of Swift.Array.sort(by: (A, A) throws -> Swift.Bool) throws -> ()",
         "specialized Swift.Array.sort(by:)"),
        ("swift_release", "swift_release"),
        ("broken(name", "broken(name"),
    ])
    func simplify(full: String, short: String) {
        #expect(SwiftNameSimplifier.simplify(full) == short)
    }

    @Test("swift_demangle is used for Swift symbols and C++ names are demangled too")
    func demangle() {
        #expect(Symbolicator.demangle("$sSi") == "Swift.Int")
        #expect(Symbolicator.demangle("_ZNSt9exceptionD1Ev") == "std::exception::~exception()")
        #expect(Symbolicator.demangle("memcpy") == "memcpy")
    }
}
