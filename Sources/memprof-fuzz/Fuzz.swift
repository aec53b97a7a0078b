import Foundation
import MemprofFuzz

// Two builds of one program (scripts/fuzz.sh):
// - with `-Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING`, a libFuzzer binary: libFuzzer's main
//   calls LLVMFuzzerTestOneInput with the target named by MEMPROF_FUZZ_TARGET;
// - otherwise a command: `memprof-fuzz loop TARGET SECONDS [SEED]` runs the seeded mutation
//   loop, `memprof-fuzz seeds TARGET DIR` writes a target's seeds into DIR (libFuzzer's corpus),
//   `memprof-fuzz replay TARGET FILE` runs one input (a crash found earlier).

#if FUZZING
nonisolated(unsafe) let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["MEMPROF_FUZZ_TARGET"] ?? "workload"
    guard let target = FuzzTargets.named(name) else { fatalError("memprof-fuzz: no target '\(name)'") }
    return target
}()

@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// SwiftPM links an executable's entry point under this name (and points `main` at it), so
// libFuzzer's own main is not used: its driver is started from here instead.
@_cdecl("memprof_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    _ = fuzzTarget
    return llvmFuzzerRunDriver(&argc, &argv) { data, size in
        _ = fuzzTarget.run(data.map { Data(bytes: $0, count: size) } ?? Data())
        return 0
    }
}
#else
@main
enum FuzzCommand {
    static func main() throws {
        let args = CommandLine.arguments
        let targets = FuzzTargets.all.map(\.name).joined(separator: ", ")
        guard args.count >= 3, let target = FuzzTargets.named(args[2]) else {
            FileHandle.standardError.write(Data("usage: memprof-fuzz loop|seeds|replay TARGET ... (targets: \(targets))\n".utf8))
            exit(2)
        }
        switch args[1] {
        case "loop":
            let seconds = args.count > 3 ? Double(args[3]) ?? 60 : 60
            let seed = args.count > 4 ? UInt64(args[4]) ?? 1 : 1
            let crashes = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MEMPROF_FUZZ_CRASHES"] ?? ".build/fuzz/crashes")
            let outcome = try MutationLoop(target: target, seed: seed, crashDirectory: crashes).run(seconds: seconds)
            print("\(target.name): \(outcome.executions) executions in \(String(format: "%.0f", outcome.seconds)) s "
                + "(\(Int(Double(outcome.executions) / max(outcome.seconds, 0.001)))/s), corpus \(outcome.corpus), "
                + "accepted \(outcome.accepted), crashes 0")
        case "seeds" where args.count > 3:
            let dir = URL(fileURLWithPath: args[3])
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (i, seed) in target.seeds().enumerated() { try seed.write(to: dir.appendingPathComponent("seed-\(i)")) }
        case "replay" where args.count > 3:
            guard let data = FileManager.default.contents(atPath: args[3]) else { exit(2) }
            print("\(target.name): accepted \(target.run(data))")
        default:
            exit(2)
        }
    }
}
#endif
