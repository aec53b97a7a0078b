import MemprofCore
import MemprofInput
import MemprofYAMLReader

extension WorkloadParser {
    /// `policy: {freezeDailyBudget: SIZE}`: the `xnu` freezer's daily budget of writes to flash
    /// (`memorystatus_freeze_daily_mb_max`, a sysctl xnu lets be written), in whole megabytes from
    /// 1 MB to 1 TB, for the kernel eras whose budget memprof models (``XNUSettings/freezeDailyBudgetMB``).
    func parseFreezerBudget(_ node: NodeReader, into policy: inout PolicySettings) throws {
        let m = try node.mapping(allowed: Self.policyKeys)
        guard let v = m["freezeDailyBudget"] else { return }
        guard var x = policy.xnu else { throw v.error("freezeDailyBudget is a number of the xnu policy's freezer") }
        guard x.freezeDailyBudgetMB != nil else {
            throw v.error("the freezer of \(x.xnuTag ?? "this kernel") has no daily budget memprof models "
                + "(budgets start with xnu-4903, iOS 12)")
        }
        let bytes = try v.size()
        guard bytes % .megabyte == 0, bytes >= .megabyte, bytes <= 1024 * 1024 * .megabyte else {
            throw v.error("freezeDailyBudget must be a whole number of megabytes from 1MB to 1TB")
        }
        x.freezeDailyBudgetMB = Int(bytes / .megabyte)
        policy.xnu = x
    }
}
