import Foundation
import MemprofCore
import MemprofProfile
@testable import MemprofSampler
import MemprofTestSupport
import Testing

/// Programs run as work (spec §8.1): the example programs of this package, whose allocations are
/// known to the byte, run with memprof's preload library.
@Suite(.serialized) struct ProgramWorkTests {
    static let mebibyte: Int64 = 1 << 20

    func run(_ arguments: [String], program: String = "memprof-example-c", limitUs: Microseconds? = nil,
             rateHz: Double = 997) -> (outcome: WorkOutcome, profile: SamplingProfile) {
        var performer = SampledWorkPerformer(rateHz: rateHz)
        let path = program.hasPrefix("/") ? program : Repository.builtProduct(program)
        let work = WorkSpec(program: ProgramSpec(command: [path] + arguments))
        let outcome = performer.run(work, app: "mail", handler: .fetch, wallLimitUs: limitUs)
        return (outcome, performer.makeProfile())
    }

    /// Totals over the stacks whose frames include a function named `function`.
    func totals(_ profile: SamplingProfile, _ function: String) -> (allocated: Int64, count: Int64, peak: Int64, leaked: Int64, leakedBlocks: Int64) {
        let stacks = profile.handlers[0].allocations?.stacks ?? []
        return stacks.filter { stack in profile.frames(of: stack).contains { $0.name == function || $0.name.hasSuffix("." + function + "()") } }
            .reduce((0, 0, 0, 0, 0)) { sum, stack in
                (sum.0 + stack.allocatedBytes, sum.1 + stack.allocations, sum.2 + stack.peakBytes,
                 sum.3 + stack.leakedBytes, sum.4 + stack.leakedBlocks)
            }
    }

    @Test func theCProgramsAllocationsAreReportedToTheByteAtTheirStacks() throws {
        let (outcome, profile) = run([])
        let handler = try #require(profile.handlers.first)
        let program = try #require(handler.program)
        #expect(program.recorderStarted && program.exitStatus == 0 && program.signal == nil)
        #expect(program.lostEvents == 0)

        let held = totals(profile, "hold_blocks")
        #expect(held.allocated == 40 * Self.mebibyte && held.count == 160)
        #expect(held.peak == 40 * Self.mebibyte)  // all 160 blocks were held at the peak
        #expect(held.leaked == 0)                 // freed: a quarter at once, the rest at the end
        let leaked = totals(profile, "leak_small")
        #expect(leaked.allocated == 5 * Self.mebibyte && leaked.count == 5120)
        #expect(leaked.leaked == 5 * Self.mebibyte && leaked.leakedBlocks == 5120)
        #expect(leaked.peak == 0)                 // allocated after the peak, when 10 MiB were freed

        let allocations = try #require(handler.allocations)
        #expect(allocations.peakBytes >= 40 * Self.mebibyte && allocations.peakBytes < 41 * Self.mebibyte)
        #expect(allocations.leakedBytes >= 5 * Self.mebibyte)
        #expect(outcome.peakBytes == allocations.peakBytes && !outcome.overran)

        // Names people can act on: the function, its file and line from DWARF; no frame of memprof's.
        let stack = try #require(allocations.stacks.first { profile.frames(of: $0).contains { $0.name == "hold_blocks" } })
        let frames = profile.frames(of: stack)
        let hold = try #require(frames.first { $0.name == "hold_blocks" })
        #expect(hold.file?.hasSuffix("memprof-example-c/main.c") == true && (hold.line ?? 0) > 0)
        #expect(frames.last?.name == "hold_blocks")  // innermost: the caller of malloc
        #expect(!profile.frames.contains { $0.module == "libmemprof-preload.so" && $0.name == "record" })
    }

    @Test func theSwiftProgramsAllocationsAreReportedAtItsFunctions() throws {
        let (_, profile) = run([], program: "memprof-example-swift")
        let program = try #require(profile.handlers.first?.program)
        #expect(program.exitStatus == 0)
        // The blocks are the 256 KiB allocations under holdBlocks (the array holding them is
        // allocated there too, so only stacks of 256 KiB blocks are counted).
        let stacks = profile.handlers[0].allocations?.stacks ?? []
        let blocks = stacks.filter { stack in
            stack.allocatedBytes == stack.allocations * 256 * 1024
                && profile.frames(of: stack).contains { $0.name.hasSuffix(".holdBlocks()") }
        }
        #expect(blocks.reduce(0) { $0 + $1.allocatedBytes } == 40 * Self.mebibyte)
        #expect(blocks.reduce(0) { $0 + $1.peakBytes } == 40 * Self.mebibyte)
        let leaked = totals(profile, "leakSmallPieces")
        #expect(leaked.allocated == 5 * Self.mebibyte && leaked.leaked == 5 * Self.mebibyte && leaked.count == 5120)
    }

    @Test func aProgramPastItsLimitIsKilled() throws {
        let (outcome, profile) = run(["sleep", "20"], limitUs: 300_000)
        #expect(outcome.overran)
        #expect(outcome.wallMicroseconds < 10_000_000)
        let program = try #require(profile.handlers.first?.program)
        #expect(program.timedOutRuns == 1 && program.crashedRuns == 0 && program.signal == "SIGKILL")
    }

    @Test func aCrashIsReportedWithItsSignal() throws {
        let (outcome, profile) = run(["crash"])
        #expect(!outcome.overran)
        let program = try #require(profile.handlers.first?.program)
        #expect(program.signal == "SIGSEGV" && program.crashedRuns == 1 && program.exitStatus == nil)
    }

    /// A C program's crash is its own: memprof's preload library does not bring the Swift runtime
    /// into it, whose crash handler would write a Swift crash report into its standard error.
    /// (The program is built with the system's C compiler: SwiftPM links its own C executables
    /// against the Swift runtime.)
    @Test func aCProgramsCrashHasNoSwiftCrashReport() throws {
        let dir = try Scratch.makeDirectory("c-crash")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "#include <stdio.h>\nint main(void) { fputs(\"about to crash\\n\", stderr); fflush(stderr); *(volatile int *)0 = 1; return 0; }\n"
            .write(to: dir.appendingPathComponent("crash.c"), atomically: true, encoding: .utf8)
        let compiled = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/cc"), ["-o", "crash", "crash.c"], in: dir)
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let (outcome, profile) = run([], program: dir.appendingPathComponent("crash").path)
        #expect(outcome.failure == "SIGSEGV")
        let program = try #require(profile.handlers.first?.program)
        #expect(program.recorderStarted && program.signal == "SIGSEGV")
        #expect(program.stderrTail == "about to crash\n", "\(program.stderrTail)")
    }

    @Test func thePreloadLibraryLoadsNoSwiftRuntime() throws {
        let library = try #require(ProgramRunner.preloadLibrary())
        let output = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", library])
        #expect(output.status == 0)
        #expect(!output.stdout.contains("swift"), "\(output.stdout)")
    }

    @Test func everyThreadOfABusyProgramIsSampledAndEveryAllocationCounted() throws {
        let (_, profile) = run(["threads", "1500000"])
        let handler = try #require(profile.handlers.first)
        #expect(handler.samples > 0)
        // Samples and allocations of the two threads the program started (not its main thread).
        let inThreads = handler.stacks.filter { stack in profile.frames(of: stack).contains { $0.name == "churn_thread" } }
        #expect(inThreads.contains { stack in profile.frames(of: stack).contains { $0.name == "churn" } })
        let allocations = try #require(handler.allocations)
        let churned = totals(profile, "churn")
        #expect(churned.count == 3_000_000 && churned.leaked == 0)
        #expect(allocations.allocations >= 3_000_000 && handler.program?.lostEvents == 0)
    }
}

/// A hostile program writes seeded random events and counters into memprof's channel: memprof
/// must neither crash nor hang, and must still say how the program ended.
@Suite(.serialized) struct HostileProgramTests {
    @Test(arguments: [1, 2])
    func randomChannelContentIsSurvived(seed: Int) throws {
        var performer = SampledWorkPerformer(rateHz: 997)
        let command = [Repository.builtProduct("memprof-example-c"), "scribble", String(seed)]
        let outcome = performer.run(WorkSpec(program: ProgramSpec(command: command)), app: "mail", handler: .push,
                                    wallLimitUs: 20_000_000)
        #expect(!outcome.overran)
        let profile = performer.makeProfile()
        let handler = try #require(profile.handlers.first)
        #expect(handler.program?.exitStatus == 0)
        #expect(handler.program?.lostEvents ?? 0 > 0)  // the nonsense head says so
        // A count the program made up stays a number every JSON reader holds exactly (≤ 2^53).
        #expect(handler.program?.lostEvents ?? 0 <= 1 << 53)
        #expect(handler.stacks.count + (handler.allocations?.stacks.count ?? 0) <= 2 * 4000 + 2)
    }
}

/// Names of a program's frames: C++ and Rust (legacy scheme) demangled, Rust's hash dropped.
@Suite struct ProgramNameTests {
    @Test func cppAndRustNamesAreDemangled() {
        #expect(ProgramSymbolicator.readableName("_ZN3foo3barEv") == "foo::bar()")
        #expect(ProgramSymbolicator.readableName("_ZN4core3fmt5write17h0123456789abcdefE") == "core::fmt::write")
        #expect(ProgramSymbolicator.readableName("hold_blocks") == "hold_blocks")
    }
}
