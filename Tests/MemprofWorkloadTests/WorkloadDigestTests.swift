import Testing
@testable import MemprofWorkload

@Suite struct WorkloadDigestTests {
    /// FIPS 180-2 test vectors: the digest report.json's `run.workloadSha256` is made with.
    @Test func sha256MatchesTheStandardVectors() {
        #expect(WorkloadLoader.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(WorkloadLoader.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(WorkloadLoader.sha256Hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
