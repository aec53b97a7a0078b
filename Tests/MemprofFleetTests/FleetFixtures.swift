import Foundation
import MemprofFleet
import MemprofTestSupport

/// A small workload whose `generate` section makes every seed a different day, and sweeps of it.
enum FleetFixtures {
    static let workload = """
        memprof: 1
        name: tiny-day
        duration: 2h
        device: iphone-6-plus
        apps:
          mail:
            launch: {footprint: 45MB}
            onBackground: {release: 10MB}
            modes: [fetch]
            fetch: {interval: 15m, time: 4s}
          maps:
            launch: {footprint: 220MB}
          game:
            launch: {footprint: 420MB}
          safari:
            launch: {footprint: 160MB}
            growth: 2MB/min
            maxFootprint: 300MB
        generate:
          switchEvery: 3m
          weights: {mail: 5, maps: 2, game: 2, safari: 3}
          homeEvery: 20m
        """

    static func sweep(seeds: String = "1..24", matrix: String = """
        matrix:
          device: [iphone-6-plus, ipad-air-2]
          apps.game.launch.footprint: [420MB, 520MB]
        """, extra: String = "") -> String {
        "memprof: 1\nsweep: tiny\nworkload: tiny.yaml\nseeds: \(seeds)\n\(matrix)\n\(extra)"
    }

    /// A folder with tiny.yaml and sweep.yaml.
    static func folder(sweep text: String = sweep()) throws -> URL {
        let dir = try Scratch.makeDirectory("fleet")
        try workload.write(to: dir.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
        try text.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func plan(_ dir: URL, shard: SweepPlan.Shard? = nil) throws -> SweepPlan {
        try SweepPlan(sweep: try SweepFile.load(dir.appendingPathComponent("sweep.yaml").path), shard: shard)
    }

    /// fleet.json without its `host` object, and runs.csv.
    static func comparable(_ dir: URL) throws -> (json: [String: NSObject], csv: Data) {
        let data = try Data(contentsOf: dir.appendingPathComponent("fleet.json"))
        var object = try JSONSerialization.jsonObject(with: data) as! [String: NSObject]
        object.removeValue(forKey: "host")
        return (object, try Data(contentsOf: dir.appendingPathComponent("runs.csv")))
    }

    /// fleet.json's bytes with the `host` object cut out.
    static func bytesWithoutHost(_ dir: URL) throws -> String { try Snapshot.fleetJSONWithoutHost(in: dir) }
}
