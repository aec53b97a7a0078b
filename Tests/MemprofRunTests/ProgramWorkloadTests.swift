import Foundation
import MemprofInput
import MemprofOutput
import MemprofRun
import MemprofSampler
import MemprofTestSupport
import MemprofWorkload
import Testing

/// Workloads whose handlers run the user's own program (spec §8.1), through the run pipeline.
@Suite(.serialized) struct ProgramWorkloadTests {
    static let example = Repository.builtProduct("memprof-example-c")

    /// A workload whose mail app's fetch runs `command` (YAML flow list text).
    func workload(_ command: String, fetch: String = "time: 4s", device: String = "iphone-6-plus",
                  footprint: String = "45MB") -> String {
        """
        memprof: 1
        name: userprog
        duration: 5m
        device: \(device)
        apps:
          mail:
            launch: {footprint: \(footprint)}
            modes: [fetch]
            fetch: {interval: 2m, \(fetch), work: {command: \(command)}}
        script:
          - {at: 0s, open: mail}
          - {at: 1m, home: true}
        """
    }

    func load(_ text: String) throws -> LoadedWorkload {
        try WorkloadSource.thisBuild.load(try Scratch.write(text, name: "userprog.yaml").path)
    }

    /// What `validate` and `run` say about a bad command: the same located error, exit status 2.
    @Test(arguments: [
        ("[./no-such-program]", "no program at './no-such-program'"),
        ("[NOT-EXECUTABLE]", "is not executable"),
        ("[/tmp]", "is a directory"),
        ("[/sbin/ldconfig]", "is statically linked"),
        ("[no-such-program-anywhere]", "no program named 'no-such-program-anywhere' in PATH"),
        ("[]", "a command needs at least the program's path"),
    ])
    func aCommandThatCannotRunIsALocatedError(command: String, message: String) throws {
        let plain = try Scratch.write("not a program\n", name: "plain")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plain.path)
        let text = workload(command.replacingOccurrences(of: "NOT-EXECUTABLE", with: plain.path))
        let file = try Scratch.write(text, name: "bad.yaml")
        let error = try #require(throws: WorkloadError.self) { try WorkloadSource.thisBuild.load(file.path) }
        #expect(error.line == 9 && error.keyPath.hasPrefix("apps.mail.fetch.work.command"))
        #expect("\(error)".contains(message), "\(error)")
        // The binary: validate and run refuse it alike, with exit status 2 and nothing written.
        let out = try Scratch.makeDirectory("out").appendingPathComponent("report")
        let validate = try ProcessRunner.run(Repository.memprofBinary, ["validate", file.path])
        let run = try ProcessRunner.run(Repository.memprofBinary, ["run", file.path, "--out", out.path])
        #expect(validate.status == 2 && run.status == 2)
        #expect(validate.stderr == run.stderr && validate.stderr.contains(message))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func keysOfAKernelAndOfAProgramDoNotMix() throws {
        for (work, message) in [("{command: [\(Self.example)], size: 1MB}", "'size' goes with a kernel"),
                                ("{kernel: checksum, size: 1MB, cwd: /tmp}", "'cwd' goes with 'command'")] {
            let text = workload("[x]").replacingOccurrences(of: "work: {command: [x]}", with: "work: \(work)")
            let error = try #require(throws: WorkloadError.self) { try load(text) }
            #expect("\(error)".contains(message), "\(error)")
        }
        let measuredKernel = workload("[x]").replacingOccurrences(
            of: "time: 4s, work: {command: [x]}", with: "time: 4s, allocates: measured, work: {kernel: checksum, size: 1MB}")
        let error = try #require(throws: WorkloadError.self) { try load(measuredKernel) }
        #expect("\(error)".contains("'allocates: measured' needs 'work: {command: [...]}'"))
    }

    /// `allocates: measured`: the program's real peak (40 MiB) is the handler's demand, and on a
    /// device whose app limit it passes, the app is killed with memoryLimit.
    @Test func theMeasuredPeakDrivesTheSimulation() throws {
        let fits = try ScratchRun(RunRequest(workload: try load(
            workload("[\(Self.example)]", fetch: "time: 4s, allocates: measured"))))
        let starts = try fits.report().events.filter { $0.kind == .handlerStart }
        #expect(!starts.isEmpty && starts.allSatisfy { ($0.fields.bytes ?? 0) >= 40 << 20 && ($0.fields.bytes ?? 0) < 41 << 20 })
        #expect(fits.artifacts.head.summary.fetches.completed >= 1 && fits.artifacts.head.summary.terminations["memoryLimit"] == 0)

        let small = "{preset: iphone-6-plus, appLimit: 60MB}"
        let killed = try ScratchRun(RunRequest(workload: try load(
            workload("[\(Self.example)]", fetch: "time: 4s, allocates: measured", device: small))))
        #expect(killed.artifacts.head.summary.terminations["memoryLimit"] == 1)
        let allocations = try #require(killed.artifacts.profile?.handlers.first?.allocations)
        #expect(allocations.peakBytes >= 40 << 20)
    }

    /// A program that crashes or exits with a failure status ends its handler then (spec §8.1),
    /// through the built binary: in report.json the fetch ends at its start + the program's wall
    /// time × cpuScale (well before its declared 4 s) with the failure, the app suspends then with
    /// that cause, trace.json's fetch slice and report.html's timeline end there too, and the
    /// program's signal or status is in the profile.
    @Test(arguments: [(["crash"], "SIGSEGV"), (["exit", "3"], "exit status 3")])
    func aFailingProgramEndsItsHandlerWhenItFails(arguments: [String], failure: String) throws {
        let command = "[" + ([Self.example] + arguments).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let file = try Scratch.write(workload(command, device: "{preset: iphone-6-plus, cpuScale: 2}"), name: "fails.yaml")
        let out = try Scratch.makeDirectory("fails").appendingPathComponent("report")
        let run = try ProcessRunner.run(Repository.memprofBinary, ["run", file.path, "--out", out.path, "--no-sampling"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let events = try #require(report["events"] as? [[String: Any]]).filter { $0["app"] as? String == "mail" }
        let start = try #require(events.first { $0["kind"] as? String == "handlerStart" }?["atUs"] as? Int)
        let end = try #require(events.first { $0["kind"] as? String == "handlerEnd" })
        let endUs = try #require(end["atUs"] as? Int)
        #expect(end["detail"] as? String == "failed: \(failure)")
        let profile = try #require(report["profile"] as? [String: Any])
        let firstRun = try #require((profile["runs"] as? [[String: Any]])?.first)
        let wall = try #require(firstRun["wallMicroseconds"] as? Int)
        #expect(endUs - start == 2 * wall && endUs - start < 4_000_000)
        #expect(events.contains { $0["kind"] as? String == "transition" && $0["atUs"] as? Int == endUs
                && $0["to"] as? String == "suspended" && $0["cause"] as? String == "fetch failed: \(failure)" })
        let program = try #require((profile["handlers"] as? [[String: Any]])?.first?["program"] as? [String: Any])
        if failure.hasPrefix("SIG") {
            #expect(program["signal"] as? String == failure && program["crashedRuns"] as? Int ?? 0 >= 1)
        } else {
            #expect(program["exitStatus"] as? Int == 3 && program["failedRuns"] as? Int ?? 0 >= 1)
        }
        let summary = try #require(report["summary"] as? [String: Any])
        #expect((summary["fetches"] as? [String: Any])?["completed"] as? Int == 0)
        // The timeline: trace.json's fetch slice lasts until the failure; report.html names it.
        let trace = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("trace.json"))) as? [String: Any])
        let slices = try #require(trace["traceEvents"] as? [[String: Any]])
        #expect(slices.contains { $0["name"] as? String == "fetch" && $0["ts"] as? Int == start
                && $0["dur"] as? Int == endUs - start
                && ($0["args"] as? [String: Any])?["outcome"] as? String == "failed: \(failure)" })
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("fetch failed: \(failure)"))
    }

    /// The program gets its window (30 s) × cpuScale in wall time: at cpuScale 100, 0.3 s.
    @Test func aProgramOverrunningItsWindowTimesOutItsFetch() throws {
        let artifacts = try ScratchRun(RunRequest(workload: try load(workload(
            "[\(Self.example), sleep, \"20\"]", device: "{preset: iphone-6-plus, cpuScale: 100}")))).artifacts
        #expect(artifacts.head.summary.terminations["fetchTimeout"] == artifacts.head.summary.fetches.started)
        #expect(artifacts.head.summary.fetches.timedOut >= 1)
        let program = try #require(artifacts.profile?.handlers.first?.program)
        #expect(program.timedOutRuns == artifacts.head.summary.fetches.started)
    }
}
