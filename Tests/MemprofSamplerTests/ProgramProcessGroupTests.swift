import Foundation
import MemprofCore
@testable import MemprofSampler
import MemprofTestSupport
import Testing

/// A program run as work ends with its window or its own exit, and so does everything it started:
/// it runs in a process group of its own, and memprof ends the whole group.
@Suite(.serialized) struct ProgramProcessGroupTests {
    /// Runs `script` with /bin/sh as the work of a fetch; the script writes its child's pid to
    /// `pid` in its folder. Returns the outcome and that pid.
    func run(_ script: String, limitUs: Microseconds?) throws -> (outcome: WorkOutcome, child: pid_t) {
        let dir = try Scratch.makeDirectory("program-group")
        defer { try? FileManager.default.removeItem(at: dir) }
        var performer = SampledWorkPerformer(rateHz: 0)
        let work = WorkSpec(program: ProgramSpec(command: ["/bin/sh", "-c", script], directory: dir.path))
        let outcome = performer.run(work, app: "mail", handler: .fetch, wallLimitUs: limitUs)
        let text = try String(contentsOf: dir.appendingPathComponent("pid"), encoding: .utf8)
        let child = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (outcome, child)
    }

    @Test func aChildThatLoopsIsKilledAtTheWindow() throws {
        let (outcome, child) = try run("(while :; do :; done) & echo $! > pid; wait", limitUs: 400_000)
        defer { kill(child, SIGKILL) }
        #expect(outcome.overran)
        #expect(!ProcessRunner.isRunning(child), "the forked child \(child) outlived the kill at the window")
    }

    @Test func aChildIsEndedWhenTheProgramExits() throws {
        let (outcome, child) = try run("sleep 300 & echo $! > pid; exit 0", limitUs: 20_000_000)
        defer { kill(child, SIGKILL) }
        #expect(!outcome.overran && outcome.failure == nil)
        #expect(!ProcessRunner.isRunning(child), "the child \(child) outlived the program's exit")
    }
}

/// A program's sampling rate is reported over its CPU time, the clock its timers count: a program
/// that sleeps for a second and then computes is sampled at the rate asked while it computes.
@Suite(.serialized) struct ProgramSamplingRateTests {
    @Test func theRateIsOverTheProgramsCPUTime() throws {
        var performer = SampledWorkPerformer(rateHz: 200)
        let script = "sleep 1; i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"
        let outcome = performer.run(WorkSpec(program: ProgramSpec(command: ["/bin/sh", "-c", script])),
                                    app: "mail", handler: .fetch, wallLimitUs: 60_000_000)
        #expect(!outcome.overran && outcome.failure == nil)
        let profile = performer.makeProfile()
        let sampler = profile.sampler
        #expect(sampler.clock == "program-thread-cpu")
        #expect(sampler.samples > 20)
        // 200 Hz of CPU time, give or take what a loaded machine's ticks do to it.
        #expect(sampler.achievedRateHz > 120 && sampler.achievedRateHz < 260, "\(sampler.achievedRateHz) Hz")
    }
}
