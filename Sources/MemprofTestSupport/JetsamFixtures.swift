/// JetsamEvent `.ips` reports made for tests, in the layout of the published iOS 18.5 excerpt
/// (Tests/MemprofFieldTests/Fixtures/ios18-iphone14-excerpt.ips): a header line, then the body.
public enum JetsamFixtures {
    /// One process of a made report.
    public struct Process: Sendable {
        public var name: String
        public var states: [String]
        public var priority: Int
        public var rpages: Int64
        public var reason: String?
        public var killDelta: Int?

        public init(name: String, states: [String], priority: Int, rpages: Int64, reason: String? = nil,
                    killDelta: Int? = nil) {
            self.name = name
            self.states = states
            self.priority = priority
            self.rpages = rpages
            self.reason = reason
            self.killDelta = killDelta
        }
    }

    /// A report of `processes` on an iPhone 14 (iOS 18.5, 16 KB pages) with `free` free pages.
    public static func report(_ processes: [Process], free: Int64 = 3870, product: String = "iPhone14,7") -> String {
        var out = #"{"bug_type":"298","timestamp":"2025-05-28 01:35:47.00 -0500","os_version":"iPhone OS 18.5 (22F76)","#
            + #""roots_installed":0,"incident_id":"E9D646D1-08CF-4886-AF59-2296BF8C756B"}"# + "\n"
        out += """
            {
              "build" : "iPhone OS 18.5 (22F76)",
              "product" : "\(product)",
              "incident" : "E9D646D1-08CF-4886-AF59-2296BF8C756B",
              "date" : "2025-05-28 01:35:47.63 -0500",
              "memoryStatus" : {
              "compressorSize" : 0,
              "pageSize" : 16384,
              "uncompressed" : 0,
              "memoryPages" : {"active" : 1000, "wired" : 1000, "free" : \(free)}
            },
              "largestProcess" : "\(processes.max { $0.rpages < $1.rpages }?.name ?? "kernel_task")",
              "processes" : [

            """
        for (i, p) in processes.enumerated() {
            let states = p.states.map { "\"\($0)\"" }.joined(separator: ", ")
            out += "  {\"states\" : [\(states)], \"rpages\" : \(p.rpages), \"priority\" : \(p.priority), "
                + "\"pid\" : \(100 + i), \"name\" : \"\(p.name)\""
            if let reason = p.reason { out += ", \"reason\" : \"\(reason)\"" }
            if let delta = p.killDelta { out += ", \"killDelta\" : \(delta)" }
            out += "}" + (i + 1 < processes.count ? ",\n" : "\n")
        }
        return out + "]\n}\n"
    }

    /// `count` suspended apps of 64 pages each, every one killed for `vm-pageshortage`: a small
    /// file whose replay makes a kill per app with every other app in memory.
    public static func suspendedAppsKilled(_ count: Int) -> String {
        report((0..<count).map {
            Process(name: "App\($0)", states: ["suspended"], priority: 0, rpages: 64, reason: "vm-pageshortage")
        })
    }
}
