import Foundation

/// When a process started, to tell a process from a later one that reuses its id.
public enum ProcessStartTime {
    /// A process's start time in clock ticks since boot (field 22 of Linux's `/proc/<pid>/stat`),
    /// or nil when no such process runs. Where there is no `/proc`, 0 for a process that runs
    /// (`kill(pid, 0)`): its id alone then names it.
    public static func of(_ pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            #if os(Linux)
            return nil
            #else
            return kill(pid, 0) == 0 ? 0 : nil
            #endif
        }
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
        // A zombie has finished.
        return fields[0] == "Z" ? nil : start
    }
}
