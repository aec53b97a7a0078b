import MemprofInput
import MemprofWorkload

/// Sweeps that ship inside memprof: `memprof sweep NAME` runs one without a file.
public enum BuiltinSweeps {
    public static let all: [(name: String, summary: String, yaml: String)] = [
        ("phone-fleet", "phone-day over 200 seeds on both devices under both policies (800 runs)", """
            memprof: 1
            sweep: phone-fleet
            workload: phone-day
            seeds: 1..200
            matrix:
              device: [iphone-6-plus, ipad-air-2]
              policy: [seed-2015, xnu]
            """),
        ("phone-day-200", "phone-day over 200 seeds: the population a CI fleet compare pairs by seed", """
            memprof: 1
            sweep: phone-day-200
            workload: phone-day
            seeds: 1..200
            """),
        ("today-phones", "phone-day-2026 over 20 seeds on six of today's iPhones, each on the day's iOS 18.5 (120 runs)", """
            memprof: 1
            sweep: today-phones
            workload: phone-day-2026
            seeds: 1..20
            matrix:
              device: [iphone-11, iphone-se-3, iphone-13, iphone-14-pro, iphone-15, iphone-16-pro]
            """),
    ]

    static func named(_ name: String) -> String? { all.first { $0.name == name }?.yaml }

    static func unknown(_ name: String) -> WorkloadError {
        var message = "no such file, and no built-in sweep named '\(name)'"
        if let near = Spelling.nearest(to: name, among: all.map(\.name)) { message += " (did you mean '\(near)'?)" }
        message += "; built-in: \(all.map(\.name).joined(separator: ", "))"
        return WorkloadError(file: name, line: 0, column: 0, keyPath: "", message: message)
    }
}
