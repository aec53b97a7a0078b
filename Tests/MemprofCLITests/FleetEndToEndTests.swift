import Foundation
import MemprofPlatform
import MemprofTestSupport
import Testing

/// Fleets through the built binary: sweep, shard, merge, and their bad input.
@Suite(.serialized) struct FleetEndToEndTests {
    static let sweep = """
        memprof: 1
        sweep: small-phones
        workload: phone-day
        seeds: 1..6
        matrix:
          device: [iphone-6-plus, ipad-air-2]
        """

    @Test func sweepWritesTheFleetAndShardsMergeToTheSameBytes() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let whole = try ProcessRunner.memprof(["sweep", "sweep.yaml"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("small-phones: phone-day, seeds 1..6, 2 cells, 12 of 12 runs"))
        #expect(whole.stdout.contains("device=iphone-6-plus"))
        let listing = Scratch.listing(dir.appendingPathComponent("Reports/small-phones"))
        #expect(listing.contains("fleet.json") && listing.contains("runs.csv"))
        for k in 1...2 {
            let shard = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--shard", "\(k)/2", "--threads", "1"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merge = try ProcessRunner.memprof(["merge", "Reports/small-phones-shard-2-of-2", "Reports/small-phones-shard-1-of-2",
                                               "--out", "merged"], in: dir)
        #expect(merge.status == 0, "\(merge.stderr)")
        let a = dir.appendingPathComponent("Reports/small-phones"), b = dir.appendingPathComponent("merged")
        #expect(try Data(contentsOf: a.appendingPathComponent("runs.csv")) == Data(contentsOf: b.appendingPathComponent("runs.csv")))
        #expect(try withoutHost(a) == withoutHost(b))
        // The worst seed's replay line runs, and gives the run the sweep counted.
        let fleet = try JSONSerialization.jsonObject(with: Data(contentsOf: a.appendingPathComponent("fleet.json"))) as! [String: Any]
        let cell = (fleet["cells"] as! [[String: Any]])[0]
        let cold = (cell["metrics"] as! [String: Any])["summary.coldLaunches"] as! [String: Any]
        let worst = (cold["worst"] as! [[String: Any]])[0]
        let replay = (worst["replay"] as! String).split(separator: " ").dropFirst().map(String.init)
        let run = try ProcessRunner.memprof(replay + ["--out", "replay", "--no-sampling"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("replay/report.json"))) as! [String: Any]
        #expect((report["summary"] as! [String: Any])["coldLaunches"] as? Int == worst["value"] as? Int)
    }

    /// A fleet folder is replaced in one step like a report folder: a shard's partial
    /// result over a whole sweep keeps no fleet.html of the earlier one; a dead sweep's staging
    /// folder is removed by the next sweep beside it; a full disk is one sentence, exit 3, and
    /// nothing of the sweep is left behind (no raw Cocoa text, no `.tmp-` files).
    @Test func fleetFoldersAreReplacedWholeAndFailuresLeaveNothing() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sweep.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let whole = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--out", "out"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(Scratch.listing(dir.appendingPathComponent("out")) == ["fleet.html", "fleet.json", "runs.csv"])
        // A staging folder of a sweep that died (its pid runs nothing) waits beside the folder.
        var deadPid: Int32 = 4_000_000
        while ProcessStartTime.of(deadPid) != nil { deadPid += 1 }
        let dead = dir.appendingPathComponent(".out.memprof-\(deadPid)-12345")
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        try "run,cell\n".write(to: dead.appendingPathComponent("runs.csv"), atomically: true, encoding: .utf8)
        let shard = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--shard", "1/2", "--out", "out"], in: dir)
        #expect(shard.status == 0, "\(shard.stderr)")
        #expect(Scratch.listing(dir.appendingPathComponent("out")) == ["fleet.json", "runs.csv"])
        #expect(!FileManager.default.fileExists(atPath: dead.path))

        for _ in 0..<2 {
            // The second sweep into the same place fails the same way: nothing was left behind.
            let full = try ProcessRunner.run(command: "sh", ["-c", "ulimit -f 20; exec \"$0\" sweep sweep.yaml --out small",
                                                             Repository.memprofBinary.path], in: dir)
            #expect(full.status == 3, "\(full.stderr)")
            #expect(full.stderr.hasPrefix("memprof: file too large (over the file-size limit) writing "), "\(full.stderr)")
            #expect(full.stderr.hasSuffix(" to \(dir.path)/small\n"), "\(full.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            #expect(left == ["Reports", "out", "sweep.yaml"].filter { left.contains($0) } && !left.contains("small"), "\(left)")
            #expect(!left.contains { $0.contains("memprof-") }, "\(left)")
        }
    }

    func withoutHost(_ dir: URL) throws -> String { try Snapshot.fleetJSONWithoutHost(in: dir) }

    @Test func badSweepFilesAndShardsExit2AndWriteNothing() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, [String], String)] = [
            (Self.sweep.replacingOccurrences(of: "device: [", with: "devcie: ["), [],
             "sweep.yaml:6:3: devcie: unknown key 'devcie' (did you mean 'device'?)"),
            (Self.sweep.replacingOccurrences(of: "ipad-air-2", with: "ipad-air3"), [],
             "sweep.yaml:6:27: device: unknown device 'ipad-air3' (did you mean 'ipad-air-3'?)"),
            (Self.sweep.replacingOccurrences(of: "1..6", with: "6..1"), [], "sweep.yaml:4:8: seeds: the range 6..1 is empty"),
            (Self.sweep.replacingOccurrences(of: "1..6", with: "1..six"), [], "sweep.yaml:4:8: seeds: expected a range"),
            (Self.sweep, ["--shard", "5/4"], "--shard 5/4: expected K/N with 1 ≤ K ≤ N"),
        ]
        for (text, arguments, expected) in cases {
            try text.write(to: dir.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
            let outcome = try ProcessRunner.memprof(["sweep", "sweep.yaml"] + arguments, in: dir)
            #expect(outcome.status == 2, "\(expected)")
            #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
            #expect(Scratch.listing(dir) == ["sweep.yaml"])
        }
        let merge = try ProcessRunner.memprof(["merge", "nowhere", "--out", "m"], in: dir)
        #expect(merge.status == 2 && merge.stderr.contains("nowhere: no fleet.json"))
    }

    /// A fleet compare tells a significant change from one the seeds' luck explains: exit 1 only
    /// for the first (unless within a threshold the user set), and every output carries the mean
    /// change, its interval and the p-value.
    @Test func fleetCompareTellsSignificantFromNot() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "memprof: 1\nsweep: cmp\nworkload: phone-day\nseeds: 1..40\n"
            .write(to: dir.appendingPathComponent("cmp.yaml"), atomically: true, encoding: .utf8)
        for (out, set) in [("base", [String]()), ("game", ["--set", "apps.game.launch.footprint=520MB"]),
                           ("mail", ["--set", "apps.mail.launch.footprint=47MB"])] {
            let outcome = try ProcessRunner.memprof(["sweep", "cmp.yaml", "--out", out] + set, in: dir)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let significant = try ProcessRunner.memprof(["compare", "base", "game", "--markdown", "c.md", "--junit", "c.xml",
                                                     "--json", "c.json", "--html", "c.html"], in: dir)
        #expect(significant.status == 1, "\(significant.output)")
        #expect(significant.stdout.contains("summary.evictions") && significant.stdout.contains("worse"))
        #expect(significant.stdout.contains("95% CI"))
        for file in ["c.md", "c.xml", "c.json", "c.html"] {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("summary.evictions"), "\(file)")
        }
        // Mail's 2 MB more is a significant rise of its own footprints: worse, since no threshold
        // of the user's holds it back; with one, it says whose threshold it stayed within.
        let small = try ProcessRunner.memprof(["compare", "base", "mail"], in: dir)
        #expect(small.status == 1 && small.stdout.contains("apps.mail.peakFootprintBytes"), "\(small.output)")
        let luck = try ProcessRunner.memprof(["compare", "base", "mail", "--all", "--threshold", "10%"], in: dir)
        #expect(luck.status == 0, "\(luck.output)")
        #expect(luck.stdout.contains("not significant") && luck.stdout.contains("same (within your threshold 10%)"), "\(luck.output)")
        let bad = try ProcessRunner.memprof(["compare", "base", "mail", "--alpha", "2"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--alpha must be between 0 and 1"))
    }
}
