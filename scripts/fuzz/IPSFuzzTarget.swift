// The libFuzzer target of the JetsamEvent .ips reader (MemprofField's JSONNodeParser and
// JetsamReportReader), built by scripts/fuzz-ips.sh with the reader's sources.
// Every input must either read or be refused with a located IPSError; nothing may crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPSReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let report = try JetsamReportReader(file: "fuzz.ips").read(bytes)
        precondition(!report.processes.isEmpty, "a report that reads has processes")
        precondition(report.memoryStatus.pageSize > 0, "a report that reads has a page size")
    } catch {
        precondition(error.description.hasPrefix("fuzz.ips"), "a refusal names the file: \(error.description)")
    }
    return 0
}
