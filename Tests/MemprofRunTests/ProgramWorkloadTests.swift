import Foundation
import MemprofOutput
import MemprofRun
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
        try WorkloadSource.load(try Scratch.write(text, name: "userprog.yaml").path)
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
        let error = try #require(throws: WorkloadError.self) { try WorkloadSource.load(file.path) }
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
        let fits = try RunPipeline.run(RunRequest(workload: try load(
            workload("[\(Self.example)]", fetch: "time: 4s, allocates: measured"))))
        let starts = fits.report.events.filter { $0.kind == .handlerStart }
        #expect(!starts.isEmpty && starts.allSatisfy { ($0.fields.bytes ?? 0) >= 40 << 20 && ($0.fields.bytes ?? 0) < 41 << 20 })
        #expect(fits.report.summary.fetches.completed >= 1 && fits.report.summary.terminations["memoryLimit"] == 0)

        let small = "{preset: iphone-6-plus, appLimit: 60MB}"
        let killed = try RunPipeline.run(RunRequest(workload: try load(
            workload("[\(Self.example)]", fetch: "time: 4s, allocates: measured", device: small))))
        #expect(killed.report.summary.terminations["memoryLimit"] == 1)
        let allocations = try #require(killed.profile?.handlers.first?.allocations)
        #expect(allocations.peakBytes >= 40 << 20)
    }

    /// The program gets its window (30 s) × cpuScale in wall time: at cpuScale 100, 0.3 s.
    @Test func aProgramOverrunningItsWindowTimesOutItsFetch() throws {
        let artifacts = try RunPipeline.run(RunRequest(workload: try load(workload(
            "[\(Self.example), sleep, \"20\"]", device: "{preset: iphone-6-plus, cpuScale: 100}"))))
        #expect(artifacts.report.summary.terminations["fetchTimeout"] == artifacts.report.summary.fetches.started)
        #expect(artifacts.report.summary.fetches.timedOut >= 1)
        let program = try #require(artifacts.profile?.handlers.first?.program)
        #expect(program.timedOutRuns == artifacts.report.summary.fetches.started)
    }
}
