import Foundation
import MemprofPlatform
import MemprofTestSupport
import Testing

/// Output that never lies and leaves no debris, through the built binary: what is at an output
/// path is written into, standard output that cannot be written is exit status 3, input that is
/// not a regular file is refused, and an interrupted run or sweep removes its staging folder.
@Suite(.serialized) struct OutputSafetyEndToEndTests {
    /// A scratch folder holding a short workload (`commute.yaml`) and its report (`r/`).
    static func folderWithReport() throws -> URL {
        let dir = try Scratch.makeDirectory("output-safety")
        try goodWorkload.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        let run = try ProcessRunner.memprof(["run", "commute.yaml", "--out", "r", "--no-sampling"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        return dir
    }

    /// Runs memprof under `timeout`, so a command that would wait forever is killed (status 137).
    /// SIGKILL, because a test runner may start processes with SIGTERM blocked.
    static func bounded(_ arguments: [String], in dir: URL) throws -> ProcessOutcome {
        try ProcessRunner.run(command: "timeout", ["-s", "KILL", "20"] + arguments, in: dir)
    }

    /// Runs a shell script with memprof's path as `$0`, for redirections (`> /dev/full`, `>&-`,
    /// `ulimit -f`).
    static func shell(_ script: String, in dir: URL) throws -> ProcessOutcome {
        try bounded(["sh", "-c", script, Repository.memprofBinary.path], in: dir)
    }

    /// The names in `dir` (not below it), sorted.
    static func names(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    static func isSymbolicLink(_ url: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    }

    /// A single-file output is written into what is at its path when that is not a regular file:
    /// a link to standard output writes to standard output, a link to a file writes the file and
    /// stays a link, a link to /dev/full fails with a sentence and exit 3 (before: each link was
    /// replaced by a regular file, standard output got nothing, and /dev/full "succeeded").
    @Test func singleFileOutputsWriteIntoWhatIsThere() throws {
        let dir = try Self.folderWithReport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("to-stdout").path, withDestinationPath: "/dev/stdout")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("to-full").path, withDestinationPath: "/dev/full")
        try "old".write(to: dir.appendingPathComponent("target.json"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "target.json")

        let expected = try ProcessRunner.memprof(["export", "r", "--format", "trace"], in: dir)
        #expect(expected.status == 0 && expected.stdout.hasPrefix("{"), "\(expected.stderr)")
        let viaLink = try ProcessRunner.memprof(["export", "r", "--format", "trace", "-o", "to-stdout"], in: dir)
        #expect(viaLink.status == 0, "\(viaLink.stderr)")
        #expect(viaLink.stdout == expected.stdout)
        #expect(Self.isSymbolicLink(dir.appendingPathComponent("to-stdout")))

        let compare = try ProcessRunner.memprof(["compare", "r", "r", "--json", "to-stdout"], in: dir)
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(compare.stdout.hasPrefix("{"), "\(compare.stdout)")

        let intoFile = try ProcessRunner.memprof(["export", "r", "--format", "trace", "-o", "link.json"], in: dir)
        #expect(intoFile.status == 0, "\(intoFile.stderr)")
        #expect(Self.isSymbolicLink(dir.appendingPathComponent("link.json")))
        #expect(try String(contentsOf: dir.appendingPathComponent("target.json"), encoding: .utf8) == expected.stdout)

        for arguments in [["export", "r", "--format", "trace", "-o", "to-full"], ["compare", "r", "r", "--html", "to-full"],
                          ["check", "r", "--budget", "budget.yaml", "--junit", "to-full"]] {
            try "summary: {evictions: {max: 10}}\n".write(to: dir.appendingPathComponent("budget.yaml"), atomically: true, encoding: .utf8)
            let full = try ProcessRunner.memprof(arguments, in: dir)
            #expect(full.status == 3, "\(arguments): \(full.stderr)")
            #expect(full.stderr == "memprof: no space left on device writing to-full\n", "\(arguments)")
            #expect(Self.isSymbolicLink(dir.appendingPathComponent("to-full")), "\(arguments)")
        }
        #expect(!Scratch.listing(dir).contains { $0.contains(".memprof-") })
    }

    /// Standard output that cannot be written (a full device, closed, past `ulimit -f`) is exit
    /// status 3 with a sentence, for every command that prints (before: `list` exited 0 having
    /// lost its output; import and export stopped with SIGILL, status 132).
    @Test func standardOutputThatCannotBeWrittenIsExitStatus3() throws {
        let dir = try Self.folderWithReport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ips = Repository.root.appendingPathComponent("Tests/MemprofFieldTests/Fixtures/ios11-iphone8-memorytest.ips").path
        let cases: [(String, String)] = [
            (#""$0" list workloads --yaml phone-day > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" list > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" export r --format trace > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" export r --format benchmark > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" import "\#(ips)" > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" validate commute.yaml > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" compare r r > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" --help > /dev/full"#, "memprof: no space left on device writing to standard output\n"),
            (#""$0" export r --format trace >&-"#, "memprof: standard output is closed or not open for writing\n"),
            (#""$0" list workloads >&-"#, "memprof: standard output is closed or not open for writing\n"),
            (#"ulimit -f 1; "$0" export r --format trace > big.json"#,
             "memprof: file too large (over the file-size limit) writing to standard output\n"),
        ]
        for (script, message) in cases {
            let outcome = try Self.shell(script, in: dir)
            #expect(outcome.status == 3, "\(script): \(outcome.stderr)")
            #expect(outcome.stderr == message, "\(script)")
        }
    }

    /// A FIFO given as input is refused at once, named, exit 2 (before: run, validate and a
    /// sweep's `workload:` waited forever, import said "You don't have permission", merge "no
    /// runs.csv").
    @Test func inputThatIsNotARegularFileIsRefused() throws {
        let dir = try Self.folderWithReport()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("fifo").path, 0o644) == 0)
        // A sweep's result whose runs.csv is a FIFO.
        try "memprof: 1\nsweep: s\nworkload: commute.yaml\nseeds: 1..2\n".write(to: dir.appendingPathComponent("sweep.yaml"),
                                                                             atomically: true, encoding: .utf8)
        let sweep = try ProcessRunner.memprof(["sweep", "sweep.yaml", "--out", "part"], in: dir)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let runs = dir.appendingPathComponent("part/runs.csv").path
        #expect(unlink(runs) == 0 && mkfifo(runs, 0o644) == 0)
        try "memprof: 1\nsweep: s\nworkload: fifo\nseeds: 1..2\n".write(to: dir.appendingPathComponent("sweep.yaml"),
                                                                     atomically: true, encoding: .utf8)
        let refusal = "is a FIFO, not a regular file; memprof reads its input from files"
        let cases: [([String], String)] = [
            (["run", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["validate", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["sweep", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["sweep", "sweep.yaml", "--out", "fleet"], "memprof: sweep.yaml:3:11: workload: \(refusal)\n"),
            (["import", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["check", "r", "--budget", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["compare", "r", "r", "--thresholds", "fifo"], "memprof: fifo: \(refusal)\n"),
            (["merge", "fifo", "--out", "merged"], "memprof: fifo: is a FIFO, not a folder written by memprof sweep or merge\n"),
            (["merge", "part", "--out", "merged"], "memprof: part/runs.csv: \(refusal)\n"),
        ]
        for (arguments, message) in cases {
            let outcome = try Self.bounded([Repository.memprofBinary.path] + arguments, in: dir)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr == message, "\(arguments)")
        }
        #expect(Self.names(dir) == ["commute.yaml", "fifo", "part", "r", "sweep.yaml"])
    }

    /// Starts memprof with `arguments` in `dir`, waits until `ready` (by default: a staging folder,
    /// `.NAME.memprof-PID-START`, appears there), sends `signal`, and returns the exit status and
    /// what `dir` holds after.
    static func interrupt(_ arguments: [String], in dir: URL, with signal: Int32, environment: [String: String] = [:],
                          when ready: (URL) -> Bool = { names($0).contains { $0.contains(".memprof-") } }) throws
        -> (status: Int32, stderr: String, listing: [String]) {
        let process = Process()
        process.executableURL = Repository.memprofBinary
        process.arguments = arguments
        process.currentDirectoryURL = dir
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        // Standard error goes to a file, not a pipe: a process that inherited it and outlives
        // memprof cannot hold the test until it ends.
        let errFile = dir.deletingLastPathComponent().appendingPathComponent(dir.lastPathComponent + ".stderr")
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !ready(dir) && process.isRunning && Date() < deadline {
            usleep(20_000)
        }
        #expect(ready(dir), "not ready to interrupt: \(names(dir))")
        kill(process.processIdentifier, signal)
        // A process that does not end within a minute (the signal blocked) is killed.
        let killer = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        let stderr = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        return (process.terminationStatus, stderr, names(dir))
    }

    /// SIGTERM or Ctrl-C (SIGINT) during a run or a sweep removes its staging folder and exits
    /// 143 or 130 (before: the process died with the signal and left `.out.memprof-PID-START`,
    /// tens of megabytes, until the next write beside it).
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedRunOrSweepLeavesNothing(signal: Int32) throws {
        let dir = try Scratch.makeDirectory("interrupted")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Self.interrupt(["run", "phone-day", "--set", "duration=60h", "--out", "out"], in: dir, with: signal)
        #expect(run.status == 128 + signal, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("; the unfinished output was removed\n"), "\(run.stderr)")
        #expect(run.listing == [], "\(run.listing)")

        try "memprof: 1\nsweep: long\nworkload: phone-day\nseeds: 1..5000\n".write(
            to: dir.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
        let sweep = try Self.interrupt(["sweep", "long.yaml", "--out", "out", "--threads", "1"], in: dir, with: signal)
        #expect(sweep.status == 128 + signal, "\(sweep.stderr)")
        #expect(sweep.listing == ["long.yaml"], "\(sweep.listing)")
    }

    /// SIGTERM or Ctrl-C while `calibrate --dask` waits for its runner removes the runner's
    /// scratch folder (`memprof-dask-*` in the temporary folder: the sweep it was handed and the
    /// runner's log) as it removes a staging folder, and ends the runner (before, it went on
    /// handing the cluster a sweep no one would read). The runner here is a shell script that
    /// writes its process id and waits, so no cluster is needed (scripts/check-fleet-dask.sh runs
    /// a real one).
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedCalibrationOnDaskLeavesNoScratchFolder(signal: Int32) throws {
        let dir = try Scratch.makeDirectory("interrupted-dask")
        defer { try? FileManager.default.removeItem(at: dir) }
        try CalibrateEndToEndTests.field(in: dir)
        try CalibrateEndToEndTests.base("{key: device.systemReserved, low: 0MB, high: 2000MB}")
            .write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
        let temporary = dir.appendingPathComponent("tmp"), pidFile = dir.appendingPathComponent("runner.pid")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        try "echo $$ > '\(pidFile.path)'\nexec sleep 120\n".write(to: dir.appendingPathComponent("runner.sh"), atomically: true, encoding: .utf8)
        defer {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
        }
        let calibrate = try Self.interrupt(["calibrate", "payloads", "--sweep", "base.yaml", "--out", "out", "--dask", "sched.json",
                                            "--dask-python", "/bin/sh", "--dask-runner", "runner.sh"],
                                           in: dir, with: signal, environment: ["TMPDIR": temporary.path]) { _ in
            Self.names(temporary).contains { $0.hasPrefix("memprof-dask-") }
                && ((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        #expect(calibrate.status == 128 + signal, "\(calibrate.stderr)")
        #expect(calibrate.stderr.hasSuffix("; the unfinished output was removed\n"), "\(calibrate.stderr)")
        #expect(Self.names(temporary) == [], "left in the temporary folder: \(Self.names(temporary))")
        #expect(!calibrate.listing.contains("out"), "\(calibrate.listing)")
        let runner = try #require(pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!ProcessRunner.isRunning(runner), "the runner \(runner) outlived the interrupted calibration")
    }

    /// SIGTERM or SIGHUP while a run swaps its new report into a folder that holds thousands of
    /// the user's files (their hard links into the new folder, the exchange, the old folder's
    /// removal) leaves the old report or the new one whole, every file of the user's, and nothing
    /// beside the folder (before: the interruption removed the staging folder while the swap
    /// went on, and hundreds of the user's files and parts of both reports were lost).
    @Test(.timeLimit(.minutes(4))) func aSignalDuringTheSwapKeepsOneReportAndEveryFileOfTheUsers() throws {
        let dir = try Scratch.makeDirectory("interrupted-swap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("fo")
        #expect(try ProcessRunner.memprof(["run", "observer-leaks", "--out", "fo", "--no-sampling"], in: dir).status == 0)
        let userFiles = 3000
        for i in 0..<userFiles { try Data("mine \(i)".utf8).write(to: folder.appendingPathComponent("notes-\(i).txt")) }
        var landedInSwap = 0
        for attempt in 0..<12 {
            let process = Process()
            process.executableURL = Repository.memprofBinary
            process.arguments = ["run", attempt % 2 == 0 ? "ipad-afternoon" : "observer-leaks", "--out", "fo", "--no-sampling"]
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The swap begins once the report's files are in the staging folder: wait for the
            // last of them (trace.json is written last), then a moment that differs per attempt.
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline, !Self.names(dir).contains(where: { name in
                name.hasPrefix(".fo.memprof-") && Self.names(dir.appendingPathComponent(name)).count > 3 }) { usleep(100) }
            usleep(UInt32(attempt % 6) * 1_500)
            if process.isRunning, Self.names(dir).contains(where: { $0.hasPrefix(".fo.memprof-") }) { landedInSwap += 1 }
            kill(process.processIdentifier, attempt % 3 == 2 ? SIGHUP : SIGTERM)
            process.waitUntilExit()
            let names = Self.names(folder)
            let mine = names.filter { $0.hasPrefix("notes-") }
            #expect(mine.count == userFiles, "after signal \(attempt): \(mine.count) of the user's \(userFiles) files")
            for i in stride(from: 0, to: userFiles, by: 97) {
                #expect((try? String(contentsOf: folder.appendingPathComponent("notes-\(i).txt"), encoding: .utf8)) == "mine \(i)")
            }
            let report = Set(names).subtracting(mine)
            #expect(report == ["report.html", "report.json", "trace.json"], "after signal \(attempt): \(report.sorted())")
            // The report's three files are of one run, whole.
            let copy = dir.appendingPathComponent("check")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for name in report { try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: copy.appendingPathComponent(name)) }
            if case .failure(let problem) = HardeningEndToEndTests.reportInFolder(copy) { Issue.record("after signal \(attempt): \(problem.why)") }
            try FileManager.default.removeItem(at: copy)
            #expect(Self.names(dir) == ["fo"], "after signal \(attempt): \(Self.names(dir))")
        }
        #expect(landedInSwap >= 3, "only \(landedInSwap) signals came while the staging folder existed")
    }

    /// Ctrl-C while a handler's program runs ends what the program started too: the program dies
    /// with memprof, and memprof ends its process group before it exits (before: a child the
    /// program had started kept running).
    @Test func anInterruptedRunEndsWhatItsProgramStarted() throws {
        let dir = try Scratch.makeDirectory("interrupted-program")
        defer { try? FileManager.default.removeItem(at: dir) }
        let workload = """
            memprof: 1
            name: program
            duration: 10m
            apps:
              mail:
                launch: {footprint: 45MB}
                modes: [fetch]
                fetch: {interval: 2m, time: 4s, work: {command: [/bin/sh, -c, "sleep 300 & echo $! > child; wait"], cwd: \(dir.path)}}
            script:
              - {at: 0s, open: mail}
              - {at: 1m, home: true}
            """
        try workload.write(to: dir.appendingPathComponent("program.yaml"), atomically: true, encoding: .utf8)
        let childFile = dir.appendingPathComponent("child")
        let run = try Self.interrupt(["run", "program.yaml", "--out", "out"], in: dir, with: SIGINT) { _ in
            ((try? String(contentsOf: childFile, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        let text = try String(contentsOf: childFile, encoding: .utf8)
        let child = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(child, SIGKILL) }
        #expect(run.status == 130, "\(run.stderr)")
        #expect(!ProcessRunner.isRunning(child), "the program's child \(child) outlived the interrupted run")
        #expect(run.listing == ["child", "program.yaml"], "\(run.listing)")
    }

    /// `--out` a symbolic link to a folder writes the report into the folder it names and keeps
    /// the link (before: the link was replaced by a real folder and the old report stayed in the
    /// link's target); a link to nothing is refused with a sentence naming where it points
    /// (before: "a part of the path is a file, not a folder"), exit 2, nothing written.
    @Test func anOutputFolderThatIsALinkStaysALink() throws {
        let dir = try Self.folderWithReport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("latest")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "r")
        try "mine".write(to: dir.appendingPathComponent("r/notes.txt"), atomically: true, encoding: .utf8)
        let run = try ProcessRunner.memprof(["run", "observer-leaks", "--out", "latest", "--no-sampling"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.isSymbolicLink(link))
        #expect(Self.names(dir.appendingPathComponent("r")) == ["notes.txt", "report.html", "report.json", "trace.json"])
        let json = try String(contentsOf: dir.appendingPathComponent("r/report.json"), encoding: .utf8)
        #expect(json.contains("\"observer-leaks\""))
        #expect(Self.names(dir) == ["commute.yaml", "latest", "r"])

        let dangling = dir.appendingPathComponent("gone")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "nowhere/report")
        let refused = try ProcessRunner.memprof(["run", "commute.yaml", "--out", "gone", "--no-sampling"], in: dir)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("gone is a symbolic link to 'nowhere/report', which does not exist"), "\(refused.stderr)")
        #expect(Self.names(dir) == ["commute.yaml", "gone", "latest", "r"])
    }

    /// An empty output path is refused before anything runs, exit 2 (before: `run --out ""`
    /// wrote the report into the current folder).
    @Test func anEmptyOutputPathIsRefused() throws {
        let dir = try Scratch.makeDirectory("empty-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        try goodWorkload.write(to: dir.appendingPathComponent("commute.yaml"), atomically: true, encoding: .utf8)
        try "memprof: 1\nsweep: s\nworkload: commute.yaml\nseeds: 1..2\n".write(to: dir.appendingPathComponent("s.yaml"),
                                                                             atomically: true, encoding: .utf8)
        for arguments in [["run", "commute.yaml", "--out", ""], ["run", "commute.yaml", "-o", ""], ["sweep", "s.yaml", "--out", ""],
                          ["merge", "a", "--out", ""], ["export", "r", "--format", "trace", "-o", ""], ["import", "x.ips", "-o", ""],
                          ["compare", "a", "b", "--html", ""], ["check", "a", "--budget", "b", "--json", ""]] {
            let outcome = try ProcessRunner.memprof(arguments, in: dir)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("an empty path names no file or folder"), "\(arguments): \(outcome.stderr)")
        }
        #expect(Self.names(dir) == ["commute.yaml", "s.yaml"])
    }
}
