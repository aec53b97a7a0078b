// The libFuzzer target of the JetsamEvent readers (MemprofField's JetsamReportReader on the
// JSON scanner, and LowMemoryReportReader), built by scripts/fuzz-ips.sh with their sources.
// Every input must either read or be refused with a located IPSError; nothing may crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPSReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let report = try JetsamReportReader(file: "fuzz.ips").read(bytes)
        precondition(!report.processes.isEmpty, "a report that reads has processes")
        precondition(report.memoryStatus.pageSize > 0, "a report that reads has a page size")
        for p in report.processes {
            precondition(p.rpages >= 0 && !p.name.isEmpty, "a process that reads has a name and pages")
        }
    } catch {
        precondition(error.description.hasPrefix("fuzz.ips:"), "a refusal names the file and line: \(error.description)")
        precondition(error.line >= 1 && error.column >= 1, "a refusal has a line and column: \(error.description)")
    }
    return 0
}
