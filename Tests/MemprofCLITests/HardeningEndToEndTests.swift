import Foundation
import MemprofPlatform
import MemprofTestSupport
import Testing

/// Through the built binary: hostile input never crashes memprof (no trap, no raw error) and
/// never leaves debris.
@Suite(.serialized) struct HardeningEndToEndTests {
    static func workload(_ body: String, duration: String = "10m") -> String {
        """
        memprof: 1
        name: hostile
        duration: \(duration)
        apps:
          mail:
        \(body)
        script:
          - {at: 0s, open: mail}
        """
    }

    /// Sizes and durations too large for 64 bits: exit 2, located, naming the key and the
    /// largest value accepted (before: SIGILL from `Bytes(Double)` / `Microseconds(Double)`).
    @Test(arguments: [
        (workload("    launch: {footprint: 99999999999999999999GB}"),
         "hostile.yaml:6:25: apps.mail.launch.footprint: '99999999999999999999GB' is too large; the largest size accepted is 4096GB"),
        (workload("    launch: {footprint: 40MB}", duration: "99999999999999999h"),
         "hostile.yaml:3:11: duration: '99999999999999999h' is too long; the largest duration accepted is 87600h (ten years)"),
        (workload("    launch: {footprint: 40MB}\n    growth: 99999999999999GB/s"),
         "hostile.yaml:7:13: apps.mail.growth: '99999999999999GB' is too large; the largest size accepted is 4096GB"),
        (workload("    launch: {footprint: 40MB}") + "\n  - {at: 9999999999999999999999s, home: true}",
         "hostile.yaml:9:10: script[1].at: '9999999999999999999999s' is too long; the largest duration accepted is 87600h (ten years)"),
        ("memprof: 1\nname: x\nduration: 1m\ndevice: {preset: iphone-6-plus, cpuScale: 1e308}\napps: {a: {launch: {footprint: 1MB}}}",
         "hostile.yaml:4:43: device.cpuScale: '1e308' is too large; the largest value accepted is 1000"),
        ("memprof: 99999999999:99999999999:99999999999\nname: x\nduration: 1m\napps: {a: {launch: {footprint: 1MB}}}",
         "hostile.yaml:1:10: memprof: expected a whole number, found '99999999999:99999999999:99999999999'"),
        ("memprof: 1\nname: x\nseed: 99999999999999999999999\nduration: 1m\napps: {a: {launch: {footprint: 1MB}}}",
         "hostile.yaml:3:7: seed: '99999999999999999999999' is too large; the largest whole number accepted is"),
    ])
    func overflowingWorkloadNumbersAreBadInput(text: String, expected: String) throws {
        let dir = try Scratch.makeDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("hostile.yaml"), atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let outcome = try ProcessRunner.memprof([command, "hostile.yaml"], in: dir)
            #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("memprof: " + expected), "\(command): \(outcome.stderr)")
        }
        #expect(Scratch.listing(dir) == ["hostile.yaml"])
    }

    /// Budget limits and report numbers at the edge of 64 bits: exit 2 with the key and the
    /// largest value accepted (before: `check` and `compare` trapped formatting them).
    @Test func overflowingBudgetsAndReportsAreBadInput() throws {
        let dir = try Scratch.makeDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "r"], in: dir).status == 0)
        try "summary: {evictions: {min: 1e308}}\n".write(to: dir.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        let check = try ProcessRunner.memprof(["check", "r", "--budget", "b.yaml"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr == "memprof: b.yaml:1:28: summary.evictions.min: '1e308' is too large; "
                + "the largest number accepted is 9007199254740992 (2^53)\n")

        let data = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
        var report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var summary = try #require(report["summary"] as? [String: Any])
        summary["evictions"] = Int64.max
        report["summary"] = summary
        try JSONSerialization.data(withJSONObject: report).write(to: dir.appendingPathComponent("huge.json"))
        let compare = try ProcessRunner.memprof(["compare", "r", "huge.json"], in: dir)
        #expect(compare.status == 2, "\(compare.stdout)")
        #expect(compare.stderr.contains("summary.evictions is 9.223372036854776e+18, too large; the largest value accepted is 9007199254740992"),
                "\(compare.stderr)")
    }

    /// The workload a report folder's three files come from, or why they are not one complete,
    /// consistent report.
    static func reportInFolder(_ dir: URL) -> Result<String, FolderProblem> {
        let names = Scratch.listing(dir)
        guard names == ["report.html", "report.json", "trace.json"] else { return .failure(FolderProblem(why: "files \(names)")) }
        guard let data = try? Data(contentsOf: dir.appendingPathComponent("report.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let run = json["run"] as? [String: Any], let workload = run["workload"] as? String else {
            return .failure(FolderProblem(why: "report.json is not a whole report"))
        }
        for other in ["report.html", "trace.json"] {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(other), encoding: .utf8),
                  text.contains(workload),
                  text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(other == "trace.json" ? "}" : "</html>") else {
                return .failure(FolderProblem(why: "\(other) is not the whole file of the \(workload) run"))
            }
        }
        return .success(workload)
    }

    /// SIGKILL at many moments of the write phase (found by watching for the run's temporary
    /// folder, and at spread-out times around the end of the run): the folder always holds one
    /// complete report of one run, and once the next run is done, exactly that run's files and
    /// no debris remain (before: `report.json.tmp-<pid>` files stayed, and a kill between two
    /// renames left report.json of one run beside report.html of another).
    @Test(.timeLimit(.minutes(3))) func killedRunsLeaveOneCompleteReportAndNoDebris() throws {
        let root = try Scratch.makeDirectory("kill")
        defer { try? FileManager.default.removeItem(at: root) }
        let workloads = ["observer-leaks", "ipad-afternoon"]
        #expect(try ProcessRunner.memprof(["run", workloads[0], "--out", "k", "--no-sampling"], in: root).status == 0)
        let folder = root.appendingPathComponent("k")
        var killedMidWrite = 0
        for attempt in 0..<48 {
            let process = Process()
            process.executableURL = Repository.memprofBinary
            process.arguments = ["run", workloads[attempt % 2], "--out", "k", "--no-sampling"]
            process.currentDirectoryURL = root
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if attempt % 3 == 0 {
                // At a spread-out moment, from the start to past the usual end of the run.
                usleep(UInt32(attempt) * 12_000)
            } else {
                // Within a few milliseconds of the temporary folder appearing: the write phase.
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning, Date() < deadline,
                      !Scratch.listing(root).contains(where: { $0.hasPrefix(".k.memprof-") }) { usleep(200) }
                usleep(UInt32(attempt % 8) * 700)
            }
            let wasRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if wasRunning, (try? FileManager.default.contentsOfDirectory(atPath: root.path))?
                .contains(where: { $0.hasPrefix(".k.memprof-") }) == true { killedMidWrite += 1 }
            if case .failure(let problem) = Self.reportInFolder(folder) {
                Issue.record("after kill \(attempt): \(problem.why)")
            }
        }
        // The kills did land while files were being written (each left a temporary folder).
        #expect(killedMidWrite >= 5, "only \(killedMidWrite) kills landed mid-write")
        let next = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "k", "--no-sampling"], in: root)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["k"])
        #expect(try Self.reportInFolder(folder).get() == "ipad-afternoon")
    }

    /// A run into a folder of an earlier sampled run leaves no stack files of that run behind,
    /// and files memprof did not write are kept.
    @Test func aReportFolderHoldsExactlyOneRunsFiles() throws {
        let root = try Scratch.makeDirectory("stale")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ProcessRunner.memprof(["run", "background-heavy", "--out", "r"], in: root).status == 0)
        #expect(Scratch.listing(root.appendingPathComponent("r")).contains("stacks.folded"))
        try "mine".write(to: root.appendingPathComponent("r/notes.txt"), atomically: true, encoding: .utf8)
        let unsampled = try ProcessRunner.memprof(["run", "background-heavy", "--out", "r", "--no-sampling"], in: root)
        #expect(unsampled.status == 0)
        // Exactly what an unsampled run writes into a new folder (its kernels' allocation files
        // included, no CPU stacks), and the user's file.
        #expect(try ProcessRunner.memprof(["run", "background-heavy", "--out", "fresh", "--no-sampling"], in: root).status == 0)
        let own = Scratch.listing(root.appendingPathComponent("fresh"))
        #expect(!own.contains("stacks.folded") && own.contains("report.json"))
        #expect(Scratch.listing(root.appendingPathComponent("r")) == (own + ["notes.txt"]).sorted())
        try FileManager.default.removeItem(at: root.appendingPathComponent("fresh"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["r"])
    }

    /// Output that cannot be written: one `memprof:` sentence naming the path and the cause,
    /// exit 3 (2 for an --out that is a file), and nothing of the run left behind (before: exit 1
    /// with a raw `NSCocoaErrorDomain Code=640` text and a 1 MB temporary file that made every
    /// later run fail). A full disk is a 1 MB tmpfs where the machine lets us mount one (root),
    /// otherwise a file-size limit.
    @Test func fullDiskReadOnlyAndFilePathsGiveASentence() throws {
        let root = try Scratch.makeDirectory("io")
        defer { try? FileManager.default.removeItem(at: root) }
        try "x".write(to: root.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let onFile = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "file"], in: root)
        #expect(onFile.status == 2)
        #expect(onFile.stderr == "memprof: \(root.path)/file is a file, not a folder; give --out a folder (or a path that does not exist yet)\n")

        let small = root.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mounted = (try? ProcessRunner.run(command: "mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path]))?.status == 0
        defer { if mounted { _ = try? ProcessRunner.run(command: "umount", [small.path]) } }
        for _ in 0..<2 {
            // The second run into the same full place fails the same way: nothing was left behind.
            let full = mounted
                ? try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "small/r"], in: root)
                : try ProcessRunner.run(command: "sh", ["-c", "ulimit -f 100; exec \"$0\" run ipad-afternoon --out small/r",
                                                        Repository.memprofBinary.path], in: root)
            #expect(full.status == 3, "\(full.stderr)")
            let cause = mounted ? "no space left on device" : "file too large (over the file-size limit)"
            #expect(full.stderr.hasPrefix("memprof: \(cause) writing "), "\(full.stderr)")
            #expect(full.stderr.hasSuffix(" to \(small.path)/r\n"), "\(full.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == [])
        }

        if mounted {
            _ = try ProcessRunner.run(command: "mount", ["-o", "remount,ro", small.path])
            let readOnly = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "small/r"], in: root)
            #expect(readOnly.status == 3)
            #expect(readOnly.stderr == "memprof: read-only file system creating a folder in \(small.path)\n")
        }
    }

    /// A small file that describes an absurd amount of work is refused up front by validate and
    /// run alike, saying how much it describes (before: validate said ok, and run climbed past
    /// 2 GB of memory in seconds); the limit is a flag.
    @Test func absurdWorkIsRefusedUpFront() throws {
        let dir = try Scratch.makeDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            memprof: 1
            name: busy
            duration: 24h
            apps:
              mail: {launch: {footprint: 40MB}}
              safari: {launch: {footprint: 40MB}}
            generate: {switchEvery: 1us}
            """.write(to: dir.appendingPathComponent("busy.yaml"), atomically: true, encoding: .utf8)
        let expected = "memprof: busy.yaml: generate.switchEvery: the workload describes about 86,400,000,000 scheduled "
            + "occurrences (86,400,000,000 app switches); memprof runs at most 5,000,000 (raise it with --max-occurrences)\n"
        for command in ["validate", "run"] {
            let outcome = try ProcessRunner.memprof([command, "busy.yaml"], in: dir)
            #expect(outcome.status == 2)
            #expect(outcome.stderr == expected)
        }
        let raised = try ProcessRunner.memprof(["validate", "busy.yaml", "--max-occurrences", "100000000000"], in: dir)
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(Scratch.listing(dir) == ["busy.yaml"])
    }

    /// Broken reports name their place and say what is wrong in words (before: "not a JSON
    /// object" for all, raw `DecodingError` text, and "You don't have permission" for /dev/null);
    /// a duplicate key and a negative count are refused.
    @Test func brokenReportsAreLocated() throws {
        let dir = try Scratch.makeDirectory("reports")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "observer-leaks", "--out", "r", "--no-sampling"], in: dir).status == 0)
        let good = try String(contentsOf: dir.appendingPathComponent("r/report.json"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("cut.json", String(good.prefix(40)), "cut.json:1:37: not a memprof report (a string that never ends)"),
            ("empty.json", "", "empty.json:1:1: not a memprof report (the file is empty)"),
            ("twice.json", good.replacingOccurrences(of: "{\"apps\":{", with: "{\"apps\":{\"x\":1,\"x\":2,"),
             "twice.json:1:16: not a memprof report (duplicate key 'x')"),
            ("negative.json", good.replacingOccurrences(of: "\"evictions\":0", with: "\"evictions\":-3"),
             "negative.json: not a memprof report ("),
            ("missing.json", good.replacingOccurrences(of: "\"tool\":{\"name\":\"memprof\",", with: "\"tool\":{"),
             "missing.json: not a memprof report (does not match memprof.report/1: tool: missing key 'name')"),
        ]
        for (name, text, expected) in cases {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let outcome = try ProcessRunner.memprof(["compare", "r", name], in: dir)
            #expect(outcome.status == 2, "\(name): \(outcome.stdout)")
            #expect(outcome.stderr.hasPrefix("memprof: " + expected), "\(name): \(outcome.stderr)")
        }
        let negative = try ProcessRunner.memprof(["check", "negative.json", "--budget", "/dev/null"], in: dir)
        #expect(negative.stderr.contains("is -3; counts, sizes and times are 0 or more"), "\(negative.stderr)")
        let device = try ProcessRunner.memprof(["compare", "r", "/dev/null"], in: dir)
        #expect(device.status == 2)
        #expect(device.stderr == "memprof: /dev/null: cannot read it (it is not a regular file)\n")
    }
}

struct FolderProblem: Error {
    var why: String
}
